import type { SqlEntityManager } from "@mikro-orm/sql";
import { PurseError } from "../errors/index.ts";
import type { Database } from "../persistence/database.ts";
import { firstRow, type SqlRunner, sql, toId } from "../persistence/sql.ts";

export type UserRole = "merchant" | "partner";

/** A user's own row: who they are, whether blocked, and since when. */
export interface UserRow {
  readonly id: number;
  readonly name: string;
  readonly role: UserRole;
  readonly blocked: boolean;
  readonly createdAt: Date | string;
}

export async function findUser(em: SqlEntityManager, userId: number): Promise<UserRow | undefined> {
  const row = await firstRow(
    em,
    sql<{ id: string; name: string; role: UserRole; blocked: boolean; created_at: Date | string }>`
      select id, name, role, blocked, created_at from users where id = ${userId}`,
  );
  return row === undefined
    ? undefined
    : { id: toId(row.id), name: row.name, role: row.role, blocked: row.blocked, createdAt: row.created_at };
}

/** A user's login by id (the dashboard's session knows the id); undefined when there is no such user. */
export async function findLogin(em: SqlEntityManager, userId: number): Promise<string | undefined> {
  return (await firstRow(em, sql<{ login: string }>`select login from users where id = ${userId}`))?.login;
}

/** Whether the user is blocked, read in the caller's transaction; undefined when there is no such user. */
export async function isUserBlocked(em: SqlRunner, userId: number): Promise<boolean | undefined> {
  const row = await firstRow(em, sql<{ blocked: boolean }>`select blocked from users where id = ${userId}`);
  return row?.blocked;
}

/** A user's id and password hash by login, for a sign-in check. */
export async function findStoredPassword(
  em: SqlEntityManager,
  login: string,
): Promise<{ id: string; password_hash: string } | undefined> {
  return firstRow(
    em,
    sql<{ id: string; password_hash: string }>`select id, password_hash from users where login = ${login}`,
  );
}

export async function findUserIdByLogin(em: SqlEntityManager, login: string): Promise<number | undefined> {
  const row = await firstRow(em, sql<{ id: string }>`select id from users where login = ${login}`);
  return row === undefined ? undefined : toId(row.id);
}

/** Replaces a password hash, unless it changed since `checkedHash` was read (never overwrite a new password). */
export async function replacePasswordHash(
  em: SqlEntityManager,
  userId: string | number,
  checkedHash: string,
  newHash: string,
): Promise<void> {
  await sql`update users set password_hash = ${newHash}
    where id = ${userId} and password_hash = ${checkedHash}`.execute(em.getKysely());
}

/**
 * The id of the user with this login, for operator commands; an unknown login is an operator's
 * mistake, refused on the field `login` (the command names the option it came from).
 */
export async function userIdByLogin(db: Database, login: string): Promise<number> {
  const id = await findUserIdByLogin(db.em(), login);
  if (id === undefined) throw new PurseError("NOT_FOUND", "login");
  return id;
}
