import { sha256Hex } from "../secrets/sha256-hex.ts";

/**
 * A transfer as its contract (`transferContract`) parses it: wallet numbers trimmed and not blank,
 * the amount a positive decimal in its normal form, optional texts trimmed.
 */
export interface TransferInput {
  readonly walletFrom: string;
  readonly walletTo: string;
  readonly amount: string;
  readonly paymentId?: string | null;
  readonly description?: string | null;
  /** The `Idempotency-Key` header, if sent. */
  readonly idempotencyKey?: string | null;
}

export interface TransferRequest {
  readonly walletFrom: string;
  readonly walletTo: string;
  readonly amount: string;
  readonly paymentId: string | null;
  readonly description: string;
  readonly idempotencyKey: string | null;
  /** Identifies the request's content: same fingerprint, same transfer. */
  readonly fingerprint: string;
}

/** The transfer as the movement reads it: an empty optional text is not given. */
export function readTransferRequest(input: TransferInput): TransferRequest {
  const { walletFrom, walletTo, amount } = input;
  const description = input.description || "";
  const fingerprint = sha256Hex(JSON.stringify([walletFrom, walletTo, amount, description]));
  return {
    walletFrom,
    walletTo,
    amount,
    paymentId: input.paymentId || null,
    description,
    idempotencyKey: input.idempotencyKey || null,
    fingerprint,
  };
}
