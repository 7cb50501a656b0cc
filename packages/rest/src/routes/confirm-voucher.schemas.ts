import { voucherActivationContract, voucherActivationResultContract } from "@purse/engine";
import { z } from "zod";
import { bearerErrors, bodyErrors } from "../schemas/common.ts";
import { optionalParameter, snakeCased } from "../schemas/from-contract.ts";

const { idempotencyKey, ...fields } = voucherActivationContract.shape;

/** The engine's activation contract by REST's names; the Idempotency-Key comes as a header. */
export const confirmVoucherBody = z.object(snakeCased(fields));

export const confirmVoucherHeaders = z.looseObject({ "idempotency-key": optionalParameter(idempotencyKey) });

/** The specification shows no envelope here: `{"message": ...}`. */
export const confirmVoucherResponses = {
  200: voucherActivationResultContract
    .pick({ message: true })
    .describe("Activated (no envelope, as the specification shows)"),
  ...bodyErrors,
  ...bearerErrors,
} as const;
