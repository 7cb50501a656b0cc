import { TransactionStatus } from "../ledger/transaction-codes.ts";

/**
 * The `amount` a transaction is shown with, in minor units: what it moved. A transaction that
 * ended without moving money (a checkout cancelled or expired unpaid is recorded CANCEL or FAIL
 * with no postings) moved nothing, so 0.00: what REST's history (`amount_from`, `amount_to`) and
 * the CSV export have always said for it, now said by the detail (REST `show`, GraphQL, tRPC) and
 * the search too, so Purse gives one amount for it everywhere. What the checkout asked for stays in
 * its payment record (`processing_pay.amount`, as its notification says) and in the checkouts list.
 * The stored `amount_minor` is untouched (the hash chain covers it).
 */
export function movedAmountMinor(status: number, amountMinor: bigint): bigint {
  return status === TransactionStatus.CANCEL || status === TransactionStatus.FAIL ? 0n : amountMinor;
}
