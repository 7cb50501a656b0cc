import { dropDatabase, httpClient } from "@purse/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCheckout } from "../support/checkout-helpers.ts";
import { purseCli } from "../support/purse-cli.ts";
import { queryDatabase } from "../support/query-database.ts";
import { type SpawnedServer, spawnPurseServe } from "../support/spawned-server.ts";
import {
  type CallResult,
  callerFor,
  createSeededDatabase,
  type SeededDatabase,
} from "../support/test-server.ts";

/**
 * Contract: "The refunds of one checkout never add up to more than its amount, under simultaneous
 * requests and across processes too." Bursts of refunds of one checkout, each under its own
 * Idempotency-Key (so the route lock lets them all run), split between two `purse serve`
 * processes: the checkout's row lock decides, and the sum stops at what was paid.
 */
describe("refunds of one checkout racing across two purse serve processes", () => {
  let database: SeededDatabase;
  let servers: SpawnedServer[];
  let acme: string;

  beforeAll(async () => {
    database = await createSeededDatabase();
    const env = { PURSE_RATE_LIMIT_PER_MINUTE: "1000", PURSE_CAPTCHA: "off" };
    servers = await Promise.all([spawnPurseServe(database, env), spawnPurseServe(database, env)]);
    acme = await httpClient(servers[0]?.url ?? "").token("acme");
  }, 90_000);
  afterAll(async () => {
    await Promise.all((servers ?? []).map((server) => server.stop()));
    if (database) await dropDatabase(database.name);
  });

  const url = (index: number) => servers[index % 2]?.url ?? "";
  const burst = (count: number, body: (index: number) => Record<string, unknown>) =>
    Promise.all(
      Array.from({ length: count }, (_, index) =>
        callerFor(url(index))("POST", "/api/processing/refund", {
          token: acme,
          headers: { "idempotency-key": `race-${index}-${Math.random()}` },
          body: body(index),
        }),
      ),
    );

  async function paid(amount: string): Promise<{ transactionId: number; id: string }> {
    const api = httpClient(url(0));
    const checkout = await createCheckout(api, { url: "https://shop.example" }, amount);
    const answer = await api.call("POST", "/api/processing/pay", {
      body: { token: checkout.token, login: "bolt", password: "bolt-pass", action: "pay" },
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const shown = await api.call("GET", `/api/transaction/show?external_id=${checkout.paymentId}`, {
      token: acme,
    });
    return { transactionId: shown.body.data.id, id: checkout.paymentId };
  }

  const refunded = async (transactionId: number) => {
    const [row] = await queryDatabase<{ sum: string | null; n: string }>(
      database.url,
      "select sum(amount_minor)::text as sum, count(*)::text as n from transactions where refund_of = $1",
      [transactionId],
    );
    return { sum: BigInt(row?.sum ?? "0"), count: Number(row?.n ?? "0") };
  };
  const refusals = (answers: readonly CallResult[]) =>
    new Set(answers.filter((answer) => answer.status !== 200).map((answer) => answer.body.message));

  it("20 partial refunds of 1.00 of a 7.00 checkout at once: exactly 7 go through, the rest are over the remainder", async () => {
    const checkout = await paid("7.00");
    const answers = await burst(20, () => ({ transaction_id: checkout.transactionId, amount: "1.00" }));
    const succeeded = answers.filter((answer) => answer.status === 200);
    expect(succeeded).toHaveLength(7);
    expect(refusals(answers)).toEqual(new Set(["Refund amount exceeds the refundable amount"]));
    expect(await refunded(checkout.transactionId)).toEqual({ sum: 700n, count: 7 });
    // Each answer's refundable is what its own refund left: 6.00 down to 0.00, each once.
    expect(succeeded.map((answer) => answer.body.data.refundable).sort()).toEqual([
      "0.00",
      "1.00",
      "2.00",
      "3.00",
      "4.00",
      "5.00",
      "6.00",
    ]);
  });

  it("whole refunds of one checkout sent at once to both: one refund of all of it, every other one refused", async () => {
    const checkout = await paid("9.50");
    const answers = await burst(10, () => ({ external_id: checkout.id }));
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
    expect(refusals(answers)).toEqual(new Set(["Refund amount exceeds the refundable amount"]));
    expect(await refunded(checkout.transactionId)).toEqual({ sum: 950n, count: 1 });
  });

  it("leaves a ledger that purse audit finds balanced, no checkout refunded beyond its amount", async () => {
    const audit = await purseCli(database, ["audit"]);
    expect(audit.code, audit.stderr).toBe(0);
    expect(audit.stdout).toContain("The ledger is balanced.");
  });
});
