import { getVoucherInfo } from "@purse/engine";
import { actorOf, bearerAuth } from "../http/bearer.ts";
import type { RegisterRoute } from "../http/route-context.ts";
import { bearerSecurity, ok } from "../schemas/common.ts";
import { toNumber } from "../schemas/currency.ts";
import { voucherInfoQuery, voucherInfoResponses } from "./voucher-info.schemas.ts";

/** GET /api/vouchers/activation/info: confirm's checks and the net amount, moving nothing. */
export const registerVoucherInfo: RegisterRoute = (app, deps) => {
  app.get(
    "/api/vouchers/activation/info",
    {
      onRequest: bearerAuth(deps),
      schema: {
        operationId: "getVoucherInfo",
        tags: ["Vouchers"],
        summary: "Check a voucher and its net amount before confirming",
        security: bearerSecurity,
        querystring: voucherInfoQuery,
        response: voucherInfoResponses,
      },
    },
    async (request) => {
      const info = await getVoucherInfo(deps, actorOf(request), {
        voucherNumber: request.query.voucher_number,
        voucherCode: request.query.voucher_code,
      });
      return ok({
        voucher_number: info.voucherNumber,
        amount: toNumber(info.amount),
        commission: toNumber(info.commission),
        amount_to: toNumber(info.amountTo),
        currency: info.currency,
        status: info.status,
        expired_at: info.expiredAt,
      });
    },
  );
};
