import { auditLedger } from "@purse/engine";
import { createCheckout, parseCsv, sumDecimals } from "@purse/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/test-server.ts";
import { trpcClient } from "../support/trpc-client.ts";

interface HistoryItem {
  id: number;
  status: number;
  wallet_from: string | null;
  wallet_to: string | null;
  currency_from_code: string;
  amount_from: number;
  amount_to: number;
}

const acmeWallets = new Set(["U100000010", "E100000011"]);
const success = 3;

/**
 * Issue 36, item 3: one amount for a checkout that ended unpaid on every door, and totals (money
 * in, money out, net of the completed transactions) that add up to exactly what REST's history and
 * the CSV export list, row by row.
 */
describe("figures that reconcile across REST, GraphQL, tRPC and the CSV export", () => {
  let api: TestServer;
  let acme: string;
  let cancelled: { id: number; paymentId: string };

  beforeAll(async () => {
    api = await startTestServer({ env: { PURSE_RATE_LIMIT_PER_MINUTE: "1000" } });
    acme = await api.token("acme");
    const bolt = await api.token("bolt");
    const transfer = async (token: string, from: string, to: string, amount: string) => {
      const answer = await api.call("POST", "/api/transaction/transfer", {
        token,
        body: { wallet_from: from, wallet_to: to, amount },
      });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    };
    await transfer(acme, "U100000010", "U100000020", "10.00");
    await transfer(bolt, "U100000020", "U100000010", "7.35");
    await transfer(acme, "E100000011", "E100000021", "12.34");
    // A paid checkout (money in, its commission kept) and a cancelled one (nothing moved).
    const paid = await createCheckout(api, { url: "https://shop.example" }, "20.00");
    const pay = (token: string, action: string) =>
      api.call("POST", "/api/processing/pay", {
        body: { token, login: "bolt", password: "bolt-pass", action },
      });
    expect((await pay(paid.token, "pay")).body.data.status).toBe("SUCCESS");
    const unpaid = await createCheckout(api, { url: "https://shop.example" }, "63.25");
    const answer = await pay(unpaid.token, "cancel");
    expect(answer.body.data.status).toBe("CANCEL");
    cancelled = { id: Number(answer.body.data.transaction_id), paymentId: unpaid.paymentId };
  }, 60_000);
  afterAll(() => api.close());

  const graphql = async <T>(query: string, variables: Record<string, unknown> = {}) => {
    const answer = await api.call("POST", "/graphql", { token: acme, body: { query, variables } });
    expect(answer.body.errors).toBeUndefined();
    return answer.body.data as T;
  };
  const today = new Date().toISOString().slice(0, 10);
  const history = async (): Promise<HistoryItem[]> => {
    const answer = await api.call(
      "GET",
      `/api/transactions/histories?startDate=${today}&endDate=${today}&page=1&itemsPerPage=100`,
      { token: acme },
    );
    expect(answer.status).toBe(200);
    return answer.body.data.items as HistoryItem[];
  };
  const csv = async () => {
    const answer = await fetch(`${api.url}/api/transactions/export?from=${today}&until=${today}`, {
      headers: { authorization: `Bearer ${acme}` },
    });
    expect(answer.status).toBe(200);
    const [head, ...rows] = parseCsv(await answer.text());
    const column = (name: string) => head?.indexOf(name) ?? -1;
    return rows.map((row) => ({
      id: Number(row[column("id")]),
      status: row[column("status")],
      walletFrom: row[column("wallet_from")] ?? "",
      walletTo: row[column("wallet_to")] ?? "",
      currency: row[column("currency")],
      amountFrom: row[column("amount_from")] ?? "",
      amountTo: row[column("amount_to")] ?? "",
      externalId: row[column("external_id")],
    }));
  };

  it("gives a cancelled checkout one amount, 0.00, on every door; its payment record keeps what was asked", async () => {
    const shown = await api.call("GET", `/api/transaction/show?id=${cancelled.id}`, { token: acme });
    expect(shown.body.data).toMatchObject({
      amount: "0.00",
      commission: "0.00",
      status: "FAIL",
      processing_pay: { amount: 63.25, status: "CANCEL", cancel: true },
    });
    const row = (await history()).find((item) => item.id === cancelled.id);
    expect(row).toMatchObject({ status: 4, amount_from: 0, amount_to: 0 });
    const exported = (await csv()).find((item) => item.id === cancelled.id);
    expect(exported).toMatchObject({ amountFrom: "0.00", amountTo: "0.00", externalId: cancelled.paymentId });

    const { transaction, transactions } = await graphql<{
      transaction: { amount: string; processingPay: { amount: string } };
      transactions: {
        edges: { node: { id: number; amount: string; amountFrom: string; amountTo: string } }[];
      };
    }>(
      `query ($id: Int) {
        transaction(id: $id) { amount processingPay { amount } }
        transactions(first: 100) { edges { node { id amount amountFrom amountTo } } }
      }`,
      { id: cancelled.id },
    );
    expect(transaction).toEqual({ amount: "0.00", processingPay: { amount: "63.25" } });
    expect(transactions.edges.find((edge) => edge.node.id === cancelled.id)?.node).toEqual({
      id: cancelled.id,
      amount: "0.00",
      amountFrom: "0.00",
      amountTo: "0.00",
    });
    const trpc = trpcClient(api.url, acme);
    expect((await trpc.transaction.query({ id: cancelled.id })).amount).toBe("0.00");
    const page = await trpc.transactions.query({ first: 100 });
    expect(page.nodes.find((node) => node.id === cancelled.id)?.amount).toBe("0.00");
  });

  it("bounds and totals a cancelled checkout by the amount its rows show, 0.00, on REST, GraphQL and tRPC", async () => {
    const trpc = trpcClient(api.url, acme);
    type Bounds = { minAmount?: string; maxAmount?: string };
    const rest = async (bounds: Bounds) => {
      const query = new URLSearchParams({
        startDate: today,
        endDate: today,
        page: "1",
        itemsPerPage: "100",
        ...bounds,
      });
      const answer = await api.call("GET", `/api/transactions/histories?${query}`, { token: acme });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      const { items, meta } = answer.body.data as { items: HistoryItem[]; meta: { total: number } };
      return { ids: items.map((item) => item.id), total: meta.total };
    };
    interface Page {
      nodes: { id: number; amount: string; currency: string }[];
      totals: { currency: string; count: number; amount: string }[];
    }
    const viaGraphql = async (bounds: Bounds): Promise<Page> => {
      const { transactions } = await graphql<{
        transactions: {
          edges: { node: { id: number; amount: string; currency: { code: string } } }[];
          totals: Page["totals"];
        };
      }>(
        `query ($filter: TransactionFilter) {
          transactions(first: 100, filter: $filter) {
            edges { node { id amount currency { code } } } totals { currency count amount }
          }
        }`,
        { filter: { from: today, until: today, ...bounds } },
      );
      return {
        nodes: transactions.edges.map(({ node }) => ({ ...node, currency: node.currency.code })),
        totals: transactions.totals,
      };
    };
    const viaTrpc = async (bounds: Bounds): Promise<Page> =>
      trpc.transactions.query({ first: 100, from: today, until: today, ...bounds });
    // Each currency's count and amount are those of the rows listed, as they show them.
    const totalsOf = (nodes: Page["nodes"]) =>
      [...new Set(nodes.map((node) => node.currency))].sort().map((currency) => {
        const mine = nodes.filter((node) => node.currency === currency);
        return { currency, count: mine.length, amount: sumDecimals(mine.map((node) => node.amount)) };
      });
    const bounded: Record<string, Bounds> = {
      none: {},
      "the amount it asked": { minAmount: "63.25", maxAmount: "63.25" },
      "at least what it asked": { minAmount: "63.25" },
      "at most 0.00": { maxAmount: "0.00" },
      "from 0.01": { minAmount: "0.01" },
    };
    const found: Record<string, boolean> = {};
    for (const [name, bounds] of Object.entries(bounded)) {
      const history = await rest(bounds);
      expect(history.total, name).toBe(history.ids.length);
      for (const page of [await viaGraphql(bounds), await viaTrpc(bounds)]) {
        expect(page.nodes.map((node) => node.id).sort(), name).toEqual([...history.ids].sort());
        expect(
          page.totals.map(({ currency, count, amount }) => ({ currency, count, amount })),
          name,
        ).toEqual(totalsOf(page.nodes));
      }
      found[name] = history.ids.includes(cancelled.id);
    }
    // Found exactly by the bounds 0.00 falls in, never by the 63.25 it asked.
    expect(found).toEqual({
      none: true,
      "the amount it asked": false,
      "at least what it asked": false,
      "at most 0.00": true,
      "from 0.01": false,
    });
    expect((await rest(bounded["the amount it asked"] ?? {})).ids).toEqual([]);
  });

  it("totals money in, money out and net per currency of the completed transactions, as history and the CSV add up", async () => {
    const { transactions } = await graphql<{
      transactions: {
        totals: {
          currency: string;
          count: number;
          completed: number;
          moneyIn: string;
          moneyOut: string;
          net: string;
        }[];
      };
    }>(
      `query ($filter: TransactionFilter) {
        transactions(first: 1, filter: $filter) { totals { currency count completed moneyIn moneyOut net } }
      }`,
      { filter: { from: today, until: today } },
    );
    const items = await history();
    const rows = await csv();
    expect(rows.map((row) => row.id)).toEqual(items.map((item) => item.id));
    for (const total of transactions.totals) {
      const mine = items.filter((item) => item.currency_from_code === total.currency);
      const done = mine.filter((item) => item.status === success);
      // REST's amounts are JSON numbers ("300"): added at the currency's places ("0.00").
      const moneyIn = sumDecimals([
        "0.00",
        ...done.filter((item) => acmeWallets.has(item.wallet_to ?? "")).map((item) => item.amount_to),
      ]);
      const moneyOut = sumDecimals([
        "0.00",
        ...done.filter((item) => acmeWallets.has(item.wallet_from ?? "")).map((item) => item.amount_from),
      ]);
      // REST's numbers and the CSV's texts, added exactly, against GraphQL's figures.
      expect(total.moneyIn).toBe(moneyIn);
      expect(total.moneyOut).toBe(moneyOut);
      expect(total.net).toBe(sumDecimals([total.moneyIn, `-${total.moneyOut}`]));
      expect(total.count).toBe(mine.length);
      expect(total.completed).toBe(done.length);
      const exported = rows.filter((row) => row.currency === total.currency && row.status === "SUCCESS");
      expect(
        sumDecimals([
          "0.00",
          ...exported.filter((row) => acmeWallets.has(row.walletTo)).map((row) => row.amountTo),
        ]),
      ).toBe(total.moneyIn);
      expect(
        sumDecimals([
          "0.00",
          ...exported.filter((row) => acmeWallets.has(row.walletFrom)).map((row) => row.amountFrom),
        ]),
      ).toBe(total.moneyOut);
    }
    const usd = transactions.totals.find((total) => total.currency === "USD");
    // The cancelled checkout is one of the count, not of the completed ones.
    expect(usd?.completed).toBe((usd?.count ?? 0) - 1);
    const eur = transactions.totals.find((total) => total.currency === "EUR");
    // Its opening deposit in, the 12.34 transfer and its commission out.
    expect(eur?.completed).toBe(eur?.count);
    expect(eur?.moneyOut).not.toBe("0.00");

    const trpc = trpcClient(api.url, acme);
    const page = await trpc.transactions.query({ first: 1, from: today, until: today });
    expect(
      page.totals.map(({ currency, completed, moneyIn, moneyOut, net }) => ({
        currency,
        completed,
        moneyIn,
        moneyOut,
        net,
      })),
    ).toEqual(
      transactions.totals.map(({ currency, completed, moneyIn, moneyOut, net }) => ({
        currency,
        completed,
        moneyIn,
        moneyOut,
        net,
      })),
    );
    expect((await auditLedger(api.server.runtime.db)).ok).toBe(true);
  });
});
