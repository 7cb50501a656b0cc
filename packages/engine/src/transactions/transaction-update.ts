import type { TransactionEvent } from "../events/transaction-event-types.ts";
import { transactionStatusName, transactionTypeName } from "../ledger/transaction-codes.ts";

/**
 * A subscription's event as GraphQL and tRPC hand it over: type and status by name, as their
 * queries give them (contract: "Enum names"); the bus itself carries the numeric codes.
 */
export interface TransactionUpdate {
  readonly transactionId: number;
  readonly type: "TRANSFER" | "DEPOSIT" | "WITHDRAW";
  readonly status: "PENDING" | "FAIL" | "SUCCESS" | "CANCEL";
  /** When the change committed, ISO 8601 UTC. */
  readonly at: string;
}

export function transactionUpdate(event: TransactionEvent): TransactionUpdate {
  return {
    transactionId: event.transactionId,
    type: transactionTypeName(event.type),
    status: transactionStatusName(event.status),
    at: event.at,
  };
}
