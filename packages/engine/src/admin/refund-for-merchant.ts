import type { Actor } from "../auth/actor.ts";
import { apiScope } from "../auth/issue-token.ts";
import { refundCheckout } from "../checkout/refund-checkout.ts";
import type { RefundView } from "../checkout/refund-store.ts";
import type { EngineDependencies } from "../engine-dependencies.ts";
import { PurseError } from "../errors/index.ts";
import { inputBounds } from "../input/input-bounds.ts";
import { checkAmountSyntax, normaliseDecimalText } from "../money/index.ts";
import { toId } from "../persistence/sql.ts";
import { findCheckoutMerchant } from "./admin-store.ts";
import { checkOperatorRequest, type OperatorRequest } from "./operator-movement.ts";

/**
 * `purse transactions refund`: an operator refunds a paid checkout on its merchant's behalf, by
 * the same use case and rules as the merchant's own call (remainder, funds, the checkout's row
 * lock), so the two can never together refund more than was paid. The operator's key is the
 * merchant's Idempotency-Key (`operator:<key>`, apart from any key the merchant's clients send)
 * and the operator is named in the refund's description.
 */
export async function refundForMerchant(
  deps: EngineDependencies,
  request: { transactionId: number; amount: string | null; reason: string } & OperatorRequest,
): Promise<RefundView & { replayed: boolean }> {
  checkOperatorRequest(request);
  if (request.reason.length > inputBounds.freeText)
    throw new PurseError("TOO_LONG", "reason", { limit: inputBounds.freeText });
  const amount = request.amount === null ? null : normaliseDecimalText(checkAmountSyntax(request.amount));
  const merchant = await findCheckoutMerchant(deps.db.em(), request.transactionId);
  if (!merchant) throw new PurseError("REFUND_NOT_REFUNDABLE");
  const actor: Actor = { userId: toId(merchant.id), role: merchant.role, clientId: null, scope: apiScope };
  const by = `by operator ${request.operator}`;
  let replayed = false;
  const refund = await refundCheckout(
    deps,
    actor,
    {
      transactionId: String(request.transactionId),
      amount,
      reason:
        request.reason === "" ? `Refund ${by}` : `${request.reason} (${by})`.slice(0, inputBounds.freeText),
      idempotencyKey: `operator:${request.key}`,
    },
    { replayed: () => (replayed = true) },
  );
  return { ...refund, replayed };
}
