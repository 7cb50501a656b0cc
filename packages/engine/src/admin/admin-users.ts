import { randomBytes } from "node:crypto";
import { PurseError } from "../errors/index.ts";
import { formTokenBinding, webhookSecretBinding } from "../keys/sealed-columns.ts";
import type { SecretBox } from "../keys/secret-keyring.ts";
import type { Database } from "../persistence/database.ts";
import { firstRow, isUniqueViolation, rows, sql, toId } from "../persistence/sql.ts";
import { generateWebhookSecret, hashPassword, hashSecret } from "../secrets/index.ts";

/** Operator verbs for users and their API clients (the `purse users` and `purse clients` commands). */
export async function createUser(
  db: Database,
  user: { name: string; role: "merchant" | "partner"; login: string; password: string },
): Promise<number> {
  const passwordHash = await hashPassword(user.password);
  try {
    const row = await firstRow(
      db.em(),
      sql<{ id: string }>`insert into users (name, role, login, password_hash)
        values (${user.name}, ${user.role}, ${user.login}, ${passwordHash}) returning id`,
    );
    return toId(row?.id ?? 0);
  } catch (error) {
    if (isUniqueViolation(error)) throw new Error(`a user with login "${user.login}" already exists`);
    throw error;
  }
}

export async function setUserBlocked(db: Database, login: string, blocked: boolean): Promise<void> {
  const updated = await rows(
    db.em(),
    sql<{ id: string }>`update users set blocked = ${blocked} where login = ${login} returning id`,
  );
  if (updated.length === 0) throw new PurseError("NOT_FOUND");
}

export async function userIdByLogin(db: Database, login: string): Promise<number> {
  const row = await firstRow(db.em(), sql<{ id: string }>`select id from users where login = ${login}`);
  if (!row) throw new Error(`no user with login "${login}"`);
  return toId(row.id);
}

export interface IssuedClient {
  readonly clientId: string;
  readonly clientSecret: string;
  readonly formToken: string;
  readonly webhookSecret: string;
}

/** A new API client for a user; the secrets are returned once and stored only hashed or sealed. */
export async function createClient(db: Database, secretBox: SecretBox, login: string): Promise<IssuedClient> {
  const userId = await userIdByLogin(db, login);
  const issued: IssuedClient = {
    clientId: `${login}-${randomBytes(4).toString("hex")}`,
    clientSecret: randomBytes(24).toString("base64url"),
    formToken: randomBytes(24).toString("base64url"),
    webhookSecret: generateWebhookSecret(),
  };
  await sql`insert into clients (user_id, client_id, secret_hash, form_token_sealed, webhook_secret_sealed)
    values (${userId}, ${issued.clientId}, ${await hashSecret(issued.clientSecret)}, ${secretBox.seal(issued.formToken, formTokenBinding(issued.clientId))},
      ${secretBox.seal(issued.webhookSecret, webhookSecretBinding(issued.clientId))})`.execute(
    db.em().getKysely(),
  );
  return issued;
}
