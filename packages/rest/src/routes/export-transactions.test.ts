import { type Actor, searchTransactions, signIn, transferFunds } from "@purse/engine";
import { parseCsv } from "@purse/testing";
import { type RestHarness, startRestHarness } from "@purse/testing/rest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const path = "/api/transactions/export";
// The contract's header ("Merchant dashboard"): the fee, the order id and the refunded checkout too.
const header =
  "id,created_at,type,status,wallet_from,wallet_to,currency,amount_from,amount_to,commission,external_id,refund_of,description";
const acme: Actor = { userId: 1, role: "merchant", clientId: 1, scope: "api" };

describe("GET /api/transactions/export", () => {
  let api: RestHarness;
  let token: string;
  let queries = 0;

  beforeAll(async () => {
    api = await startRestHarness({ onQuery: () => (queries += 1) });
    token = await api.token("acme");
    for (const description of ['=HYPERLINK("http://evil")', 'a, "quoted"\nline', "+1", "plain"]) {
      await transferFunds(api.deps, acme, {
        walletFrom: "U100000010",
        walletTo: "U100000020",
        amount: "1.10",
        description,
      });
    }
  });
  afterAll(async () => {
    // The aborted download's socket is gone; keep-alive sockets of fetch would hold close() open.
    api.app.server.closeAllConnections();
    await api.close();
  });

  const download = (query: string, headers: Record<string, string> = { authorization: `Bearer ${token}` }) =>
    fetch(`${api.url}${path}${query}`, { headers });

  it("streams the same rows as the search, exact, quoted and formula-safe", async () => {
    const response = await download("");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("content-disposition")).toBe('attachment; filename="transactions.csv"');
    const [head, ...rows] = parseCsv(await response.text());
    expect(head?.join(",")).toBe(header);
    const page = await searchTransactions(api.deps, acme, {}, { first: 100 });
    expect(rows.map((row) => Number(row[0]))).toEqual(page.nodes.map((node) => node.id));
    expect(rows.map((row) => row[7])).toEqual(page.nodes.map((node) => node.amountFrom));
    expect(rows.map((row) => row[9])).toEqual(page.nodes.map((node) => node.commission));
    expect(rows.map((row) => row[10])).toEqual(page.nodes.map((node) => node.externalId ?? ""));
    // No refunds exist yet: the column is there, empty.
    expect(new Set(rows.map((row) => row[11]))).toEqual(new Set([""]));
    expect(rows.some((row) => row[9] !== "0.00")).toBe(true);
    const descriptions = rows.map((row) => row[12]);
    expect(descriptions).toContain(`'=HYPERLINK("http://evil")`);
    expect(descriptions).toContain("'+1");
    expect(descriptions).toContain('a, "quoted"\nline');
    expect(rows[0]?.slice(2, 7)).toEqual(["TRANSFER", "SUCCESS", "U100000010", "U100000020", "USD"]);
  });

  it("applies the search's filter and its refusals", async () => {
    const filter = { walletNumber: "E100000011", type: "DEPOSIT" as const };
    const page = await searchTransactions(api.deps, acme, filter, { first: 100 });
    const rows = parseCsv(await (await download("?wallet=E100000011&type=DEPOSIT")).text()).slice(1);
    expect(rows.map((row) => Number(row[0]))).toEqual(page.nodes.map((node) => node.id));
    const transfers = parseCsv(await (await download("?type=TRANSFER&minAmount=1.1&maxAmount=1.10")).text());
    expect(transfers.length - 1).toBe(4);
    const badDate = await download("?from=2026-02-30");
    expect([badDate.status, await badDate.json()]).toEqual([
      422,
      expect.objectContaining({ errors: { from: ["This value is not a valid date."] } }),
    ]);
    expect((await download("?type=GIFT")).status).toBe(422);
  });

  it("answers the bearer's or the session's own data only", async () => {
    expect((await download("", {})).status).toBe(401);
    expect((await download("", { authorization: `Bearer ${await api.token("bolt")}` })).status).toBe(403);
    const cafe = parseCsv(
      await (await download("", { authorization: `Bearer ${await api.token("cafe")}` })).text(),
    );
    const acmeIds = new Set(
      parseCsv(await (await download("")).text())
        .slice(1)
        .map((row) => row[0]),
    );
    expect(cafe.slice(1).filter((row) => acmeIds.has(row[0]))).toEqual([]);
    const session = await signIn(api.deps, { login: "acme", password: "acme-pass" });
    const cookie = `purse_session=${session.token}`;
    const viaCookie = await download("", { cookie, "sec-fetch-site": "same-origin" });
    expect(
      parseCsv(await viaCookie.text())
        .slice(1)
        .map((row) => row[0]),
    ).toEqual([...acmeIds]);
    const crossSite = await download("", { cookie, "sec-fetch-site": "same-site" });
    expect(crossSite.status).toBe(403);
  });

  it("streams 50 000 rows in bounded memory while other requests are answered, and stops when the client leaves", async () => {
    await api.engine.database.db
      .em()
      .getConnection()
      .execute(`insert into transactions (user_id, type, status, wallet_from_id, wallet_to_id, currency_id,
          amount_minor, amount_from_minor, amount_to_minor, description, created_at)
        select 1, 1, 3, 10, 20, w.currency_id, g, g, g, 'bulk ' || g, now() - g * interval '1 second'
        from generate_series(1, 50000) g, wallets w where w.id = 10`);
    const rssBefore = process.memoryUsage().rss;
    let peakRss = rssBefore;
    const latencies: number[] = [];
    let streaming = true;
    const probe = (async () => {
      while (streaming) {
        const started = performance.now();
        await fetch(`${api.url}/api/currencies`);
        latencies.push(performance.now() - started);
        peakRss = Math.max(peakRss, process.memoryUsage().rss);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    const response = await download("");
    const reader = response.body?.getReader();
    let lines = 0;
    let bytes = 0;
    for (;;) {
      const chunk = await reader?.read();
      if (!chunk || chunk.done) break;
      bytes += chunk.value.length;
      for (const byte of chunk.value) if (byte === 10) lines += 1;
    }
    streaming = false;
    await probe;
    const sorted = [...latencies].sort((a, b) => a - b);
    const p99 = sorted[Math.floor(sorted.length * 0.99)] ?? 0;
    console.log(
      `export: ${lines - 1} rows, ${(bytes / 1e6).toFixed(1)} MB, RSS growth ${((peakRss - rssBefore) / 1e6).toFixed(0)} MB, ` +
        `${latencies.length} concurrent requests, p99 ${p99.toFixed(0)} ms, max ${(sorted.at(-1) ?? 0).toFixed(0)} ms`,
    );
    expect(lines - 1).toBeGreaterThanOrEqual(50_000);
    // The whole CSV is ~3 MB of text; holding it (as UTF-16 strings and rows) would be far more.
    expect(peakRss - rssBefore).toBeLessThan(150e6);
    expect(latencies.length).toBeGreaterThan(5);
    expect(p99).toBeLessThan(1_000);

    // A client that goes away after the first chunk: the reading stops within a page.
    const controller = new AbortController();
    const aborted = await fetch(`${api.url}${path}`, {
      headers: { authorization: `Bearer ${token}` },
      signal: controller.signal,
    });
    await aborted.body?.getReader().read();
    controller.abort();
    await new Promise((resolve) => setTimeout(resolve, 500));
    const settled = queries;
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(queries - settled).toBeLessThanOrEqual(1);
  }, 300_000);
});
