/** Wallet status codes of the contract: NEW and DELETED are inactive. */
export const WalletStatus = { NEW: 0, ACTIVE: 1, DELETED: 2 } as const;
export type WalletStatusName = keyof typeof WalletStatus;
export type WalletStatusCode = (typeof WalletStatus)[WalletStatusName];

export function walletStatusName(code: number): WalletStatusName {
  if (code === WalletStatus.NEW) return "NEW";
  if (code === WalletStatus.ACTIVE) return "ACTIVE";
  if (code === WalletStatus.DELETED) return "DELETED";
  throw new RangeError(`unknown wallet status ${code}`);
}
