import type { Database } from "../persistence/database.ts";
import { lockSealedValues, writeSealedValue } from "./key-store.ts";
import { sealedColumns } from "./sealed-columns.ts";
import { type DeploymentSecretBox, forgetStoredSecretKey } from "./secret-keyring.ts";

export interface RotationProgress {
  readonly table: string;
  readonly column: string;
  /** Values of this column looked at so far, and in all. */
  readonly done: number;
  readonly total: number;
}

export interface RotationSummary {
  /** Values rewritten under the current key. */
  readonly resealed: number;
  /** Values already sealed under the current key, left as they were. */
  readonly current: number;
  /** Whether the generated key was deleted from the database. */
  readonly forgotDatabaseKey: boolean;
}

/**
 * Re-seals every sealed value under the box's current key (and binding), in one transaction: any
 * value that no key of the ring opens aborts the whole rotation with nothing changed. Rows are
 * locked, so a concurrent write (a webhook secret rotation) waits for the commit. Once everything
 * is under a configured key, a key generated into the database is deleted: nothing needs it.
 */
export async function rotateSecretKey(
  db: Database,
  box: DeploymentSecretBox,
  onProgress: (progress: RotationProgress) => void = () => {},
): Promise<RotationSummary> {
  // Asked first, so that the unit of work knows whether rows can be locked (key-store.ts).
  await db.distributed();
  return db.em().transactional(async (em) => {
    let resealed = 0;
    let current = 0;
    for (const column of sealedColumns) {
      const values = await lockSealedValues(em, column);
      let done = 0;
      for (const value of values) {
        const binding = { table: column.table, field: column.field, row: value.row_key };
        if (box.isCurrent(value.sealed)) {
          box.open(value.sealed, binding); // proves it opens: a rotation never leaves a broken value
          current += 1;
        } else {
          const plain = box.open(value.sealed, binding);
          await writeSealedValue(em, column, value, box.seal(plain, binding));
          resealed += 1;
        }
        done += 1;
        if (done % 500 === 0 || done === values.length)
          onProgress({ table: column.table, column: column.column, done, total: values.length });
      }
      if (values.length === 0) onProgress({ table: column.table, column: column.column, done: 0, total: 0 });
    }
    const forgetDatabaseKey = box.keySource === "environment" && box.databaseKeyStored;
    if (forgetDatabaseKey) await forgetStoredSecretKey(em);
    return { resealed, current, forgotDatabaseKey: forgetDatabaseKey };
  });
}
