/**
 * `npm run bench`: transfers per second through the real stack (fastify, bearer auth, Redis rate
 * limit and Redlock route lock, PostgreSQL row locks and one-statement ledger writes), measured
 * with autocannon from this process against a local `purse serve`, and pgbench's TPC-B-like run on
 * the same PostgreSQL as the ceiling. Needs PostgreSQL and Redis as for `npm test`.
 */
import { execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { fileURLToPath } from "node:url";
import { auditLedger, openDatabase, secretBoxFromKey, seedFixture } from "@purse/engine";
import autocannon from "autocannon";
import pg from "pg";

const adminUrl = process.env["PURSE_BENCH_DATABASE_URL"] ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const redisUrl = process.env["PURSE_BENCH_REDIS_URL"] ?? "redis://127.0.0.1:6379";
const durationSeconds = Number(process.env["PURSE_BENCH_SECONDS"] ?? 10);
const connections = Number(process.env["PURSE_BENCH_CONNECTIONS"] ?? 32);
const users = 32;
/** Wallets per user: 1 024 wallets in all, so concurrent transfers rarely wait on the same row lock. */
const walletsPerUser = 32;
const secretKey = "bench-secret-key-of-at-least-32-characters";

function databaseUrl(name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

function walletNumber(user: number, index: number): string {
  return `B${String(user).padStart(4, "0")}${String(index).padStart(5, "0")}`;
}

function fixture() {
  const ids = Array.from({ length: users }, (_, index) => index + 1);
  return {
    currencies: [
      {
        id: 1,
        code: "USD",
        rate: "1",
        precession: 2,
        min_amount: "0.01",
        max_amount: "100000.00",
        commission: { transfer: { percent: "1", fixed: "0.10" } },
      },
    ],
    users: ids.map((id) => ({
      id,
      name: `Bench ${id}`,
      role: "merchant",
      login: `bench${id}`,
      password: "bench",
    })),
    clients: ids.map((id) => ({
      user_id: id,
      client_id: `bench${id}`,
      client_secret: "bench-secret",
      form_token: `form${id}`,
    })),
    wallets: ids.flatMap((user) =>
      Array.from({ length: walletsPerUser }, (_, index) => ({
        id: user * 1000 + index,
        user_id: user,
        number: walletNumber(user, index),
        currency: "USD",
        amount: "1000000.00",
        amountLimit: "100000000.00",
      })),
    ),
  };
}

async function main(): Promise<void> {
  const name = `purse_bench_${randomBytes(4).toString("hex")}`;
  await admin(`create database ${name}`);
  const url = databaseUrl(name);
  console.log(`Setting up ${users} merchants with ${walletsPerUser} wallets each in ${name} ...`);
  const db = await openDatabase({ kind: "postgres", url }, { poolSize: 2 });
  await db.migrate();
  await seedFixture(db, secretBoxFromKey(secretKey), fixture());
  await db.close();

  // The server runs in its own process, as in production, so the load generator does not share its thread.
  const port = 3900 + Math.floor(Math.random() * 90);
  const server = { url: `http://127.0.0.1:${port}` };
  const child = spawn(
    process.execPath,
    [
      ...(process.env["PURSE_BENCH_PROFILE"] ? ["--cpu-prof", "--cpu-prof-dir=/tmp/purse-prof"] : []),
      fileURLToPath(new URL("../packages/server/bin/purse.js", import.meta.url)),
      "serve",
    ],
    {
      env: {
        ...process.env,
        DATABASE_URL: url,
        REDIS_URL: redisUrl,
        PORT: String(port),
        HOST: "127.0.0.1",
        LOG_LEVEL: "silent",
        PURSE_SECRET_KEY: secretKey,
        PURSE_RATE_LIMIT_PER_MINUTE: "1000000",
        PURSE_WEBHOOK_WORKER: "off",
        PURSE_REDIS_PREFIX: name,
      },
      stdio: "inherit",
    },
  );
  for (let attempt = 0; attempt < 100; attempt += 1) {
    if (
      (await fetch(`${server.url}/healthz`).then(
        (r) => r.status,
        () => 0,
      )) === 200
    )
      break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  try {
    const tokens: string[] = [];
    for (let id = 1; id <= users; id += 1) {
      const response = await fetch(`${server.url}/token`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          grant_type: "client_credentials",
          client_id: `bench${id}`,
          client_secret: "bench-secret",
        }),
      });
      tokens.push(((await response.json()) as { access_token: string }).access_token);
    }
    let sequence = 0;
    console.log(`Transfers for ${durationSeconds} s over ${connections} connections ...`);
    const result = await autocannon({
      url: server.url,
      connections,
      duration: durationSeconds,
      requests: [
        {
          method: "POST",
          path: "/api/transaction/transfer",
          setupRequest: (request) => {
            sequence += 1;
            const from = sequence % users;
            const to = (from + 1 + (sequence % (users - 1))) % users;
            const fromWallet = walletNumber(from + 1, (sequence * 7) % walletsPerUser);
            const toWallet = walletNumber(to + 1, (sequence * 13) % walletsPerUser);
            return {
              ...request,
              headers: { "content-type": "application/json", authorization: `Bearer ${tokens[from]}` },
              body: JSON.stringify({
                wallet_from: fromWallet,
                wallet_to: toWallet,
                amount: "1.00",
                description: `bench ${sequence}`,
              }),
            };
          },
        },
      ],
    });
    if (result.non2xx > 0) {
      const sample = await fetch(`${server.url}/api/transaction/transfer`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${tokens[0]}` },
        body: JSON.stringify({
          wallet_from: walletNumber(1, 0),
          wallet_to: walletNumber(2, 0),
          amount: "1.00",
        }),
      });
      console.log(`  a sample transfer answered ${sample.status}: ${await sample.text()}`);
    }
    const auditDb = await openDatabase({ kind: "postgres", url }, { poolSize: 1 });
    const audit = await auditLedger(auditDb);
    await auditDb.close();
    console.log("\nPurse, POST /api/transaction/transfer (real Redis and PostgreSQL):");
    console.log(`  transfers/s  ${result.requests.average.toFixed(0)} (mean), ${result.requests.p50} (p50)`);
    console.log(
      `  latency ms   p50 ${result.latency.p50}, p90 ${result.latency.p90}, p99 ${result.latency.p99}`,
    );
    console.log(
      `  responses    ${result["2xx"]} ok, ${result.non2xx} not 2xx, ${result.errors} errors, ${result.timeouts} timeouts`,
    );
    console.log(
      `  ledger       ${audit.ok ? "balanced" : "BREACHED"} (${audit.transactions} transactions, ${audit.postings} postings)`,
    );
    if (!audit.ok) process.exitCode = 1;
  } finally {
    child.kill("SIGTERM");
    await new Promise((resolve) => child.once("exit", resolve));
    await admin(`drop database if exists ${name} with (force)`);
  }
  pgbenchBaseline();
}

/** The ceiling on this machine: pgbench TPC-B-like, 16 clients, prepared statements. */
function pgbenchBaseline(): void {
  const name = `purse_pgbench_${randomBytes(4).toString("hex")}`;
  const base = new URL(adminUrl);
  const args = [
    "-h",
    base.hostname,
    "-p",
    base.port || "5432",
    "-U",
    decodeURIComponent(base.username || "postgres"),
  ];
  try {
    execFileSync("createdb", [...args, name], { stdio: "ignore" });
    execFileSync("pgbench", [...args, "-i", "-s", "10", "-q", name], { stdio: "ignore" });
    const output = execFileSync(
      "pgbench",
      [...args, "-c", "16", "-j", "2", "-M", "prepared", "-T", String(durationSeconds), name],
      {
        encoding: "utf8",
      },
    );
    const tps = /tps = ([\d.]+)/.exec(output)?.[1];
    console.log(`\npgbench TPC-B-like (scale 10, 16 clients, prepared): ${tps ?? "?"} tps`);
  } catch (error) {
    console.log(`\npgbench baseline skipped: ${(error as Error).message.split("\n")[0]}`);
  } finally {
    try {
      execFileSync("dropdb", [...args, "--if-exists", name], { stdio: "ignore" });
    } catch {
      // Nothing to clean up.
    }
  }
}

await main();
