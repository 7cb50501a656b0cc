/**
 * `tsx --conditions=source bench/voucher-join-probe.ts [transactions]`: does the history page's
 * `left join vouchers v on v.activation_transaction_id = t.id` need an index? Grows a bench ledger
 * (history-load.ts, 300 000 transactions unless told), activates a voucher for every second
 * transaction, and prints EXPLAIN (ANALYZE, BUFFERS) of the history count and page without and
 * with `vouchers_activation_transaction_idx` (migration 0007).
 */
import { openDatabase, secretBoxFromKey, seedFixture } from "@purse/engine";
import pg from "pg";
import { readHistoryFilter } from "../packages/engine/src/transactions/history-filter.ts";
import { historyQueries } from "../packages/engine/src/transactions/history-store.ts";
import { benchFixture, benchSecretKey } from "./bench-fixture.ts";
import { growLedger, historyMerchant } from "./history-load.ts";
import { createScratchDatabase } from "./scratch-database.ts";

const size = Number(process.argv[2] ?? 300_000);
const day = (offsetDays: number) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);

const database = await createScratchDatabase("purse_voucher_probe");
try {
  const db = await openDatabase({ kind: "postgres", url: database.url }, { poolSize: 2 });
  await db.migrate();
  await seedFixture(db, secretBoxFromKey(benchSecretKey), benchFixture());
  await growLedger(database, 0, size);
  const filter = readHistoryFilter({ startDate: day(-30), endDate: day(0), page: 1, itemsPerPage: 20 });
  const kysely = db.em().getKysely();
  const queries = historyQueries(historyMerchant, filter);
  const statements = { count: queries.count.compile(kysely), page: queries.page.compile(kysely) };
  await db.close();
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    await client.query("drop index if exists vouchers_activation_transaction_idx");
    await client.query(`
      insert into vouchers (number, code_hash, currency_id, amount_minor, type, status, expired_at,
        creator_user_id, purchase_transaction_id, activation_transaction_id, activated_by_user_id, activated_at)
      select 'P' || t.id, 'probe', 1, 100, 1, 1, now() + interval '1 year', 2, t.id, t.id, 3, t.created_at
      from transactions t where t.id % 2 = 0`);
    await client.query("analyze");
    const vouchers = (await client.query("select count(*)::int as n from vouchers")).rows[0].n;
    console.log(`${size} transactions, ${vouchers} activated vouchers`);
    for (const index of [false, true]) {
      if (index)
        await client.query(
          "create index vouchers_activation_transaction_idx on vouchers (activation_transaction_id) where activation_transaction_id is not null",
        );
      for (const [name, statement] of Object.entries(statements)) {
        await client.query(statement.sql, [...statement.parameters]); // warm the cache alike
        const plan = await client.query<{ "QUERY PLAN": string }>(
          `explain (analyze, buffers, costs off) ${statement.sql}`,
          [...statement.parameters],
        );
        console.log(`\n${name}, ${index ? "with" : "without"} the index:`);
        console.log(plan.rows.map((row) => row["QUERY PLAN"]).join("\n"));
      }
    }
  } finally {
    await client.end();
  }
} finally {
  await database.drop();
}
