import { auditLedger } from "@purse/engine";
import { createCheckout, parseCsv } from "@purse/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { firstEvent, graphqlSubscription, openEventStream } from "../support/event-stream.ts";
import { startTestServer, type TestServer } from "../support/test-server.ts";

const site = { url: "https://shop.example" };

/**
 * Issue 36: a refund is a movement like the others, so every read a merchant has shows it: the
 * live updates of both doors, REST's history, the CSV export, the statement and the balance chart,
 * each agreeing with the wallet's balance; and `purse audit` holds.
 */
describe("a refund in every read", () => {
  let api: TestServer;
  let acme: string;
  beforeAll(async () => {
    api = await startTestServer({ env: { PURSE_RATE_LIMIT_PER_MINUTE: "1000" } });
    acme = await api.token("acme");
  });
  afterAll(() => api.close());

  const today = new Date().toISOString().slice(0, 10);
  const graphql = async (query: string, variables: Record<string, unknown> = {}) =>
    (await api.call("POST", "/graphql", { token: acme, body: { query, variables } })).body.data;

  it("shows in live updates, history, the CSV, the statement and the balance chart", async () => {
    const checkout = await createCheckout(api, site, "10.00");
    const paid = await api.call("POST", "/api/processing/pay", {
      body: { token: checkout.token, login: "bolt", password: "bolt-pass", action: "pay" },
    });
    expect(paid.status).toBe(200);
    const detail = await api.call("GET", `/api/transaction/show?external_id=${checkout.paymentId}`, {
      token: acme,
    });
    const paidId = detail.body.data.id as number;
    const merchantWallet = detail.body.data.processing_pay.wallet_to as string;
    const payerWallet = detail.body.data.processing_pay.wallet_from as string;

    const authorization = `Bearer ${acme}`;
    const trpcStream = await openEventStream(`${api.url}/trpc/transactionUpdated`, {
      headers: { authorization },
    });
    const graphqlStream = await graphqlSubscription(
      api.url,
      acme,
      "subscription { transactionUpdated { transactionId type status } }",
    );
    // Both streams are open (their headers came back), so the refund's event reaches both.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const refund = await api.call("POST", "/api/processing/refund", {
      token: acme,
      body: { transaction_id: paidId, amount: "4.00", reason: "one item back" },
    });
    expect(refund.status).toBe(200);
    const refundId = refund.body.data.id as number;

    // tRPC's event is the update itself; GraphQL's is under data.transactionUpdated.
    const pick = (data: unknown) => {
      const graphqlUpdate = (data as { data?: { transactionUpdated?: unknown } } | null)?.data
        ?.transactionUpdated;
      const update = (graphqlUpdate ?? data) as { transactionId?: number; type?: string } | null;
      return update?.transactionId === refundId ? update : undefined;
    };
    expect(await firstEvent(trpcStream, pick)).toMatchObject({ transactionId: refundId, type: "WITHDRAW" });
    expect(await firstEvent(graphqlStream, pick)).toMatchObject({
      transactionId: refundId,
      type: "WITHDRAW",
    });

    const history = await api.call(
      "GET",
      `/api/transactions/histories?startDate=${today}&endDate=${today}&page=1&itemsPerPage=100`,
      { token: acme },
    );
    expect(history.status).toBe(200);
    const item = history.body.data.items.find((each: { id: number }) => each.id === refundId);
    expect(item).toMatchObject({
      type: 3,
      status: 3,
      wallet_from: merchantWallet,
      wallet_to: payerWallet,
      amount_from: 4,
      amount_to: 4,
      refund_of: paidId,
    });

    const exported = await fetch(`${api.url}/api/transactions/export?from=${today}&until=${today}`, {
      headers: { authorization },
    });
    expect(exported.status).toBe(200);
    const [head = [], ...rows] = parseCsv(await exported.text());
    const row = rows.find((fields) => fields[head.indexOf("id")] === String(refundId)) ?? [];
    expect(row[head.indexOf("refund_of")]).toBe(String(paidId));
    expect(row[head.indexOf("wallet_from")]).toBe(merchantWallet);
    expect(row[head.indexOf("amount_from")]).toBe("4.00");

    const wallets = await api.call("GET", "/api/wallets", { token: acme });
    const balance = wallets.body.data.find((wallet: { number: string }) => wallet.number === merchantWallet)
      ?.amount as number;

    const { statement } = await graphql(
      `query($wallet: String!, $from: String!) { statement(wallet: $wallet, from: $from) {
        __typename ... on QueryStatementSuccess { data { closingBalance lines { transactionId amount } } } } }`,
      { wallet: merchantWallet, from: today },
    );
    const lines = statement.data.lines as { transactionId: number; amount: string }[];
    expect(lines.find((line) => line.transactionId === refundId)?.amount).toBe("-4.00");
    expect(Number(statement.data.closingBalance)).toBe(balance);

    const { balanceHistory } = await graphql(
      "query($wallet: String!) { balanceHistory(wallet: $wallet) { day balance } }",
      { wallet: merchantWallet },
    );
    expect(Number(balanceHistory.at(-1).balance)).toBe(balance);

    expect((await auditLedger(api.server.runtime.db)).ok).toBe(true);
  });
});
