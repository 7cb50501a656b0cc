/**
 * `npm run hostile`: sends hostile payloads to every door of a real Purse (started here, in this
 * process, on a scratch PostgreSQL database and the local Redis) and reports, per payload, the
 * HTTP status and the event loop's worst delay while it was handled (perf_hooks, inside the
 * server's process). Target: under 50 ms for every payload.
 *
 * Every payload is built before the clock starts, so the client's own work is not measured.
 * With PURSE_HOSTILE_URL (and PURSE_HOSTILE_TOKEN) it runs against a running server instead, and
 * reports statuses only (that server's event loop is not visible from here).
 */
import { request as httpRequest } from "node:http";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { openDatabase, secretBoxFromKey, seedFixture } from "@purse/engine";
import { readConfig, startServer } from "@purse/server";
import { benchFixture, benchSecretKey } from "./bench-fixture.ts";
import { createScratchDatabase } from "./scratch-database.ts";

interface Payload {
  readonly name: string;
  readonly method: "GET" | "POST";
  readonly path: string;
  readonly body?: string;
  readonly contentType?: string;
}

const targetMs = 50;
const mebibytePlus = "x".repeat(1024 * 1024 + 16);
const hugeAmount = `1.${"0".repeat(100_000)}`;
const deepJson = `${"[".repeat(5_000)}"x"${"]".repeat(5_000)}`;
const transfer = { wallet_from: "B000100000", wallet_to: "B000200000" };
const trpcTransfer = { walletFrom: "B000100000", walletTo: "B000200000" };
const transferMutation = "mutation($i: TransferInput!) { transfer(input: $i) { __typename } }";

function payloads(): Payload[] {
  const json = (name: string, path: string, body: string): Payload => ({ name, method: "POST", path, body });
  return [
    json(
      "REST amount 1.+100 000 zeros",
      "/api/transaction/transfer",
      JSON.stringify({ ...transfer, amount: hugeAmount }),
    ),
    json(
      "GraphQL amount 1.+100 000 zeros",
      "/graphql",
      JSON.stringify({ query: transferMutation, variables: { i: { ...trpcTransfer, amount: hugeAmount } } }),
    ),
    json(
      "tRPC amount 1.+100 000 zeros",
      "/trpc/transfer",
      JSON.stringify({ ...trpcTransfer, amount: hugeAmount }),
    ),
    json(
      "REST 1 MiB+ body",
      "/api/transaction/transfer",
      JSON.stringify({ ...transfer, description: mebibytePlus }),
    ),
    json("GraphQL 1 MiB+ body", "/graphql", JSON.stringify({ query: "{ me { name } }", x: mebibytePlus })),
    json(
      "tRPC 1 MiB+ body",
      "/trpc/transfer",
      JSON.stringify({ ...trpcTransfer, description: mebibytePlus }),
    ),
    json(
      "GraphQL list literal 5 000 deep",
      "/graphql",
      JSON.stringify({ query: `{ wallet(number: ${"[".repeat(5_000)}${"]".repeat(5_000)}) { id } }` }),
    ),
    json(
      "GraphQL 10 000-token query",
      "/graphql",
      JSON.stringify({ query: `{ ${"me { name } ".repeat(2_500)} }` }),
    ),
    json("REST JSON nested 5 000 deep", "/api/transaction/transfer", `{"wallet_from":${deepJson}}`),
    json(
      "GraphQL variables nested 5 000 deep",
      "/graphql",
      `{"query":"query($n: String!) { wallet(number: $n) { id } }","variables":{"n":${deepJson}}}`,
    ),
    json("tRPC input nested 5 000 deep", "/trpc/transfer", `{"walletFrom":${deepJson}}`),
    {
      name: "tRPC batch of 3 000 calls",
      method: "GET",
      path: `/trpc/${Array.from({ length: 3_000 }, () => "me").join(",")}?batch=1`,
    },
    { name: "REST 12 KiB query string", method: "GET", path: `/api/wallets?x=${"a".repeat(12 * 1024)}` },
    {
      name: "GraphQL 12 KiB query string",
      method: "GET",
      path: `/graphql?query=${encodeURIComponent("{ me { name } }\n#")}${"a".repeat(12 * 1024)}`,
    },
    { name: "tRPC 12 KiB query string", method: "GET", path: `/trpc/rates?input=${"a".repeat(12 * 1024)}` },
    { name: "32 KiB URL (any door)", method: "GET", path: `/api/wallets?x=${"a".repeat(32 * 1024)}` },
    json("REST __proto__ JSON", "/api/transaction/transfer", `{"__proto__":{"admin":true},"amount":"1"}`),
    json("GraphQL __proto__ JSON", "/graphql", `{"query":"{ me { name } }","__proto__":{"admin":true}}`),
    json("tRPC __proto__ JSON", "/trpc/transfer", `{"__proto__":{"admin":true},"amount":"1"}`),
    { name: "REST bad percent-encoding", method: "GET", path: "/api/transactions/histories?page=%E0%A4%A" },
    { name: "REST bad percent-encoding in path", method: "GET", path: "/api/%zz/wallets" },
    { name: "GraphQL bad percent-encoding", method: "GET", path: "/graphql?query=%E0%A4%A" },
    { name: "tRPC bad percent-encoding", method: "GET", path: "/trpc/rates?input=%E0%A4%A" },
  ];
}

/** node:http, not fetch: a 32 KiB URL or a malformed one must reach the server unchanged. */
function send(base: URL, token: string, payload: Payload, bodies: Map<Payload, Buffer>): Promise<number> {
  return new Promise((resolve) => {
    const body = bodies.get(payload);
    const call = httpRequest(
      {
        host: base.hostname,
        port: base.port,
        method: payload.method,
        path: payload.path,
        headers: {
          authorization: `Bearer ${token}`,
          accept: "application/json",
          ...(body
            ? { "content-type": payload.contentType ?? "application/json", "content-length": body.length }
            : {}),
        },
      },
      (response) => {
        response.resume();
        response.on("end", () => resolve(response.statusCode ?? 0));
      },
    );
    // A server may answer 413 and close before the whole body is written.
    call.on("error", () => resolve(0));
    call.end(body);
  });
}

async function issueToken(base: URL): Promise<string> {
  const response = await fetch(new URL("/token", base), {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      grant_type: "client_credentials",
      client_id: "bench1",
      client_secret: "bench-secret",
    }),
  });
  return ((await response.json()) as { access_token: string }).access_token;
}

async function startLocalServer() {
  const database = await createScratchDatabase("purse_hostile");
  const db = await openDatabase({ kind: "postgres", url: database.url }, { poolSize: 2 });
  await db.migrate();
  await seedFixture(db, secretBoxFromKey(benchSecretKey), benchFixture());
  await db.close();
  const server = await startServer(
    readConfig({
      DATABASE_URL: database.url,
      REDIS_URL: process.env["REDIS_URL"] ?? "redis://127.0.0.1:6379",
      PORT: "0",
      HOST: "127.0.0.1",
      LOG_LEVEL: "silent",
      PURSE_SECRET_KEY: benchSecretKey,
      PURSE_CAPTCHA: "off",
      PURSE_REDIS_PREFIX: database.name,
      // The payloads are refusals, not traffic: no rate limit should answer before the door does.
      PURSE_RATE_LIMIT_PER_MINUTE: "100000",
    }),
  );
  return {
    url: server.url,
    async stop() {
      await server.stop();
      await database.drop();
    },
  };
}

async function main(): Promise<void> {
  const remote = process.env["PURSE_HOSTILE_URL"];
  const local = remote ? null : await startLocalServer();
  const base = new URL(remote ?? local?.url ?? "");
  const token = process.env["PURSE_HOSTILE_TOKEN"] ?? (await issueToken(base));
  const list = payloads();
  const bodies = new Map(
    list.flatMap((payload) => (payload.body ? [[payload, Buffer.from(payload.body)]] : [])),
  );
  const monitor = monitorEventLoopDelay({ resolution: 1 });
  const rows: string[] = [];
  let worst = 0;
  try {
    for (const payload of list) {
      // Twice: the first call of a route also compiles code; both delays are reported.
      const measured: { status: number; maxMs: number }[] = [];
      for (const _round of [1, 2]) {
        monitor.reset();
        monitor.enable();
        const status = await send(base, token, payload, bodies);
        await new Promise((resolve) => setTimeout(resolve, 20));
        monitor.disable();
        measured.push({ status, maxMs: monitor.max / 1e6 });
      }
      const [first, second] = measured;
      const statusText = first?.status ? String(first.status) : "connection closed";
      worst = Math.max(worst, first?.maxMs ?? 0, second?.maxMs ?? 0);
      const delays = remote ? "n/a | n/a" : `${first?.maxMs.toFixed(1)} | ${second?.maxMs.toFixed(1)}`;
      rows.push(`| ${payload.name} | ${statusText} | ${delays} |`);
    }
  } finally {
    await local?.stop();
  }
  console.log(
    "| payload | status | max event-loop delay, 1st call (ms) | 2nd call (ms) |\n|---|---|---|---|",
  );
  for (const row of rows) console.log(row);
  if (!remote) {
    console.log(`\nWorst delay ${worst.toFixed(1)} ms (target < ${targetMs} ms).`);
    if (worst >= targetMs) process.exitCode = 1;
  }
}

await main();
