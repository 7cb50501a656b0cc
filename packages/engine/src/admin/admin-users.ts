import { randomBytes } from "node:crypto";
import { userIdByLogin } from "../auth/user-store.ts";
import { PurseError } from "../errors/index.ts";
import { formTokenBinding, webhookSecretBinding } from "../keys/sealed-columns.ts";
import type { SecretBox } from "../keys/secret-keyring.ts";
import { inMode, isTestCredential } from "../mode/data-mode.ts";
import type { Database } from "../persistence/database.ts";
import { isUniqueViolation } from "../persistence/sql.ts";
import { generateWebhookSecret, hashPassword, hashSecret } from "../secrets/index.ts";
import { insertClient, insertUser, updateUserBlocked } from "./admin-store.ts";

/** Operator verbs for users and their API clients (the `purse users` and `purse clients` commands). */
export async function createUser(
  db: Database,
  user: { name: string; role: "merchant" | "partner"; login: string; password: string },
): Promise<number> {
  const passwordHash = await hashPassword(user.password);
  try {
    return await insertUser(db.em(), { ...user, passwordHash });
  } catch (error) {
    if (isUniqueViolation(error)) throw new Error(`a user with login "${user.login}" already exists`);
    throw error;
  }
}

export async function setUserBlocked(db: Database, login: string, blocked: boolean): Promise<void> {
  if (!(await updateUserBlocked(db.em(), login, blocked))) throw new PurseError("NOT_FOUND");
}

export interface IssuedClient {
  readonly clientId: string;
  readonly clientSecret: string;
  readonly formToken: string;
  readonly webhookSecret: string;
}

/** A new API client for a user; the secrets are returned once and stored only hashed or sealed. */
export async function createClient(db: Database, secretBox: SecretBox, login: string): Promise<IssuedClient> {
  return createClientForUser(db, secretBox, await userIdByLogin(db, login), login);
}

/** As createClient, for a user known by id (the dashboard's session); `login` names the client. */
export async function createClientForUser(
  db: Database,
  secretBox: SecretBox,
  userId: number,
  login: string,
): Promise<IssuedClient> {
  // Test mode's credentials carry its mark (contract: "Test mode"); a live one never does, so a
  // login that happens to start with it gets a neutral lead.
  const test = db.mode === "test";
  const name = `${login}-${randomBytes(4).toString("hex")}`;
  const issued: IssuedClient = {
    clientId: test ? inMode(true, name) : isTestCredential(name) ? `client-${name}` : name,
    clientSecret: inMode(test, randomBytes(24).toString("base64url")),
    formToken: inMode(test, randomBytes(24).toString("base64url")),
    webhookSecret: generateWebhookSecret(),
  };
  await insertClient(db.em(), {
    userId,
    clientId: issued.clientId,
    secretHash: await hashSecret(issued.clientSecret),
    formTokenSealed: secretBox.seal(issued.formToken, formTokenBinding(issued.clientId)),
    webhookSecretSealed: secretBox.seal(issued.webhookSecret, webhookSecretBinding(issued.clientId)),
  });
  return issued;
}
