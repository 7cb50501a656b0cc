import { createHash, randomInt, timingSafeEqual } from "node:crypto";
import type { SealBinding, SecretBox } from "../keys/secret-keyring.ts";
import { verifySecret } from "../secrets/index.ts";

/** How a voucher's code is kept: sealed (readable by its buyer), or hashed (rows from before 0004). */
export interface StoredVoucherCode {
  readonly codeSealed: string | null;
  readonly codeHash: string | null;
}

/** The code is bound to its voucher's number, so a sealed code copied to another voucher does not open. */
export function voucherCodeBinding(voucherNumber: string): SealBinding {
  return { table: "vouchers", field: "voucher_code", row: voucherNumber };
}

export function sealVoucherCode(box: SecretBox, voucherNumber: string, code: string): string {
  return box.seal(code, voucherCodeBinding(voucherNumber));
}

/** The code in clear for its buyer; null for a code kept only as a hash (it cannot be recovered). */
export function revealVoucherCode(
  box: SecretBox,
  voucherNumber: string,
  stored: StoredVoucherCode,
): string | null {
  return stored.codeSealed === null ? null : box.open(stored.codeSealed, voucherCodeBinding(voucherNumber));
}

/**
 * Whether `given` is the voucher's code. A sealed code is opened and compared in constant time (as
 * SHA-256 digests, so neither the length nor the first differing character shows in the timing);
 * a code kept as an scrypt hash (rows from before sealing) is verified by its hash.
 */
export async function voucherCodeMatches(
  box: SecretBox,
  voucherNumber: string,
  stored: StoredVoucherCode,
  given: string,
): Promise<boolean> {
  if (stored.codeSealed !== null) {
    const code = box.open(stored.codeSealed, voucherCodeBinding(voucherNumber));
    return timingSafeEqual(digest(code), digest(given));
  }
  return stored.codeHash !== null && verifySecret(given, stored.codeHash);
}

function digest(text: string): Buffer {
  return createHash("sha256").update(text, "utf8").digest();
}

/**
 * A new voucher's number and code. The number is public (it names the voucher); the code is the
 * secret: four groups of four digits, 10^16 possibilities, typed by people and guarded by the
 * per-user limits on confirm and info.
 */
export function newVoucherCredentials(): { number: string; code: string } {
  const hex = Array.from({ length: 12 }, () => randomInt(16).toString(16))
    .join("")
    .toUpperCase();
  const group = () => String(randomInt(10_000)).padStart(4, "0");
  return { number: `V-${hex}`, code: [group(), group(), group(), group()].join("-") };
}
