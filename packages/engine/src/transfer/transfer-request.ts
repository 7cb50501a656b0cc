import { optionalText, requiredText } from "../input/text-fields.ts";
import { checkAmountSyntax, normaliseDecimalText } from "../money/index.ts";
import { sha256Hex } from "../secrets/sha256-hex.ts";

/** The transfer as a client sends it; amounts may arrive as text or a bare number. */
export interface TransferInput {
  readonly walletFrom?: string | null;
  readonly walletTo?: string | null;
  readonly amount?: string | null;
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

/** Syntax checks that need no database, in the order of the spec's transfer table. */
export function readTransferRequest(input: TransferInput): TransferRequest {
  const walletFrom = requiredText(input.walletFrom, "wallet_from");
  const walletTo = requiredText(input.walletTo, "wallet_to");
  const amount = normaliseDecimalText(checkAmountSyntax(input.amount, "amount"));
  const paymentId = optionalText(input.paymentId, "payment_id");
  const description = optionalText(input.description, "description") ?? "";
  const fingerprint = sha256Hex(JSON.stringify([walletFrom, walletTo, amount, description]));
  return {
    walletFrom,
    walletTo,
    amount,
    paymentId,
    description,
    idempotencyKey: optionalText(input.idempotencyKey, "Idempotency-Key"),
    fingerprint,
  };
}
