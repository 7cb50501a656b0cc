import { activateVoucher, getVoucherInfo } from "@purse/engine";
import { z } from "zod";
import { actorOf, bearerAuth } from "../http/bearer.ts";
import type { RegisterRoute } from "../http/route-context.ts";
import { bearerErrors, envelope, optionalText } from "../schemas/common.ts";
import { toNumber } from "../schemas/present.ts";

/** POST /api/vouchers/activation/confirm and GET /api/vouchers/activation/info */
export const registerVouchers: RegisterRoute = (app, deps) => {
  const onRequest = bearerAuth(deps);

  app.post(
    "/api/vouchers/activation/confirm",
    {
      onRequest,
      schema: {
        tags: ["Vouchers"],
        summary: "Activate a voucher into one of the caller's USD wallets",
        security: [{ bearer: [] }],
        body: z.object({
          voucher_number: z.string(),
          voucher_code: z.string(),
          wallet_to: z.string(),
          additional: optionalText,
        }),
        response: { 200: z.object({ message: z.string() }), ...bearerErrors },
      },
    },
    async (request) => {
      const activation = await activateVoucher(deps, actorOf(request), {
        voucherNumber: request.body.voucher_number,
        voucherCode: request.body.voucher_code,
        walletTo: request.body.wallet_to,
        additional: request.body.additional,
      });
      return { message: activation.message };
    },
  );

  app.get(
    "/api/vouchers/activation/info",
    {
      onRequest,
      schema: {
        tags: ["Vouchers"],
        summary: "Check a voucher and its net amount before confirming",
        security: [{ bearer: [] }],
        querystring: z.object({ voucher_number: z.string().optional(), voucher_code: z.string().optional() }),
        response: {
          200: envelope(
            z.object({
              voucher_number: z.string(),
              amount: z.number(),
              commission: z.number(),
              amount_to: z.number().describe("What activation credits: amount − commission"),
              currency: z.string(),
              status: z.number(),
              expired_at: z.string(),
            }),
          ),
          ...bearerErrors,
        },
      },
    },
    async (request) => {
      const info = await getVoucherInfo(deps, actorOf(request), {
        voucherNumber: request.query.voucher_number,
        voucherCode: request.query.voucher_code,
      });
      return {
        status: true as const,
        data: {
          voucher_number: info.voucherNumber,
          amount: toNumber(info.amount),
          commission: toNumber(info.commission),
          amount_to: toNumber(info.amountTo),
          currency: info.currency,
          status: info.status,
          expired_at: info.expiredAt,
        },
      };
    },
  );
};
