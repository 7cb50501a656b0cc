import { buyVoucher } from "@purse/engine";
import { actorOf, bearerAuth } from "../http/bearer.ts";
import type { RegisterRoute } from "../http/route-context.ts";
import { bearerSecurity, ok } from "../schemas/common.ts";
import { toNumber } from "../schemas/currency.ts";
import {
  buyVoucherBody,
  buyVoucherHeaders,
  buyVoucherResponses,
  purchasedVoucher,
} from "./buy-voucher.schemas.ts";

/**
 * POST /api/vouchers/buy, and POST /api/vouchers/confirm, the name one version of the client
 * library calls it by (a purchase, not the activation confirm at /api/vouchers/activation/confirm).
 * The engine applies the per-minute limit, the route lock and Idempotency-Key.
 */
export const registerBuyVoucher: RegisterRoute = (app, deps) => {
  for (const [url, operationId, summary] of [
    ["/api/vouchers/buy", "buyVoucher", "Buy a voucher from one of the caller's USD wallets"],
    [
      "/api/vouchers/confirm",
      "buyVoucherByConfirm",
      "Buy a voucher (the same as POST /api/vouchers/buy, under the name some clients call)",
    ],
  ] as const) {
    app.post(
      url,
      {
        onRequest: bearerAuth(deps),
        schema: {
          operationId,
          tags: ["Vouchers"],
          summary,
          security: bearerSecurity,
          headers: buyVoucherHeaders,
          body: buyVoucherBody,
          response: buyVoucherResponses,
        },
      },
      async (request) => {
        const voucher = await buyVoucher(deps, actorOf(request), {
          walletFrom: request.body.wallet_from,
          amount: request.body.amount,
          additional: request.body.additional,
          idempotencyKey: request.headers["idempotency-key"],
        });
        return ok(purchasedVoucher.toWire(voucher, toNumber));
      },
    );
  }
};
