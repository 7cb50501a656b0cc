import { PurseError, transactionShowOperation } from "@purse/engine";
import { z } from "zod";
import { integerQuery } from "../schemas/common.ts";
import { toNumber } from "../schemas/currency.ts";
import { asJsonNumber, snakeCased, snakeCasedValues } from "../schemas/from-contract.ts";
import { queryNumber, queryText } from "../schemas/query.ts";
import { operationRoute } from "./operation-route.ts";

const asked = transactionShowOperation.input.shape;
const detail = transactionShowOperation.output.shape;
const pay = detail.processingPay.shape;

/** One of the caller's transactions in the specification's names, its payment's amount a JSON number. */
const transactionDetail = z
  .object({
    id: detail.id,
    external_id: detail.externalId,
    amount: detail.amount,
    commission: detail.commission,
    type: detail.type,
    status: detail.status,
    currency: z.object(detail.currency.shape).meta({ id: "DetailCurrency" }),
    processing_pay: z.object({ ...snakeCased(pay), amount: asJsonNumber(pay.amount) }),
    refund_of: detail.refundOf,
    refunded: detail.refunded,
  })
  .meta({ id: "TransactionDetail" });

/**
 * GET /api/transaction/show?id=|external_id=: one of the caller's transactions. The id comes as
 * query text: a text that is no id (`abc`, `0`, `-1`, `1.5`) can match nothing, so it is the
 * lookup's miss, 404 Not found (docs/rest.md), where GraphQL and tRPC, whose ids are typed,
 * refuse it as input.
 */
export const showTransactionRoute = operationRoute(transactionShowOperation, {
  method: "GET",
  url: "/api/transaction/show",
  operationId: "showTransaction",
  tags: ["Transactions"],
  summary: "One transaction by internal id or by your external id",
  query: z.object({
    id: integerQuery(asked.id.description ?? "").optional(),
    external_id: queryText(asked.externalId),
  }),
  answer: transactionDetail,
  input: ({ query }) => {
    const id = queryNumber(query.id);
    if (id !== undefined && !(typeof id === "number" && Number.isSafeInteger(id) && id > 0))
      throw new PurseError("NOT_FOUND");
    return { id, externalId: query.external_id };
  },
  output: (found) => ({
    id: found.id,
    external_id: found.externalId,
    amount: found.amount,
    commission: found.commission,
    type: found.type,
    status: found.status,
    currency: found.currency,
    processing_pay: {
      ...snakeCasedValues(found.processingPay),
      amount: toNumber(found.processingPay.amount),
    },
    refund_of: found.refundOf,
    refunded: found.refunded,
  }),
  fields: { id: "id", externalId: "external_id" },
});
