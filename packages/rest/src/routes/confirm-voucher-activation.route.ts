import { voucherActivationOperation } from "@purse/engine";
import { z } from "zod";
import { demoValues } from "../http/openapi-examples.ts";
import { idempotencyHeaders, snakeCased } from "../schemas/from-contract.ts";
import { operationRoute } from "./operation-route.ts";

const { idempotencyKey, ...sent } = voucherActivationOperation.input.shape;

/**
 * POST /api/vouchers/activation/confirm: a voucher credited, less its commission, to one of the
 * caller's USD wallets. The specification shows `{"message": ...}` here: no envelope, no
 * transaction id.
 */
export const confirmVoucherActivationRoute = operationRoute(voucherActivationOperation, {
  method: "POST",
  url: "/api/vouchers/activation/confirm",
  operationId: "confirmVoucherActivation",
  tags: ["Vouchers"],
  summary: "Activate a voucher into one of the caller's USD wallets",
  headers: idempotencyHeaders(idempotencyKey),
  body: z.object(snakeCased(sent)),
  example: {
    voucher_number: "V-0001",
    voucher_code: "1111-2222-3333",
    wallet_to: demoValues.merchantWallet,
    additional: "",
  },
  answer: z.object({ message: voucherActivationOperation.output.shape.message }),
  bare: true,
  answerDescription: "Activated (no envelope, as the specification shows)",
  input: ({ body, headers }) => ({
    voucherNumber: body.voucher_number,
    voucherCode: body.voucher_code,
    walletTo: body.wallet_to,
    additional: body.additional,
    idempotencyKey: headers["idempotency-key"],
  }),
  output: ({ message }) => ({ message }),
  fields: {
    voucherNumber: "voucher_number",
    voucherCode: "voucher_code",
    walletTo: "wallet_to",
    additional: "additional",
    idempotencyKey: "Idempotency-Key",
  },
});
