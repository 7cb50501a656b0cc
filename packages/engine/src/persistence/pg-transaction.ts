import type pg from "pg";
import { arrayLiteral } from "./array-literal.ts";
import { readOnlyTransactionState } from "./primary-only-client.ts";

/** One statement for the driver: named statements are parsed once per connection, then only bound. */
export interface Statement {
  readonly name?: string | undefined;
  readonly text: string;
  readonly values: readonly unknown[];
}

/**
 * A database transaction on a pooled `pg` connection of its own, in the driver's documented
 * pipeline mode (`pipeline: true`, node-postgres.com/features/pipelining): a statement whose
 * answer nobody reads (`begin`, a transaction's bounds) is sent at once and not awaited, so it
 * leaves with the next statement and both are answered in one round trip; the transaction's last
 * statements can take the COMMIT along (`rowsEachThenCommit`). Each statement still gets its own answer
 * (its own Sync), and PostgreSQL's own rule keeps the guarantees: after a failed statement the
 * transaction is aborted, every later statement fails and a COMMIT only rolls back.
 *
 * Statements with a name go out as `{ name, text, values }` (named prepared statements, a
 * documented form of `client.query`) unless `named` is off (a PgBouncer that does not track
 * them, PURSE_DATABASE_PREPARED=off).
 */
export class PgTransaction {
  readonly #client: pg.PoolClient;
  readonly #named: boolean;
  /** Sent and not yet awaited: their failure is the failure of the next awaited statement. */
  #ahead: Promise<unknown>[] = [];
  #committed = false;
  /**
   * Its tables are distributed by Citus (persistence/citus-routing.ts): the movement's statements
   * take their per-owner form, and the wallets it locked are known here with their owners.
   */
  readonly distributed: boolean;
  /** On Citus, the wallets this transaction holds: their owners and chain heads (citus-routing.ts). */
  readonly heldWallets = new Map<number, HeldWallet>();

  constructor(client: pg.PoolClient, named: boolean, distributed = false) {
    this.#client = client;
    this.#named = named;
    this.distributed = distributed;
  }

  /** Sends `statement` without waiting for its answer: it travels with the next one. */
  sendAhead(statement: Statement): void {
    const sent = this.#send(statement);
    sent.catch(() => undefined); // observed by the next awaited statement
    this.#ahead.push(sent);
  }

  async rows<Row>(statement: Statement): Promise<Row[]> {
    const answer = this.#send(statement);
    answer.catch(() => undefined); // awaited below, once what was sent ahead has answered
    await this.#settleAhead();
    return (await answer).rows as Row[];
  }

  /**
   * `statements` in order, in one round trip (each its own answer): the first failure is thrown,
   * those behind it having been aborted by it.
   */
  async rowsEach<Row>(statements: readonly Statement[]): Promise<Row[][]> {
    const answers = statements.map((statement) => this.#send(statement));
    for (const answer of answers) answer.catch(() => undefined); // awaited below, in order
    await this.#settleAhead();
    const found: Row[][] = [];
    for (const answer of answers) found.push((await answer).rows as Row[]);
    return found;
  }

  /**
   * `statements` as the transaction's last, in order, with the COMMIT sent right behind them: one
   * round trip for all of them (a batch of movements' ledger writes, ledger/movement-batch.ts). If
   * one fails, those behind it are aborted by it, PostgreSQL answers the COMMIT with a rollback and
   * nothing is kept; the first failure in the order sent is the one thrown.
   */
  async rowsEachThenCommit<Row>(statements: readonly Statement[]): Promise<Row[][]> {
    const ahead = this.#ahead;
    this.#ahead = [];
    const answers = statements.map((statement) => this.#send(statement));
    const commit = this.#client.query("commit");
    this.#committed = true;
    // Every answer is awaited, so the connection goes back to the pool with nothing in flight.
    const settled = await Promise.allSettled([...ahead, ...answers, commit]);
    const failed = settled.find((outcome) => outcome.status === "rejected");
    if (failed) throw failed.reason;
    const committed = await commit;
    // An aborted transaction answers COMMIT with ROLLBACK, not an error.
    if (committed.command !== "COMMIT")
      throw new Error(`the transaction ended in ${committed.command}, not COMMIT`);
    return Promise.all(answers.map(async (answer) => (await answer).rows as Row[]));
  }

  /** True once the COMMIT went out with the last statements (`rowsEachThenCommit`). */
  get committed(): boolean {
    return this.#committed;
  }

  /** Begins, with the mode's settings: sent ahead, so it leaves with the transaction's first statement. */
  begin(mode: TransactionMode): void {
    this.sendAhead({ text: (this.distributed ? citusBeginStatements : beginStatements)[mode], values: [] });
  }

  async commit(): Promise<void> {
    await this.rows({ text: "commit", values: [] });
  }

  async rollback(): Promise<void> {
    await this.rows({ text: "rollback", values: [] });
  }

  #send({ name, text, values }: Statement): Promise<pg.QueryResult> {
    const config: pg.QueryConfig = { text, values: values.map(parameter) };
    if (name !== undefined && this.#named) config.name = name;
    return this.#client.query(config);
  }

  /**
   * Awaits what was sent ahead, in order: the first failure is the cause (the statements behind it
   * were only aborted by it, and their rejections are already observed).
   */
  async #settleAhead(): Promise<void> {
    const ahead = this.#ahead;
    this.#ahead = [];
    for (const sent of ahead) await sent;
  }
}

/**
 * Single statements outside any transaction, each on whichever pooled connection is free
 * (`pool.query`): a named statement is parsed once on each connection that runs it.
 */
export class PgPoolStatements {
  readonly #pool: () => Promise<pg.Pool>;
  readonly #named: boolean;

  constructor(pool: () => Promise<pg.Pool>, named: boolean) {
    this.#pool = pool;
    this.#named = named;
  }

  async rows<Row>({ name, text, values }: Statement): Promise<Row[]> {
    const config: pg.QueryConfig = { text, values: values.map(parameter) };
    if (name !== undefined && this.#named) config.name = name;
    return (await (await this.#pool()).query(config)).rows as Row[];
  }
}

/** A statement's value as pg receives it: an array of scalars already in PostgreSQL's array text. */
function parameter(value: unknown): unknown {
  return Array.isArray(value) ? (arrayLiteral(value) ?? value) : value;
}

/** A money movement's transaction (read committed), or a read-only snapshot (repeatable read). */
export type TransactionMode = "movement" | "snapshot";

/**
 * Settings local to each kind of transaction (`set local`, which PgBouncer's transaction mode
 * keeps, unlike a session `set`). On PostgreSQL they travel in the BEGIN's own simple query
 * (`begin; set local ...`: one message, no statement of their own); on PGlite they run after
 * MikroORM's BEGIN (persistence/database.ts).
 *
 * `plan_cache_mode = force_generic_plan`, both: PostgreSQL plans a named statement with parameters
 * afresh on each call (a "custom plan") until it judges its reusable plan no dearer, and it never
 * does for the movement statements (their CTEs and `= any($n)` arrays make the reusable plan's
 * estimate look worse): replanning them cost about a third of PostgreSQL's CPU per transfer (perf,
 * docs/benchmark.md), and planning the history's page cost more than running it. Their plans do
 * not depend on the values (index lookups by key), so one plan per connection serves every call.
 * Scoped to these transactions: every other query keeps PostgreSQL's own choice.
 *
 * `max_parallel_workers_per_gather = 0`, snapshots: a user's history or search touches a few
 * hundred rows, and starting workers for it cost more than the read at 1M transactions
 * (docs/benchmark.md, "History as the ledger grows").
 *
 * `jit = off`, snapshots: the generic plan of a total under amount bounds (migrations 0013 and
 * 0014) is estimated far above `jit_above_cost` (its index ranges are costed as if unbounded), and
 * compiling it (0013's) took 2.1 to 2.4 s for an execution of 4 to 19 ms (docs/benchmark.md,
 * thirty-first session); a snapshot reads a few hundred rows, which JIT never pays back.
 */
export const transactionSettings: Record<TransactionMode, readonly string[]> = {
  movement: ["set local plan_cache_mode = force_generic_plan"],
  snapshot: [
    "set local max_parallel_workers_per_gather = 0",
    "set local plan_cache_mode = force_generic_plan",
    "set local jit = off",
  ],
};

/**
 * On Citus (tables distributed, persistence/citus-routing.ts) the same transactions without
 * `plan_cache_mode = force_generic_plan`, under which Citus answers "could not create distributed
 * plan" (it prunes shards by the parameters' values, so it needs custom plans), and a movement's
 * in `citus.multi_shard_modify_mode = 'sequential'`: a transaction that read or wrote several
 * shards in Citus's default parallel mode (one connection per shard) may not write a reference
 * table afterwards ("cannot modify table ... because there was a parallel operation on a
 * distributed table"), and a movement's statements are each one shard's anyway.
 */
const citusTransactionSettings: Record<TransactionMode, readonly string[]> = {
  movement: ["set local citus.multi_shard_modify_mode = 'sequential'"],
  snapshot: transactionSettings.snapshot.filter((setting) => !setting.includes("plan_cache_mode")),
};

const beginStatements: Record<TransactionMode, string> = {
  movement: ["begin", ...transactionSettings.movement].join("; "),
  snapshot: ["begin isolation level repeatable read read only", ...transactionSettings.snapshot].join("; "),
};

const citusBeginStatements: Record<TransactionMode, string> = {
  movement: ["begin", ...citusTransactionSettings.movement].join("; "),
  // Not read only: a history read copies the user's rows into temporary tables first
  // (transactions/citus-history-store.ts); it writes nothing else.
  snapshot: ["begin isolation level repeatable read", ...citusTransactionSettings.snapshot].join("; "),
};

/** A wallet a transaction on Citus holds locked: its owner (its shard) and its chain's head. */
export interface HeldWallet {
  readonly userId: number;
  chainHead: Buffer;
}

/**
 * Runs `work` in one transaction on a connection from `pool`: COMMIT when it resolves (unless its
 * last statement took the COMMIT along), ROLLBACK when it throws. A connection that could not
 * even roll back is closed rather than pooled again.
 */
export async function transactOnPool<T>(
  pool: pg.Pool,
  { named, mode, distributed = false }: { named: boolean; mode: TransactionMode; distributed?: boolean },
  work: (transaction: PgTransaction) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  const transaction = new PgTransaction(client, named, distributed);
  try {
    transaction.begin(mode);
    const result = await work(transaction);
    if (!transaction.committed) await transaction.commit();
    return result;
  } catch (error) {
    // Its node turned read-only under it: pooled again, it would fail the next movement too.
    if ((error as { code?: unknown } | null)?.code === readOnlyTransactionState) broken = error as Error;
    // A transaction whose COMMIT already went out has ended either way: nothing to roll back.
    if (!transaction.committed)
      await transaction.rollback().catch((rollbackError: unknown) => {
        broken = rollbackError instanceof Error ? rollbackError : new Error(String(rollbackError));
      });
    throw error;
  } finally {
    client.release(broken);
  }
}
