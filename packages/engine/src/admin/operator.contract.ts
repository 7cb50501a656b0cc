import { z } from "zod";
import { amountText, boundedText, type ContractShape, optionalText } from "../input/contract-fields.ts";
import { inputBounds } from "../input/input-bounds.ts";
import type { WalletStatement } from "../transactions/wallet-statement.ts";
import type {
  AttributedMovement,
  OperatorMovementRequest,
  OperatorReversalRequest,
  StatementRequest,
} from "./operator-api.ts";

/**
 * The operator verbs over the API (operator tokens only) and the statement, as GraphQL and tRPC
 * take them: the same names, bounds and descriptions on both doors.
 */
const operatorFields = {
  key: boundedText(inputBounds.idempotencyKey).describe(
    "Idempotency key, unique across operator movements: the same key and request replay the first",
  ),
  note: optionalText(inputBounds.operatorNote).describe("Recorded as the transaction's description"),
};

/** Credit a wallet from equity, or pay money out of it: one wallet, one amount. */
export const operatorMovementContract = z.object({
  wallet: boundedText(inputBounds.walletNumber).describe("Wallet number"),
  amount: amountText.describe('Exact decimal, e.g. "10.50"'),
  ...operatorFields,
} satisfies ContractShape<OperatorMovementRequest>);

/** A compensating transaction for one transaction, linked to it. */
export const operatorReversalContract = z.object({
  transactionId: z.number().int().describe("The transaction to reverse"),
  ...operatorFields,
} satisfies ContractShape<OperatorReversalRequest>);

export const operatorMovementResultContract = z.object({
  transactionId: z.number().describe("The operator's transaction"),
  replayed: z.boolean().describe("The key had moved this money already"),
  operator: z.string().describe("Recorded on the transaction"),
} satisfies ContractShape<AttributedMovement>);

/** A wallet's statement: the owner's wallets, or any wallet with an operator token. */
export const statementRequestContract = z.object({
  wallet: boundedText(inputBounds.walletNumber).describe("Wallet number"),
  from: boundedText(inputBounds.queryValue).describe("Start of the period: a date or an instant, UTC"),
  to: boundedText(inputBounds.queryValue)
    .nullish()
    .describe("End of the period: a date (included) or an instant (excluded), UTC; default: now"),
} satisfies ContractShape<StatementRequest>);

const statementLineContract = z
  .object({
    transactionId: z.number(),
    at: z.string().describe("YYYY-MM-DD HH:MM:SS, UTC"),
    type: z.number(),
    typeName: z.string(),
    status: z.number(),
    label: z.string(),
    description: z.string(),
    amount: z.string().describe("The wallet's change, negative for a debit"),
    fee: z.string().describe("The transaction's fee postings"),
    balanceAfter: z.string(),
    operator: z.string().nullable(),
    reversesTransactionId: z.number().nullable(),
  })
  .describe("One movement of the wallet; amounts are exact decimals");

/** Opening balance + the movements = closing balance; amounts are exact decimals. */
export const statementContract = z
  .object({
    wallet: z.string(),
    currency: z.string(),
    from: z.string(),
    to: z.string(),
    openingBalance: z.string(),
    closingBalance: z.string(),
    totalIn: z.string(),
    totalOut: z.string(),
    lines: z.array(statementLineContract),
  } satisfies ContractShape<WalletStatement>)
  .describe("Opening balance + the movements = closing balance");
