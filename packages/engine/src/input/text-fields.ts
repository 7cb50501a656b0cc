import { PurseError } from "../errors/index.ts";
import { inputBounds } from "./input-bounds.ts";

/** PostgreSQL text cannot hold NUL; such input is refused as invalid rather than failing in SQL. */
export function refuseNul<T extends string | null | undefined>(value: T, field: string): T {
  if (typeof value === "string" && value.includes("\u0000")) throw new PurseError("INVALID_VALUE", field);
  return value;
}

/**
 * The `Idempotency-Key` header, for doors whose money-moving calls also take the key as input
 * (GraphQL, tRPC): the input's key wins, else the header's, bounded as the input's is.
 */
export function idempotencyKeyOf(
  input: string | null | undefined,
  header: string | null | undefined,
): string | null {
  if (input) return input;
  if (!header) return null;
  if (header.length > inputBounds.idempotencyKey)
    throw new PurseError("TOO_LONG", "Idempotency-Key", { limit: inputBounds.idempotencyKey });
  return header;
}
