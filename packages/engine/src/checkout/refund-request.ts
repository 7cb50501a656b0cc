import { PurseError } from "../errors/index.ts";
import { sha256Hex } from "../secrets/sha256-hex.ts";

/** A refund as its contract (`refundContract`) parses it: texts trimmed, the amount normalised. */
export interface RefundInput {
  readonly transactionId?: string | null;
  readonly externalId?: string | null;
  readonly amount?: string | null;
  readonly reason?: string | null;
  /** The `Idempotency-Key` header, if sent. */
  readonly idempotencyKey?: string | null;
}

/** The refund as the movement reads it. */
export interface RefundRequest {
  /** The checkout's transaction id; 0 when the text was no id at all (it then matches nothing). */
  readonly transactionId: number | null;
  readonly externalId: string | null;
  /** Null: the whole remainder. */
  readonly amount: string | null;
  readonly reason: string;
  readonly idempotencyKey: string | null;
  /** Identifies the request's content: same fingerprint, same refund. */
  readonly fingerprint: string;
}

/**
 * Reads the refund: one of the two keys is required (blank: on `transactionId`); an id that is not
 * a whole number names no checkout, which is refused later with the one answer every miss gets.
 */
export function readRefundRequest(input: RefundInput): RefundRequest {
  const idText = input.transactionId || null;
  const externalId = input.externalId || null;
  if (idText === null && externalId === null) throw new PurseError("BLANK", "transactionId");
  const transactionId = idText === null ? null : /^\d{1,15}$/.test(idText) ? Number(idText) : 0;
  const amount = input.amount ?? null;
  const reason = input.reason || "";
  return {
    transactionId,
    externalId,
    amount,
    reason,
    idempotencyKey: input.idempotencyKey || null,
    fingerprint: sha256Hex(JSON.stringify(["refund", idText, externalId, amount, reason])),
  };
}
