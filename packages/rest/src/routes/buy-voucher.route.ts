import { voucherPurchaseOperation } from "@purse/engine";
import { z } from "zod";
import { demoValues } from "../http/openapi-examples.ts";
import { amountInput } from "../schemas/common.ts";
import { idempotencyHeaders } from "../schemas/from-contract.ts";
import { operationRoute } from "./operation-route.ts";
import { purchasedVoucher, purchasedVoucherOf } from "./purchased-voucher.wire.ts";

const sent = voucherPurchaseOperation.input.shape;

/**
 * POST /api/vouchers/buy: a voucher bought from one of the caller's USD wallets; also under
 * /api/vouchers/confirm, the name one version of the client library calls it by.
 */
export const buyVoucherRoute = operationRoute(voucherPurchaseOperation, {
  method: "POST",
  url: "/api/vouchers/buy",
  operationId: "buyVoucher",
  tags: ["Vouchers"],
  summary: "Buy a voucher from one of the caller's USD wallets",
  aliases: [
    {
      url: "/api/vouchers/confirm",
      operationId: "buyVoucherByConfirm",
      summary: "Buy a voucher (the same as POST /api/vouchers/buy, under the name some clients call)",
    },
  ],
  headers: idempotencyHeaders(sent.idempotencyKey),
  body: z.object({ amount: amountInput, wallet_from: sent.walletFrom, additional: sent.additional }),
  example: { amount: "25.00", wallet_from: demoValues.partnerWallet, additional: "" },
  answer: purchasedVoucher,
  input: ({ body, headers }) => ({
    amount: body.amount,
    walletFrom: body.wallet_from,
    additional: body.additional,
    idempotencyKey: headers["idempotency-key"],
  }),
  output: purchasedVoucherOf,
  fields: {
    amount: "amount",
    walletFrom: "wallet_from",
    additional: "additional",
    idempotencyKey: "Idempotency-Key",
  },
});
