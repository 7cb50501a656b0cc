import { createTestEngine, type TestEngine } from "@purse/testing";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EngineDependencies } from "../engine-dependencies.ts";
import { PurseError } from "../errors/index.ts";
import { tokenRouteLimits } from "../rate-limit/abuse-limits.ts";
import { MemoryRateLimiter } from "../rate-limit/memory-rate-limiter.ts";
import { hashSecret } from "../secrets/index.ts";
import { HashQueue } from "./hash-queue.ts";
import { requestToken } from "./issue-token.ts";
import { rotateClientSecret } from "./rotate-client-credentials.ts";
import { VerifiedSecrets } from "./verified-secrets.ts";

/**
 * `/token` for a client that asks before every call: a secret this process verified lately skips
 * the slow hash and is no guess for the flood limit, so the client's own calls in flight never
 * fill it; a rotated secret is not remembered into working, nor a removed client's, nor a wrong
 * one. Hashes wait in a bounded queue; past it the answer is "come back in a second".
 */
describe("client secrets verified lately", () => {
  let engine: TestEngine;
  let deps: EngineDependencies;
  // One hash at a time and none waiting: a test holds the one place to fill the queue.
  const secretHashes = new HashQueue({ running: 1, waiting: 0 });

  beforeAll(async () => {
    engine = await createTestEngine();
    deps = {
      ...engine.deps,
      // One guess a minute per client id and address; room for the tokens themselves.
      rateLimiter: new MemoryRateLimiter({ limitPerMinute: 1, routeLimits: tokenRouteLimits(100) }),
      verifiedSecrets: new VerifiedSecrets({ ttlMs: 60_000 }),
      secretHashes,
    };
  });
  afterAll(() => engine.close());

  const ask = (clientId: string, secret: string, address: string) =>
    requestToken(deps, { grantType: "client_credentials", clientId, clientSecret: secret }, address).then(
      (answer) => ("access_token" in answer ? "token" : `429 after ${answer.retryAfterSeconds} s`),
      (error: unknown) => (PurseError.is(error) ? error.message : String(error)),
    );

  it("lets a known secret's calls in flight past a flood limit of one, where an unknown one's second waits", async () => {
    // Unknown: the first call's hash holds the one place; its twin in flight is refused.
    const unknown = await Promise.all([
      ask("bolt", "bolt-secret", "10.0.0.1"),
      ask("bolt", "bolt-secret", "10.0.0.1"),
    ]);
    expect(unknown.sort()).toEqual([expect.stringMatching(/^429 after \d+ s$/), "token"]);
    // Known now (verified once): ten at once from one address, none a guess.
    const known = await Promise.all(Array.from({ length: 10 }, () => ask("bolt", "bolt-secret", "10.0.0.2")));
    expect(known).toEqual(Array(10).fill("token"));
  });

  it("refuses a remembered secret once rotated away, and counts it a guess then", async () => {
    expect(await ask("cafe", "cafe-secret", "10.0.0.3")).toBe("token");
    const fresh = await rotateClientSecret(deps.db, "cafe", 0);
    expect(await ask("cafe", "cafe-secret", "10.0.0.4")).toBe("invalid_client");
    // That failure was charged to its address: even the new secret waits there.
    expect(await ask("cafe", fresh, "10.0.0.4")).toMatch(/^429 after \d+ s$/);
    expect(await ask("cafe", fresh, "10.0.0.5")).toBe("token");
  });

  it("never takes a wrong secret for a remembered one, nor one client's secret for another's", async () => {
    expect(await ask("bolt", "bolt-secret", "10.0.0.6")).toBe("token");
    expect(await ask("bolt", "bolt-secret ", "10.0.0.7")).toBe("invalid_client");
    expect(await ask("bolt", "BOLT-SECRET", "10.0.0.8")).toBe("invalid_client");
    expect(await ask("acme", "bolt-secret", "10.0.0.9")).toBe("invalid_client");
  });

  it("refuses a removed client at once, though its secret was verified a moment ago", async () => {
    const db = deps.db.em().getKysely();
    await sql`insert into clients (user_id, client_id, secret_hash, form_token_sealed, webhook_secret_sealed)
      values (1, 'gone', ${await hashSecret("gone-secret")}, 'unused', 'unused')`.execute(db);
    expect(await ask("gone", "gone-secret", "10.0.0.10")).toBe("token");
    expect(await ask("gone", "gone-secret", "10.0.0.10")).toBe("token");
    await sql`delete from access_tokens where client_id = (select id from clients where client_id = 'gone')`.execute(
      db,
    );
    await sql`delete from clients where client_id = 'gone'`.execute(db);
    expect(await ask("gone", "gone-secret", "10.0.0.10")).toBe("invalid_client");
  });

  it("answers 'retry in a second' while the hash queue is full, charges nobody, and hashes once it frees", async () => {
    expect(await ask("bolt", "bolt-secret", "10.0.0.11")).toBe("token");
    let free = () => {};
    const held = secretHashes.run(() => new Promise<void>((resolve) => (free = resolve)));
    // acme's secret is not remembered, so it needs a hash, and the one place is taken.
    expect(await ask("acme", "acme-secret", "10.0.0.11")).toBe("429 after 1 s");
    expect(await ask("acme", "acme-secret", "10.0.0.11")).toBe("429 after 1 s");
    // A remembered secret needs no hash: it is answered meanwhile.
    expect(await ask("bolt", "bolt-secret", "10.0.0.11")).toBe("token");
    free();
    await held;
    // Two busy answers spent nothing of that address's one guess a minute.
    expect(await ask("acme", "acme-secret", "10.0.0.11")).toBe("token");
  });
});
