import { createTestEngine, type TestEngine } from "@purse/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCheckout } from "../checkout/create-checkout.ts";
import { payCheckout } from "../checkout/pay-checkout.ts";
import type { EngineDependencies } from "../engine-dependencies.ts";
import { PurseError } from "../errors/index.ts";
import { checkoutSignature } from "../signature/index.ts";
import { signIn } from "./dashboard-session.ts";
import { HashQueue } from "./hash-queue.ts";

/**
 * A user's password is a slow hash (argon2id) as a client secret is: the dashboard's sign-in and
 * the hosted page's payer wait in the same bounded queue as `/token`, and past it are told to come
 * back (Service busy, retry after a second) instead of piling hashes on the thread pool.
 */
describe("passwords in the queue of slow hashes", () => {
  let engine: TestEngine;
  let deps: EngineDependencies;
  // One hash at a time and none waiting: the first request holds the one place.
  const secretHashes = new HashQueue({ running: 1, waiting: 0 });

  beforeAll(async () => {
    engine = await createTestEngine();
    deps = { ...engine.deps, secretHashes };
  });
  afterAll(() => engine.close());

  const outcome = (attempt: Promise<unknown>) =>
    attempt.then(
      () => "done",
      (error: unknown) =>
        PurseError.is(error) ? `${error.code} ${error.retry?.retryAfterSeconds ?? ""}`.trim() : String(error),
    );

  /** Takes the queue's one place until the returned function is called. */
  function holdThePlace(): () => Promise<void> {
    let release = () => {};
    const held = secretHashes.run(() => new Promise<void>((resolve) => (release = resolve)));
    return async () => {
      release();
      await held;
    };
  }

  it("refuses a dashboard sign-in and a payer while the place is taken, before any money moves; both pass once it is free", async () => {
    const fields = {
      wallet_to: "U100000010",
      wallet_from: "U100000020",
      amount: "2.00",
      id: "order-hash-queue",
    };
    const created = await createCheckout(deps, {
      walletTo: fields.wallet_to,
      walletFrom: fields.wallet_from,
      amount: fields.amount,
      id: fields.id,
      signature: checkoutSignature(fields, "acme-form-token"),
      userInfo: "payer-hash-queue",
    });
    const token = created.url.slice(created.url.lastIndexOf("/") + 1);
    const signingIn = () => signIn(deps, { login: "acme", password: "acme-pass", clientAddress: "10.1.0.1" });
    const paying = () => payCheckout(deps, { token, login: "bolt", password: "bolt-pass", action: "pay" });

    const release = holdThePlace();
    expect(await outcome(signingIn())).toBe("SERVICE_BUSY 1");
    expect(await outcome(paying())).toBe("SERVICE_BUSY 1");
    // An unknown login's decoy hash waits in the same queue: its answer's timing tells nothing.
    expect(await outcome(signIn(deps, { login: "nobody", password: "x", clientAddress: "10.1.0.2" }))).toBe(
      "SERVICE_BUSY 1",
    );
    await release();

    expect(await outcome(signingIn())).toBe("done");
    expect(await outcome(paying())).toBe("done");
    expect(await outcome(signIn(deps, { login: "nobody", password: "x", clientAddress: "10.1.0.2" }))).toBe(
      "SIGN_IN_FAILED",
    );
  });
});
