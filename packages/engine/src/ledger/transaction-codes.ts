/** Numeric codes of the contract ("Numeric codes"); the detail view uses the names. */
export const TransactionType = { TRANSFER: 1, DEPOSIT: 2, WITHDRAW: 3 } as const;
export type TransactionTypeCode = (typeof TransactionType)[keyof typeof TransactionType];

export const TransactionStatus = { PENDING: 1, FAIL: 2, SUCCESS: 3, CANCEL: 4 } as const;
export type TransactionStatusCode = (typeof TransactionStatus)[keyof typeof TransactionStatus];

export function transactionTypeName(code: number): keyof typeof TransactionType {
  return nameOf(TransactionType, code);
}

export function transactionStatusName(code: number): keyof typeof TransactionStatus {
  return nameOf(TransactionStatus, code);
}

function nameOf<K extends string>(table: Record<K, number>, code: number): K {
  const entry = (Object.entries(table) as [K, number][]).find(([, value]) => value === code);
  if (!entry) throw new RangeError(`unknown code ${code}`);
  return entry[0];
}
