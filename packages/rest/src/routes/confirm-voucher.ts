import { activateVoucher } from "@purse/engine";
import { actorOf, bearerAuth } from "../http/bearer.ts";
import type { RegisterRoute } from "../http/route-context.ts";
import { bearerSecurity } from "../schemas/common.ts";
import {
  confirmVoucherBody,
  confirmVoucherHeaders,
  confirmVoucherResponses,
} from "./confirm-voucher.schemas.ts";

/** POST /api/vouchers/activation/confirm: credits the voucher, less commission, to wallet_to. */
export const registerConfirmVoucher: RegisterRoute = (app, deps) => {
  app.post(
    "/api/vouchers/activation/confirm",
    {
      onRequest: bearerAuth(deps),
      schema: {
        operationId: "confirmVoucherActivation",
        tags: ["Vouchers"],
        summary: "Activate a voucher into one of the caller's USD wallets",
        security: bearerSecurity,
        headers: confirmVoucherHeaders,
        body: confirmVoucherBody,
        response: confirmVoucherResponses,
      },
    },
    async (request) => {
      const activation = await activateVoucher(deps, actorOf(request), {
        voucherNumber: request.body.voucher_number,
        voucherCode: request.body.voucher_code,
        walletTo: request.body.wallet_to,
        additional: request.body.additional,
        idempotencyKey: request.headers["idempotency-key"],
      });
      return { message: activation.message };
    },
  );
};
