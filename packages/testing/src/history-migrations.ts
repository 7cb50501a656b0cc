import { type Actor, migrationsList, transferFunds } from "@purse/engine";
import type { TestEngine } from "./test-engine.ts";

/** The sample world's merchant whose history the history migrations' tests read. */
export const acme: Actor = { userId: 1, role: "merchant", clientId: 1, scope: "api" };
export const dayMs = 86_400_000;
/** Today's UTC midnight, in milliseconds. */
export const midnight = new Date(`${new Date().toISOString().slice(0, 10)}T00:00:00Z`).getTime();

/** One in the morning `days` days ago (UTC). */
export const daysAgo = (days: number) => new Date(midnight - days * dayMs + 3_600_000);

/**
 * A transfer of acme's between two of the sample world's wallets, moved to `at`: the update
 * trigger moves its counts from today to that day (its hash no longer verifies, as it should).
 */
export async function transferAt(engine: TestEngine, amount: string, at: Date): Promise<void> {
  const { id } = await transferFunds(engine.deps, acme, {
    walletFrom: "U100000010",
    walletTo: "U100000020",
    amount,
  });
  await engine.deps.db
    .em()
    .execute(`update transactions set created_at = '${at.toISOString()}' where id = ${id}`);
}

/** The statements the shipped migration `name` runs (to put a test database back under it). */
export async function shippedStatements(engine: TestEngine, name: string): Promise<string[]> {
  const shipped = migrationsList.find((migration) => migration.name === name);
  if (!shipped) throw new Error(`no migration ${name}`);
  const orm = engine.deps.db.orm;
  const made = new shipped.class(orm.em.getDriver() as never, orm.config as never);
  await made.up();
  return made.getQueries().map(String);
}

/**
 * Puts a test database back under the schema before migration 0021 (counters appended by insert
 * triggers, no owner columns): the deltas folded, the owner columns dropped with the keys they were
 * part of and the counters' old keys made again, 0009's and 0011's insert triggers made again, 0020's
 * trigger functions and fold as shipped, and 0021 no longer recorded. The movement's statement
 * writes 0021's columns, so a test moves money before calling this, never after.
 */
export async function undoOwnerColumns(engine: TestEngine): Promise<void> {
  const counterDeltas = (await shippedStatements(engine, "0020-counter-deltas"))
    .filter((statement) => /^create (or replace )?function/.test(statement))
    .map((statement) => statement.replace(/^create function/, "create or replace function"));
  const insertTriggers = [
    ...(await shippedStatements(engine, "0009-history-counts")),
    ...(await shippedStatements(engine, "0011-wallet-days")),
  ].filter((statement) => /^create trigger (history_counts|wallet_days)_insert /.test(statement));
  await engine.deps.db.em().execute(`begin;
    select fold_counters(2147483647);
    alter table postings drop column user_id;
    alter table webhook_deliveries drop column merchant_user_id;
    alter table webhook_attempts drop column merchant_user_id;
    alter table event_deliveries drop column user_id;
    alter table event_attempts drop column user_id;
    alter table history_count_deltas drop column user_id;
    alter table wallet_day_deltas drop column user_id;
    alter table history_counts drop column user_id,
      add constraint history_counts_pkey primary key (wallet_id, day, type, status, internal, currency_id);
    alter table history_month_counts drop column user_id,
      add constraint history_month_counts_pkey primary key (wallet_id, month, type, status, internal, currency_id);
    alter table wallet_days drop column user_id,
      add constraint wallet_days_pkey primary key (wallet_id, day);
    ${[...counterDeltas, ...insertTriggers].join(";\n")};
    delete from mikro_orm_migrations where name = '0021-owner-columns';
    commit`);
}

/**
 * Puts a test database back under the schema before migration 0020 (counters upserted in the
 * movement's statement), through the one before 0021 (`undoOwnerColumns`, so money moves before this
 * too): the deltas folded into the counters, 0020's views, fold function and
 * delta tables dropped, the two trigger functions as they were before it (0015's for the history,
 * 0011's for the wallets' days), and 0020 no longer recorded: migrating again runs it after
 * whatever else the test took back.
 */
export async function undoCounterDeltas(engine: TestEngine): Promise<void> {
  await undoOwnerColumns(engine);
  const walletDays = (await shippedStatements(engine, "0011-wallet-days"))
    .filter((statement) => statement.startsWith("create function wallet_days_apply"))
    .map((statement) => statement.replace("create function", "create or replace function"));
  const historyCounts = (await shippedStatements(engine, "0015-drop-history-amount-counts")).filter(
    (statement) => statement.startsWith("create or replace function history_counts_apply"),
  );
  await engine.deps.db.em().execute(`begin;
    select fold_counters(2147483647);
    drop view history_counts_exact, history_month_counts_exact, wallet_days_exact;
    drop function fold_counters(integer);
    drop table history_count_deltas, wallet_day_deltas;
    ${[...walletDays, ...historyCounts].join(";\n")};
    delete from mikro_orm_migrations where name = '0020-counter-deltas';
    commit`);
}
