import { createHmac, randomBytes } from "node:crypto";
import type { SqlEntityManager } from "@mikro-orm/sql";
import type { Database } from "../persistence/database.ts";
import { type BoxKey, boxKey, openSecret, sealedKeyId, sealSecret } from "../secrets/index.ts";
import { deleteStoredSecretKey, readStoredSecretKey, storeSecretKeyIfAbsent } from "./key-store.ts";

/**
 * Where a sealed value lives: it is authenticated as additional data, so a value copied into
 * another row (another client's form token) or another field does not open. `field` names the
 * logical secret, not the column: a webhook secret moved to `previous_webhook_secret_sealed` on
 * rotation is still the same client's webhook secret.
 */
export interface SealBinding {
  readonly table: string;
  readonly field: string;
  /** A stable, unique key of the row that is known before the insert (e.g. `clients.client_id`). */
  readonly row: string;
}

/** Seals secrets that must be recovered in clear (form tokens, webhook secrets); never logs them. */
export interface SecretBox {
  /** The id of the key new values are sealed with (`v2:<key id>:…`). */
  readonly keyId: string;
  seal(plain: string, binding: SealBinding): string;
  /** Opens values sealed with any key of the ring, and the first (v1) form that had no binding. */
  open(sealed: string, binding: SealBinding): string;
  /** True when `sealed` is already in the current form under the current key. */
  isCurrent(sealed: string): boolean;
  /** A stable secret for one purpose (e.g. the captcha's HMAC key), the same in every process. */
  derive(purpose: string): string;
}

/** A box opened for a deployment: also says where its current key came from. */
export interface DeploymentSecretBox extends SecretBox {
  /** `environment`: PURSE_SECRET_KEY. `database`: generated and kept in the `settings` table. */
  readonly keySource: "environment" | "database";
  /** A generated key is still stored in the database (and readable), e.g. before `purse keys rotate`. */
  readonly databaseKeyStored: boolean;
}

export function bindingContext(binding: SealBinding): string {
  return `${binding.table}.${binding.field}:${binding.row}`;
}

/** The current key seals; the current and every previous key open. */
export function secretBoxFromKeys(current: string, previous: readonly string[] = []): SecretBox {
  const currentKey = boxKey(current);
  const ring: BoxKey[] = [currentKey];
  for (const text of previous) {
    const key = boxKey(text);
    if (!ring.some((known) => known.id === key.id)) ring.push(key);
  }
  return {
    keyId: currentKey.id,
    seal: (plain, binding) => sealSecret(plain, currentKey, bindingContext(binding)),
    open: (sealed, binding) => openSecret(sealed, ring, bindingContext(binding)),
    isCurrent: (sealed) => sealedKeyId(sealed) === currentKey.id,
    derive: (purpose) => createHmac("sha256", currentKey.key).update(purpose).digest("base64url"),
  };
}

export function secretBoxFromKey(keyText: string): SecretBox {
  return secretBoxFromKeys(keyText);
}

/**
 * The key comes from PURSE_SECRET_KEY (older keys stay readable from PURSE_SECRET_KEY_PREVIOUS).
 * Without it (the demo, a quick trial) a random key is made once and kept in the database, so every
 * process of one deployment agrees on it; such a key protects nothing from whoever holds a copy of
 * the database, which is why production refuses to start without PURSE_SECRET_KEY. A key stored
 * earlier stays readable after PURSE_SECRET_KEY is set, until `purse keys rotate` re-seals
 * everything and deletes it.
 */
export async function openSecretBox(
  db: Database,
  configuredKey: string | undefined,
  previousKeys: readonly string[] = [],
): Promise<DeploymentSecretBox> {
  const em = db.em();
  const readStored = () => readStoredSecretKey(em);
  if (configuredKey) {
    const stored = await readStored();
    const previous = stored ? [...previousKeys, stored] : previousKeys;
    return {
      ...secretBoxFromKeys(configuredKey, previous),
      keySource: "environment",
      databaseKeyStored: stored !== undefined,
    };
  }
  await storeSecretKeyIfAbsent(em, randomBytes(32).toString("base64url"));
  const stored = await readStored();
  if (!stored) throw new Error("the generated secret key could not be stored");
  return { ...secretBoxFromKeys(stored, previousKeys), keySource: "database", databaseKeyStored: true };
}

/** Deletes the generated key from the database; `purse keys rotate` calls it once nothing needs it. */
export async function forgetStoredSecretKey(em: SqlEntityManager): Promise<void> {
  await deleteStoredSecretKey(em);
}
