import fc from "fast-check";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createSeededDatabase,
  type SeededDatabase,
  startTestServer,
  type TestServer,
} from "../support/test-server.ts";

/**
 * Generated hostile values through every door: whatever arrives, the answer is a 4xx or 2xx in that
 * door's own error shape (never a 5xx, a framework's body or a stack trace), and a refused call moves
 * no money. Valid values are mixed in so that the generators also reach the deeper rules.
 */

const runs = 60;
/** A token attempt that reaches the secret costs a slow hash by design: fewer runs there. */
const tokenRuns = 20;
/** Generous: each run is a few real requests and ledger reads, on a machine that may be busy. */
const fuzzTimeout = 180_000;

/** What real attackers and broken clients send where a field is expected. */
const hostileText = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: "grapheme", maxLength: 40 }),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.string({ minLength: 3000, maxLength: 6000 }),
  fc.constantFrom(
    "",
    " ",
    "\u0000",
    `1.${"0".repeat(5000)}`,
    "1e309",
    "-0",
    "0x10",
    "NaN",
    "Infinity",
    " 1",
    "1,5",
    "١٢٣",
    "9007199254740993",
    "__proto__",
    "constructor",
    "' OR 1=1 --",
    "%00",
    "%E0%A4%A",
    "javascript:alert(1)",
    "<script>alert(1)</script>",
    "../../etc/passwd",
  ),
);

const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 5, arbitrary: hostileText },
  { weight: 1, arbitrary: fc.double() },
  { weight: 1, arbitrary: fc.integer() },
  { weight: 1, arbitrary: fc.bigInt().map((value) => Number(value)) },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 1, arbitrary: fc.constant(null) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 4 }) },
  { weight: 1, arbitrary: fc.constant({ __proto__: { admin: true } }) },
);

/** A field that is sometimes right, so generated requests get past the first check. */
const sometimes = (valid: string) =>
  fc.oneof({ weight: 2, arbitrary: fc.constant(valid) }, { weight: 3, arbitrary: hostileValue });

const transferBody = fc.record(
  {
    wallet_from: sometimes("U100000010"),
    wallet_to: sometimes("U100000020"),
    amount: fc.oneof(fc.constantFrom("1.00", "0.01", 2), hostileValue),
    payment_id: hostileValue,
    description: hostileValue,
  },
  { requiredKeys: [] },
);

const checkoutBody = fc.record(
  {
    wallet_to: sometimes("U100000010"),
    wallet_from: sometimes("U100000020"),
    amount: fc.oneof(fc.constant("5.00"), hostileValue),
    id: hostileValue,
    signature: hostileValue,
    success_url: fc.oneof(fc.constant("https://shop.example/ok"), hostileValue),
    cancel_url: fc.oneof(fc.constant("https://shop.example/cancel"), hostileValue),
    status_url: fc.oneof(fc.constant("https://shop.example/status"), hostileValue),
    user_info: hostileValue,
  },
  { requiredKeys: [] },
);

const voucherBody = fc.record(
  {
    voucher_number: sometimes("V-0001"),
    voucher_code: sometimes("1111-2222-3333"),
    wallet_to: sometimes("U100000010"),
    additional: hostileValue,
  },
  { requiredKeys: [] },
);

/** Query strings, including raw (possibly malformed) percent-encoding. */
const hostileQueryValue = fc.oneof(
  hostileText.map((text) => encodeURIComponent(text)),
  fc.constantFrom("%", "%zz", "%E0%A4%A", "%00", "a&b=c", "x".repeat(9000)),
);

interface Ledger {
  transactions: number;
  balances: string;
}

let database: SeededDatabase;
let api: TestServer;
let sql: pg.Client;
let token: string;

async function ledger(): Promise<Ledger> {
  const count = await sql.query<{ n: string }>("select count(*)::text as n from transactions");
  const sums = await sql.query<{ b: string }>(
    "select coalesce(string_agg(id::text || '=' || balance_minor::text, ',' order by id), '') as b from wallets",
  );
  return { transactions: Number(count.rows[0]?.n), balances: sums.rows[0]?.b ?? "" };
}

/** Any non-2xx answer of REST is the contract's error shape; a refused call moved nothing. */
async function expectRestRefusalShape(
  before: Ledger,
  response: { status: number; body: unknown },
  what: string,
  oauth = false,
): Promise<void> {
  const context = `${what} → ${response.status} ${JSON.stringify(response.body).slice(0, 300)}`;
  expect(response.status, context).toBeLessThan(500);
  if (response.status >= 200 && response.status < 300) return;
  const body = response.body as Record<string, unknown>;
  if (oauth) {
    expect(typeof body["error"], context).toBe("string");
  } else {
    expect(body["status"], context).toBe(false);
    expect(typeof body["message"], context).toBe("string");
    expect(String(body["message"]), context).not.toMatch(/\n\s+at |FST_|node_modules|SELECT|relation /);
  }
  expect(await ledger(), context).toEqual(before);
}

beforeAll(async () => {
  database = await createSeededDatabase();
  api = await startTestServer({ database, env: { PURSE_RATE_LIMIT_PER_MINUTE: "100000" } });
  sql = new pg.Client({ connectionString: database.url });
  await sql.connect();
  token = await api.token("acme");
});

afterAll(async () => {
  await sql?.end();
  await api?.close();
});

describe("generated hostile input through REST", () => {
  it(
    "transfer bodies (JSON and form) are answered in the contract's shape and move nothing when refused",
    async () => {
      await fc.assert(
        fc.asyncProperty(transferBody, fc.boolean(), async (body, asForm) => {
          const before = await ledger();
          const response = await api.call("POST", "/api/transaction/transfer", {
            token,
            ...(asForm
              ? {
                  body: new URLSearchParams(
                    Object.entries(body).map(([key, value]) => [
                      key,
                      typeof value === "string" ? value : JSON.stringify(value),
                    ]),
                  ).toString(),
                  headers: { "content-type": "application/x-www-form-urlencoded" },
                }
              : { body }),
          });
          await expectRestRefusalShape(before, response, "POST /api/transaction/transfer");
        }),
        { numRuns: runs },
      );
    },
    fuzzTimeout,
  );

  it(
    "checkout and voucher bodies are answered in the contract's shape and move nothing when refused",
    async () => {
      await fc.assert(
        fc.asyncProperty(checkoutBody, voucherBody, async (checkout, voucher) => {
          const before = await ledger();
          await expectRestRefusalShape(
            before,
            await api.call("POST", "/api/processing/checkout", { body: checkout }),
            "POST /api/processing/checkout",
          );
          const afterCheckout = await ledger();
          await expectRestRefusalShape(
            afterCheckout,
            await api.call("POST", "/api/vouchers/activation/confirm", { token, body: voucher }),
            "POST /api/vouchers/activation/confirm",
          );
        }),
        { numRuns: runs },
      );
    },
    fuzzTimeout,
  );

  it(
    "query strings and path parameters of every GET are answered in the contract's shape",
    async () => {
      const paths = (value: string) => [
        `/api/transactions/histories?startDate=${value}&endDate=2030-01-01&page=${value}&itemsPerPage=${value}&type=${value}`,
        `/api/transaction/show?id=${value}&external_id=${value}`,
        `/api/wallet-exists?number_to=${value}&number_from=${value}`,
        `/api/wallets/search/${value || "x"}`,
        `/api/vouchers/activation/info?voucher_number=${value}&voucher_code=${value}`,
        `/api/wallets?${value}`,
      ];
      await fc.assert(
        fc.asyncProperty(hostileQueryValue, async (value) => {
          const before = await ledger();
          for (const path of paths(value)) {
            await expectRestRefusalShape(
              before,
              await api.call("GET", path, { token }),
              `GET ${path.slice(0, 200)}`,
            );
          }
        }),
        { numRuns: runs },
      );
    },
    fuzzTimeout,
  );

  it(
    "token requests answer RFC 6749 errors, never a 5xx",
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.record(
            {
              grant_type: sometimes("client_credentials"),
              client_id: sometimes("acme"),
              client_secret: hostileValue,
              scope: hostileValue,
            },
            { requiredKeys: [] },
          ),
          async (body) => {
            const before = await ledger();
            await expectRestRefusalShape(
              before,
              await api.call("POST", "/token", { body }),
              "POST /token",
              true,
            );
          },
        ),
        { numRuns: tokenRuns },
      );
    },
    fuzzTimeout,
  );
});

describe("generated hostile input through GraphQL and tRPC", () => {
  it(
    "GraphQL variables of any shape get GraphQL errors or a result, never a 5xx, and move nothing when refused",
    async () => {
      const mutation = `mutation($input: TransferInput!) { transfer(input: $input) {
      __typename ... on PurseError { message } ... on MutationTransferSuccess { data { id } } } }`;
      await fc.assert(
        fc.asyncProperty(
          fc.record(
            {
              walletFrom: sometimes("U100000010"),
              walletTo: sometimes("U100000020"),
              amount: fc.oneof(fc.constant("1.00"), hostileValue),
              paymentId: hostileValue,
            },
            { requiredKeys: [] },
          ),
          async (input) => {
            const before = await ledger();
            const response = await api.call("POST", "/graphql", {
              token,
              body: { query: mutation, variables: { input } },
            });
            expect(response.status, JSON.stringify(response.body)).toBeLessThan(500);
            const body = response.body as {
              data?: { transfer?: { __typename: string } | null };
              errors?: { message: string }[];
            };
            const moved = body.data?.transfer?.__typename === "MutationTransferSuccess";
            if (!moved) {
              expect(Array.isArray(body.errors) || body.data?.transfer?.__typename === "PurseError").toBe(
                true,
              );
              for (const error of body.errors ?? [])
                expect(error.message).not.toMatch(/\n\s+at |node_modules|SELECT/);
              expect(await ledger()).toEqual(before);
            }
          },
        ),
        { numRuns: runs },
      );
    },
    fuzzTimeout,
  );

  it(
    "tRPC inputs of any shape get tRPC errors or a result, never a 5xx, and move nothing when refused",
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.oneof(
            fc.record(
              {
                walletFrom: sometimes("U100000010"),
                walletTo: sometimes("U100000020"),
                amount: fc.oneof(fc.constant("1.00"), hostileValue),
                paymentId: hostileValue,
              },
              { requiredKeys: [] },
            ),
            hostileValue,
          ),
          async (input) => {
            const before = await ledger();
            const response = await api.call("POST", "/trpc/transfer", { token, body: input });
            expect(response.status, JSON.stringify(response.body)).toBeLessThan(500);
            if (response.status >= 400) {
              const body = response.body as { error?: { message?: string; code?: number } };
              expect(typeof body.error?.message).toBe("string");
              expect(body.error?.message).not.toMatch(/\n\s+at |node_modules|SELECT/);
              expect(await ledger()).toEqual(before);
            }
          },
        ),
        { numRuns: runs },
      );
    },
    fuzzTimeout,
  );
});
