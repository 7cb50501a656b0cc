import { auditLedger, type Database, foldCounters, openDatabase } from "@purse/engine";
import { dropDatabase, httpClient } from "@purse/testing";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { purseCli } from "../support/purse-cli.ts";
import { queryDatabase } from "../support/query-database.ts";
import { type SpawnedServer, spawnPurseServe } from "../support/spawned-server.ts";
import {
  type CallResult,
  callerFor,
  createSeededDatabase,
  type SeededDatabase,
  startEmbeddedServer,
  type TestServer,
} from "../support/test-server.ts";

/**
 * The counters off the movement's statement (migration 0020): movements append deltas, folders
 * move them into the counters, and every read adds the deltas not folded yet. Here two real
 * `purse serve` processes take bursts of transfers while their own folders run and a third folder
 * (this test, in tiny batches, so folds interleave with nearly every commit) races them; all the
 * while the audit's snapshot finds the counters (folded plus unfolded) equal to the ledger, and
 * the REST history's total lies between the rows counted just before and just after it.
 */
const counterChecks = [
  "the history's daily counts equal the transactions",
  "the history's monthly counts equal their days",
  "the wallets' daily nets equal their postings",
];
const today = new Date().toISOString().slice(0, 10);
const historyPath = `/api/transactions/histories?startDate=2000-01-01&endDate=${today}&page=1&itemsPerPage=1`;

/** The deltas left once the folders have had up to 10 s to fold them all. */
async function unfoldedAfterWaiting(deltas: () => Promise<number>): Promise<number> {
  const deadline = Date.now() + 10_000;
  while ((await deltas()) > 0 && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 200));
  return deltas();
}

/** The counter checks of one audit (one repeatable-read snapshot) that found a breach. */
async function counterBreaches(db: Database): Promise<string[]> {
  const audit = await auditLedger(db);
  const checks = audit.checks.filter((check) => counterChecks.includes(check.name));
  expect(checks).toHaveLength(counterChecks.length);
  return checks.flatMap((check) => check.breaches.map((breach) => `${check.name}: ${breach}`));
}

describe("counters folded while two purse serve processes move money", () => {
  let database: SeededDatabase;
  let servers: SpawnedServer[];
  let db: Database;
  const tokens = new Map<string, string>();
  const sql = <Row>(text: string, values: unknown[] = []) => queryDatabase<Row>(database.url, text, values);
  const deltas = async () =>
    Number(
      (
        await sql<{ n: string }>(`select (select count(*) from history_count_deltas)
          + (select count(*) from wallet_day_deltas) as n`)
      )[0]?.n,
    );
  const acmeRows = async () =>
    Number(
      (
        await sql<{ n: string }>(`select count(*) as n from transactions
          where wallet_from_id in (select id from wallets where user_id = 1)
             or wallet_to_id in (select id from wallets where user_id = 1)`)
      )[0]?.n,
    );
  const acmeTotal = async () => {
    const answer = await callerFor(servers[1]?.url ?? "")("GET", historyPath, { token: tokens.get("acme") });
    expect(answer.status).toBe(200);
    return Number(answer.body.data.meta.total);
  };

  beforeAll(async () => {
    database = await createSeededDatabase();
    const env = { PURSE_RATE_LIMIT_PER_MINUTE: "100000" };
    servers = await Promise.all([spawnPurseServe(database, env), spawnPurseServe(database, env)]);
    const client = httpClient(servers[0]?.url ?? "");
    for (const login of ["acme", "bolt"]) tokens.set(login, await client.token(login));
    db = await openDatabase({ kind: "postgres", url: database.url }, { poolSize: 3 });
  }, 90_000);
  afterAll(async () => {
    await db?.close();
    await Promise.all((servers ?? []).map((server) => server.stop()));
    if (database) await dropDatabase(database.name);
  });

  it("keeps every counter exact at every snapshot while movements commit and folders run", async () => {
    const transfer = (index: number): Promise<CallResult> => {
      const [login, from, to] =
        index % 2 === 0 ? ["acme", "U100000010", "U100000020"] : ["bolt", "U100000020", "U100000010"];
      return callerFor(servers[index % 2]?.url ?? "")("POST", "/api/transaction/transfer", {
        token: tokens.get(login),
        // A different amount per call of a burst: identical calls at once would meet the route lock.
        body: { wallet_from: from, wallet_to: to, amount: `1.${String(index % 30).padStart(2, "0")}` },
      });
    };
    let moving = true;
    let folds = 0;
    const folding = new pg.Client({ connectionString: database.url });
    await folding.connect();
    const folder = (async () => {
      while (moving) {
        const [row] = (await folding.query<{ folded: number }>("select fold_counters(3) as folded")).rows;
        if ((row?.folded ?? 0) > 0) folds += 1;
      }
      await folding.end();
    })();
    const audits: string[][] = [];
    const auditor = (async () => {
      while (moving) audits.push(await counterBreaches(db));
    })();
    const totals: string[] = [];
    const reader = (async () => {
      while (moving) {
        const before = await acmeRows();
        const total = await acmeTotal();
        const after = await acmeRows();
        if (total < before || total > after) totals.push(`${total} outside [${before}, ${after}]`);
        totals.push("read");
      }
    })();
    const answers: CallResult[] = [];
    for (let round = 0; round < 8; round += 1) {
      answers.push(
        ...(await Promise.all(Array.from({ length: 30 }, (_, index) => transfer(round * 30 + index)))),
      );
    }
    moving = false;
    await Promise.all([folder, auditor, reader]);

    expect(answers.filter((answer) => answer.status !== 200).map((answer) => answer.body)).toEqual([]);
    expect(folds).toBeGreaterThan(0);
    expect(audits.length).toBeGreaterThan(1);
    expect(audits.flat()).toEqual([]);
    expect(totals.filter((line) => line !== "read")).toEqual([]);
    expect(totals.length).toBeGreaterThan(1);
  }, 120_000);

  it("leaves nothing unfolded once the processes' own folders have run, and purse audit clean", async () => {
    expect(await unfoldedAfterWaiting(deltas)).toBe(0);
    expect(await acmeTotal()).toBe(await acmeRows());
    expect(await counterBreaches(db)).toEqual([]);
    const audit = await purseCli(database, ["audit"]);
    expect(audit.code, audit.stderr).toBe(0);
    expect(audit.stdout).toContain("The ledger is balanced.");
  }, 30_000);

  it("lets one folder at a time fold a schema: the others skip their rounds until it commits", async () => {
    const holder = new pg.Client({ connectionString: database.url });
    await holder.connect();
    try {
      // A folder that has not committed yet (max_rows 0: it takes the lock and folds nothing).
      await holder.query("begin");
      expect((await holder.query("select fold_counters(0) as folded")).rows).toEqual([{ folded: 0 }]);
      const answer = await callerFor(servers[0]?.url ?? "")("POST", "/api/transaction/transfer", {
        token: tokens.get("acme"),
        body: { wallet_from: "U100000010", wallet_to: "U100000020", amount: "1.05" },
      });
      expect(answer.status).toBe(200);
      const waiting = await deltas();
      expect(waiting).toBeGreaterThan(0);
      expect(await sql("select fold_counters(1000) as folded")).toEqual([{ folded: 0 }]);
      // Both processes' folders have had a round meanwhile, and skipped it.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(await deltas()).toBe(waiting);
      expect(await acmeTotal()).toBe(await acmeRows());
      await holder.query("commit");
    } finally {
      await holder.end();
    }
    expect(await unfoldedAfterWaiting(deltas)).toBe(0);
    expect(await counterBreaches(db)).toEqual([]);
  }, 30_000);
});

describe("counters folded on the embedded PGlite, with the same migration", () => {
  let api: TestServer;
  beforeAll(async () => {
    api = await startEmbeddedServer();
  }, 120_000);
  afterAll(() => api?.close());

  it("keeps the totals exact before and after a fold, and the audit clean", async () => {
    const db = api.server.runtime.db;
    const count = async (text: string) => Number((await db.em().execute<{ n: string }[]>(text))[0]?.n);
    const acmeRows = () =>
      count(`select count(*) as n from transactions where wallet_from_id in (select id from wallets where user_id = 1)
        or wallet_to_id in (select id from wallets where user_id = 1)`);
    const deltas = () =>
      count(
        "select (select count(*) from history_count_deltas) + (select count(*) from wallet_day_deltas) as n",
      );
    const token = await api.token("acme");
    const total = async () => Number((await api.call("GET", historyPath, { token })).body.data.meta.total);
    for (const amount of ["1.00", "2.00", "3.00"]) {
      const answer = await api.call("POST", "/api/transaction/transfer", {
        token,
        body: { wallet_from: "U100000010", wallet_to: "U100000020", amount },
      });
      expect(answer.status).toBe(200);
    }
    expect(await total()).toBe(await acmeRows());
    // The server's own folder (every second) empties the deltas; a fold then finds nothing.
    expect(await unfoldedAfterWaiting(deltas)).toBe(0);
    expect(await foldCounters(db)).toBe(0);
    expect(await total()).toBe(await acmeRows());
    expect(await counterBreaches(db)).toEqual([]);
  }, 60_000);
});
