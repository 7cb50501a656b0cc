import { createHmac, randomBytes } from "node:crypto";
import type { Database } from "../persistence/database.ts";
import { firstRow, sql } from "../persistence/sql.ts";
import { decryptSecret, deriveSecretKey, encryptSecret } from "../secrets/index.ts";

/** Seals secrets that must be recovered in clear (form tokens, webhook secrets); never logs them. */
export interface SecretBox {
  seal(plain: string): string;
  open(sealed: string): string;
  /** A stable secret for one purpose (e.g. the captcha's HMAC key), the same in every process. */
  derive(purpose: string): string;
}

export function secretBoxFromKey(keyText: string): SecretBox {
  const key = deriveSecretKey(keyText);
  return {
    seal: (plain) => encryptSecret(plain, key),
    open: (sealed) => decryptSecret(sealed, key),
    derive: (purpose) => createHmac("sha256", key).update(purpose).digest("base64url"),
  };
}

/**
 * The key comes from PURSE_SECRET_KEY. Without it (the demo, a quick trial) a random key is made
 * once and kept in the database, so every process of one deployment agrees on it; production
 * deployments set PURSE_SECRET_KEY so that a copy of the database alone does not open the secrets.
 */
export async function openSecretBox(db: Database, configuredKey: string | undefined): Promise<SecretBox> {
  if (configuredKey) return secretBoxFromKey(configuredKey);
  const em = db.em();
  await sql`insert into settings (key, value) values ('generated_secret_key', ${JSON.stringify(
    randomBytes(32).toString("base64url"),
  )}::jsonb) on conflict (key) do nothing`.execute(em.getKysely());
  const row = await firstRow(
    em,
    sql<{ value: string }>`select value from settings where key = 'generated_secret_key'`,
  );
  if (!row) throw new Error("the generated secret key could not be stored");
  return secretBoxFromKey(row.value);
}
