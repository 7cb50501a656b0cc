import { fileURLToPath } from "node:url";
import { createEmptyDatabase, dropDatabase } from "@purse/testing";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runPurse, type ServeProcess, startServe, waitUntil } from "./purse-process.ts";

const demoFixture = fileURLToPath(new URL("../../fixtures/demo.json", import.meta.url));

interface Statement {
  wallet: string;
  openingBalance: string;
  closingBalance: string;
  lines: {
    transactionId: number;
    typeName: string;
    amount: string;
    fee: string;
    balanceAfter: string;
    label: string;
  }[];
}

/** Minor units of a decimal text with two places ("-10.20" → -1020n). */
const cents = (text: string) => BigInt(text.replace(".", ""));

/**
 * Real processes against PostgreSQL: `purse serve` takes payments (transfer with a fee, voucher
 * activation with a fee), the CLI credits and pays out, `purse statement` reconciles with the REST
 * balance, and `purse audit` names the transaction whose postings and balances were edited in SQL.
 */
describe("statements that reconcile, and a ledger that proves itself", () => {
  let database: { name: string; url: string };
  let env: Record<string, string>;
  let serve: ServeProcess;
  let token: string;
  let periodStart: string;
  let transferId: number;
  const query = async <Row>(text: string, values: unknown[] = []): Promise<Row[]> => {
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      return (await client.query(text, values)).rows as Row[];
    } finally {
      await client.end();
    }
  };
  const api = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${serve.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };

  beforeAll(async () => {
    database = await createEmptyDatabase();
    env = { DATABASE_URL: database.url, PURSE_RATE_LIMIT_PER_MINUTE: "1000" };
    expect((await runPurse(["migrate"], env)).code).toBe(0);
    expect((await runPurse(["seed", demoFixture], env)).code).toBe(0);
    serve = await startServe(env);
    await waitUntil(serve, "/readyz");
    const issued = await fetch(`${serve.url}/token`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        grant_type: "client_credentials",
        client_id: "acme",
        client_secret: "acme-secret",
      }),
    }).then((response) => response.json() as Promise<{ access_token: string }>);
    token = issued.access_token;
  }, 120_000);
  afterAll(async () => {
    await serve?.stop();
    await dropDatabase(database.name);
  });

  it("moves money through every door in the period: transfer, voucher, credit, payout", async () => {
    // The opening balance is the seed's: the period starts after it.
    const [start] = await query<{ at: string }>(
      "select to_char(now() at time zone 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.US\"Z\"') as at",
    );
    periodStart = start?.at ?? "";
    await new Promise((resolve) => setTimeout(resolve, 20));
    const transfer = await api("POST", "/api/transaction/transfer", {
      wallet_from: "U100000010",
      wallet_to: "U100000020",
      amount: "10.00",
    });
    expect(transfer.status, JSON.stringify(transfer.body)).toBe(200);
    const [found] = await query<{ id: string }>(
      "select id from transactions where label <> 'Opening balance' and type = 1 order by id desc limit 1",
    );
    transferId = Number(found?.id);
    const voucher = await api("POST", "/api/vouchers/activation/confirm", {
      voucher_number: "V-0001",
      voucher_code: "1111-2222-3333",
      wallet_to: "U100000010",
    });
    expect(voucher.status, JSON.stringify(voucher.body)).toBe(200);
    expect(
      (
        await runPurse(
          ["wallets", "credit", "U100000010", "7.25", "--key", "st-credit", "--operator", "ops"],
          env,
        )
      ).code,
    ).toBe(0);
    expect(
      (
        await runPurse(
          ["wallets", "payout", "U100000010", "3.00", "--key", "st-payout", "--operator", "ops"],
          env,
        )
      ).code,
    ).toBe(0);
  });

  it("reconciles: opening + movements = closing = the REST balance at the end of the period", async () => {
    const run = await runPurse(["statement", "U100000010", "--from", periodStart, "--format", "json"], env);
    expect(run.code, run.output).toBe(0);
    const statement = JSON.parse(run.stdout) as Statement;
    expect(statement.openingBalance).toBe("500.00");
    expect(statement.lines.map((line) => [line.typeName, line.amount, line.fee])).toEqual([
      ["TRANSFER", "-10.20", "0.20"], // 10.00 + 1 % + 0.10, the fee posted to the fee account
      ["TRANSFER", "49.00", "1.00"], // the 50.00 voucher less 2 %
      ["DEPOSIT", "7.25", "0.00"],
      ["WITHDRAW", "-3.00", "0.00"],
    ]);
    const moved = statement.lines.reduce((sum, line) => sum + cents(line.amount), 0n);
    expect(cents(statement.openingBalance) + moved).toBe(cents(statement.closingBalance));
    expect(statement.lines.at(-1)?.balanceAfter).toBe(statement.closingBalance);
    const wallets = (await api("GET", "/api/wallets")).body as { data: { number: string; amount: number }[] };
    const rest = wallets.data.find((wallet) => wallet.number === "U100000010")?.amount;
    expect(statement.closingBalance).toBe("543.05");
    expect(rest).toBe(543.05);

    // The period before: the seed's opening balance only, closing where the next period opens.
    const before = JSON.parse(
      (await runPurse(["statement", "U100000010", "--from", "2020-01-01", "--to", periodStart], env)).stdout,
    ) as Statement;
    expect(before.openingBalance).toBe("0.00");
    expect(before.lines.map((line) => [line.label, line.amount])).toEqual([["Opening balance", "500.00"]]);
    expect(before.closingBalance).toBe(statement.openingBalance);
  });

  it("writes the same statement as CSV with opening and closing rows", async () => {
    const run = await runPurse(["statement", "U100000010", "--from", periodStart, "--format", "csv"], env);
    expect(run.code, run.output).toBe(0);
    const rows = run.stdout.trimEnd().split("\r\n");
    expect(rows[0]).toBe(
      "transaction_id,at,type,status,label,description,amount,fee,balance_after,operator,reverses",
    );
    expect(rows[1]).toMatch(/^,[^,]+,OPENING,,Opening balance,,,,500\.00,,$/);
    expect(rows).toHaveLength(7);
    expect(rows[2]).toMatch(new RegExp(`^${transferId},.*,TRANSFER,3,.*,-10\\.20,0\\.20,489\\.80,,$`));
    expect(rows[6]).toMatch(/,CLOSING,,Closing balance,,,,543\.05,,$/);
  });

  it("over GraphQL: the owner's statement, and operator verbs only with an operator token", async () => {
    const graphql = async (bearer: string, text: string) => {
      const response = await fetch(`${serve.url}/graphql`, {
        method: "POST",
        headers: { authorization: `Bearer ${bearer}`, "content-type": "application/json" },
        body: JSON.stringify({ query: text }),
      });
      return (await response.json()) as {
        data?: Record<string, Record<string, unknown>>;
        errors?: unknown[];
      };
    };
    const own = await graphql(
      token,
      `{ statement(wallet: "U100000010", from: "${periodStart}") {
          ... on QueryStatementSuccess { data { openingBalance closingBalance lines { amount fee } } } } }`,
    );
    expect(own.data?.["statement"]?.["data"]).toMatchObject({
      openingBalance: "500.00",
      closingBalance: "543.05",
    });
    const others = await graphql(
      token,
      `{ statement(wallet: "U100000020", from: "2020-01-01") { ... on PurseError { code message } } }`,
    );
    expect(others.data?.["statement"]).toEqual({ code: "NOT_FOUND", message: "Not found" });

    const credit = `mutation { operatorCredit(wallet: "U100000020", amount: "2.50", key: "gql-credit-1") {
        ... on MutationOperatorCreditSuccess { data { transactionId replayed operator } }
        ... on PurseError { code message } } }`;
    // An API token (a merchant's) is not an operator.
    expect((await graphql(token, credit)).data?.["operatorCredit"]).toMatchObject({ code: "SCOPE_MISSED" });
    const issued = await runPurse(
      ["operators", "token", "--client", "acme", "--operator", "dora", "--json"],
      env,
    );
    expect(issued.code, issued.output).toBe(0);
    const operatorToken = (JSON.parse(issued.stdout) as { access_token: string }).access_token;
    const first = (await graphql(operatorToken, credit)).data?.["operatorCredit"]?.["data"] as Record<
      string,
      unknown
    >;
    expect(first).toMatchObject({ replayed: false, operator: "dora" });
    expect((await graphql(operatorToken, credit)).data?.["operatorCredit"]?.["data"]).toEqual({
      ...first,
      replayed: true,
    });
    const reverse = `mutation { reverseTransaction(transactionId: ${first["transactionId"]}, key: "gql-undo-1") {
        ... on MutationReverseTransactionSuccess { data { transactionId operator } } ... on PurseError { code } } }`;
    expect((await graphql(operatorToken, reverse)).data?.["reverseTransaction"]?.["data"]).toMatchObject({
      operator: "dora",
    });
    const payout = `mutation { operatorPayout(wallet: "U100000020", amount: "1.00", key: "gql-payout-1") {
        ... on MutationOperatorPayoutSuccess { data { replayed } } ... on PurseError { code } } }`;
    expect((await graphql(operatorToken, payout)).data?.["operatorPayout"]?.["data"]).toEqual({
      replayed: false,
    });
    // The operator token cannot pay: it has no `api` scope.
    const transfer = await fetch(`${serve.url}/api/transaction/transfer`, {
      method: "POST",
      headers: { authorization: `Bearer ${operatorToken}`, "content-type": "application/json" },
      body: JSON.stringify({ wallet_from: "U100000010", wallet_to: "U100000020", amount: "1.00" }),
    });
    expect(transfer.status).toBe(403);
    // Nor is it the user on GraphQL: its profile and events need the api scope, as on REST.
    const me = await graphql(operatorToken, "{ me { id } }");
    expect(me.errors?.[0]).toMatchObject({ message: "Sorry scope missed" });
    expect((await runPurse(["audit"], env)).code).toBe(0);
  });

  it("audit names the transaction whose posting pair and both balances were edited consistently", async () => {
    const clean = await runPurse(["audit"], env);
    expect(clean.code, clean.output).toBe(0);
    // Give the payer 5.00 back out of the payee's side of the transfer, balances adjusted to match.
    await query(
      "update postings set amount_minor = amount_minor + 500 where transaction_id = $1 and wallet_id = 10",
      [transferId],
    );
    await query(
      "update postings set amount_minor = amount_minor - 500 where transaction_id = $1 and wallet_id = 20",
      [transferId],
    );
    await query("update wallets set balance_minor = balance_minor + 500 where id = 10");
    await query("update wallets set balance_minor = balance_minor - 500 where id = 20");
    const audit = await runPurse(["audit"], env);
    expect(audit.code).toBe(1);
    expect(audit.output).toContain("ok   every wallet balance equals the sum of its postings");
    expect(audit.output).toContain("ok   every transaction's postings sum to zero per currency");
    expect(audit.output).toContain("FAIL every transaction's hash matches its content and postings");
    expect(audit.output).toContain(`First broken link: transaction ${transferId}`);
    const json = JSON.parse((await runPurse(["audit", "--json"], env)).stdout) as {
      ok: boolean;
      firstBrokenLink: number;
    };
    expect(json).toMatchObject({ ok: false, firstBrokenLink: transferId });
  });
});
