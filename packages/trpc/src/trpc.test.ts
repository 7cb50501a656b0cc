import { issueOperatorToken, issueToken } from "@purse/engine";
import { createTestEngine, type TestEngine } from "@purse/testing";
import { TRPCError } from "@trpc/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appRouter } from "./router.ts";
import { errorShapeOf, type TrpcContext } from "./trpc.ts";

/**
 * The router called as a front end's calls reach it (tRPC's server-side caller, same middlewares,
 * input and output parsing), over a real engine and database; the HTTP mount is the server's.
 */
describe("the tRPC router", () => {
  let engine: TestEngine;
  let merchant: string;
  let operator: string;
  beforeAll(async () => {
    engine = await createTestEngine();
    merchant = (
      await issueToken(engine.deps, {
        grantType: "client_credentials",
        clientId: "acme",
        clientSecret: "acme-secret",
      })
    ).access_token;
    operator = (
      await issueOperatorToken(engine.deps.db, {
        clientId: "acme",
        operator: "dora",
        lifetimeSeconds: 600,
        now: new Date(),
      })
    ).accessToken;
  }, 60_000);
  afterAll(() => engine.close());

  const caller = (token: string | null, idempotencyKey: string | null = null) =>
    appRouter.createCaller({
      deps: engine.deps,
      authorization: token === null ? null : `Bearer ${token}`,
      clientAddress: "203.0.113.7",
      idempotencyKey,
    } satisfies TrpcContext);

  /** The call's refusal as tRPC sends it to the client: code, HTTP status, message, data. */
  async function refusal(call: Promise<unknown>, path: string) {
    const error = await call.then(
      () => null,
      (thrown: unknown) => thrown,
    );
    if (!(error instanceof TRPCError)) throw new Error(`expected a TRPCError, got ${String(error)}`);
    const shape = errorShapeOf(error, path);
    return { code: error.code, message: shape.message, data: shape.data };
  }

  const balanceOf = async (number: string) =>
    (await caller(merchant).wallets()).find((wallet) => wallet.number === number)?.amount;

  it("refuses a missing or unknown token UNAUTHORIZED (401), before any work", async () => {
    for (const token of [null, "not-a-token"]) {
      const refused = await refusal(
        caller(token).transfer({ walletFrom: "U100000010", walletTo: "U100000020", amount: "1.00" }),
        "transfer",
      );
      expect(refused).toMatchObject({
        code: "UNAUTHORIZED",
        message: "Unauthorized",
        data: { httpStatus: 401, purseCode: "UNAUTHORIZED" },
      });
    }
    expect(await balanceOf("U100000010")).toBe("500.00");
  });

  it("answers a bad input in tRPC's shape: zod's 400 for a bound, the engine's 422 for a rule", async () => {
    const tooLong = await refusal(
      caller(merchant).transfer({ walletFrom: "U".repeat(33), walletTo: "U100000020", amount: "1.00" }),
      "transfer",
    );
    expect(tooLong).toMatchObject({ code: "BAD_REQUEST", data: { httpStatus: 400, purseCode: null } });
    expect(tooLong.message).toMatch(/walletFrom/);
    expect(tooLong.data).not.toHaveProperty("stack", expect.anything());

    const notAnAmount = await refusal(
      caller(merchant).transfer({ walletFrom: "U100000010", walletTo: "U100000020", amount: "ten" }),
      "transfer",
    );
    expect(notAnAmount).toMatchObject({
      code: "UNPROCESSABLE_CONTENT",
      data: { httpStatus: 422, purseCode: expect.any(String), field: "amount" },
    });
    expect(await balanceOf("U100000010")).toBe("500.00");
  });

  it("transfers, and answers a repeated Idempotency-Key with the first result without moving money again", async () => {
    const request = { walletFrom: "U100000010", walletTo: "U100000020", amount: "10.00" };
    const first = await caller(merchant, "trpc-transfer-1").transfer(request);
    expect(first).toMatchObject({ id: expect.any(Number), replayed: false });
    const again = await caller(merchant, "trpc-transfer-1").transfer(request);
    expect(again).toEqual({ ...first, replayed: true });
    const after = await balanceOf("U100000010");
    // The sender pays the amount and the commission, once.
    expect(Number(after)).toBeLessThanOrEqual(490);
    expect(await caller(merchant).transaction({ id: first.id })).toMatchObject({
      id: first.id,
      type: "TRANSFER",
      status: "SUCCESS",
      amount: "10.00",
    });
  });

  it("serves the operator verbs to operator tokens only, attributed to the operator", async () => {
    const credit = { wallet: "U100000020", amount: "2.50", key: "trpc-credit-1" };
    expect(await refusal(caller(merchant).operatorCredit(credit), "operatorCredit")).toMatchObject({
      code: "FORBIDDEN",
      message: "Sorry scope missed",
      data: { httpStatus: 403, purseCode: "SCOPE_MISSED" },
    });
    expect(await refusal(caller(null).operatorCredit(credit), "operatorCredit")).toMatchObject({
      code: "UNAUTHORIZED",
    });
    // An operator token is not a user: it cannot pay.
    expect(
      await refusal(
        caller(operator).transfer({ walletFrom: "U100000010", walletTo: "U100000020", amount: "1.00" }),
        "transfer",
      ),
    ).toMatchObject({ code: "FORBIDDEN", data: { purseCode: "SCOPE_MISSED" } });

    const done = await caller(operator).operatorCredit(credit);
    expect(done).toMatchObject({ replayed: false, operator: "dora" });
    expect(await caller(operator).operatorCredit(credit)).toEqual({ ...done, replayed: true });
    const payout = await caller(operator).operatorPayout({
      wallet: "U100000020",
      amount: "1.00",
      key: "trpc-payout-1",
    });
    expect(payout).toMatchObject({ replayed: false, operator: "dora" });
    const reversal = await caller(operator).reverseTransaction({
      transactionId: done.transactionId,
      key: "trpc-undo-1",
    });
    expect(reversal).toMatchObject({ replayed: false, operator: "dora" });

    // The operator reads any wallet's statement: credit, payout and reversal are in it, attributed.
    const statement = await caller(operator).statement({ wallet: "U100000020", from: "2020-01-01" });
    const operatorLines = statement.lines.filter((line) => line.operator === "dora");
    expect(operatorLines.map((line) => line.amount)).toEqual(["2.50", "-1.00", "-2.50"]);
    expect(operatorLines[2]?.reversesTransactionId).toBe(done.transactionId);
  });

  it("gives a user their own wallet's statement only", async () => {
    const own = await caller(merchant).statement({ wallet: "U100000010", from: "2020-01-01" });
    expect(own).toMatchObject({ wallet: "U100000010", currency: "USD", openingBalance: "0.00" });
    expect(own.closingBalance).toBe(await balanceOf("U100000010"));
    expect(
      await refusal(caller(merchant).statement({ wallet: "U100000020", from: "2020-01-01" }), "statement"),
    ).toMatchObject({ code: "NOT_FOUND", message: "Not found", data: { httpStatus: 404 } });
  });

  it("refuses a subscription to a caller without a user's token, and streams a user's own changes", async () => {
    // A subscription's procedure runs when its stream is first read (as the SSE link reads it).
    const firstEvent = async (token: string | null) =>
      (await caller(token).transactionUpdated())[Symbol.asyncIterator]().next();
    expect(await refusal(firstEvent(null), "transactionUpdated")).toMatchObject({ code: "UNAUTHORIZED" });
    expect(await refusal(firstEvent(operator), "transactionUpdated")).toMatchObject({
      code: "FORBIDDEN",
      data: { purseCode: "SCOPE_MISSED" },
    });

    const events = (await caller(merchant).transactionUpdated())[Symbol.asyncIterator]();
    const next = events.next();
    // Let the subscription attach to the bus before the money moves.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const moved = await caller(merchant).transfer({
      walletFrom: "U100000010",
      walletTo: "U100000020",
      amount: "1.00",
    });
    expect((await next).value).toMatchObject({
      transactionId: moved.id,
      type: "TRANSFER",
      status: "SUCCESS",
    });
    await events.return?.();
  });
});
