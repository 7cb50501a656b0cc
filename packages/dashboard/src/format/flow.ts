import { groupDigits } from "./amount.ts";

/** A transaction's two sides as the dashboard reads them: whose wallet, and what moved. */
export interface Sides {
  readonly amountFrom: string;
  readonly amountTo: string;
  readonly walletFrom: { readonly ownedByMe: boolean } | null;
  readonly walletTo: { readonly ownedByMe: boolean } | null;
}

const zero = /^0+(\.0+)?$/;

/**
 * What a transaction did to the signed-in user's money, with its direction: "-10.20" out of one
 * of their wallets (`amountFrom`, what the sender paid, its fee included), "+10.00" into one
 * (`amountTo`), both for a move between two of their own wallets. The figures are the ones REST's
 * history and the CSV export give for the row (amount_from, amount_to): nothing moved, "0.00".
 * Text only: a decimal is never turned into a number.
 */
export function signedAmounts(sides: Sides): string[] {
  const out = sides.walletFrom?.ownedByMe && !zero.test(sides.amountFrom);
  const into = sides.walletTo?.ownedByMe && !zero.test(sides.amountTo);
  const parts: string[] = [];
  if (out) parts.push(`-${groupDigits(sides.amountFrom)}`);
  if (into) parts.push(`+${groupDigits(sides.amountTo)}`);
  if (parts.length > 0) return parts;
  // Nothing moved (an unpaid checkout), or neither side is the user's: the amount as it is.
  return [groupDigits(sides.walletTo?.ownedByMe ? sides.amountTo : sides.amountFrom)];
}

/** "in", "out", "both" or "none": how a row is marked beside its sign (a colour is never the only cue). */
export function direction(parts: readonly string[]): "in" | "out" | "both" | "none" {
  const hasOut = parts.some((part) => part.startsWith("-"));
  const hasIn = parts.some((part) => part.startsWith("+"));
  if (hasOut && hasIn) return "both";
  if (hasOut) return "out";
  return hasIn ? "in" : "none";
}

/** A signed decimal for reading: "+1,234.50" / "-12.00" / "0.00" (zero has no sign). */
export function signedTotal(amount: string): string {
  const negative = amount.startsWith("-");
  const magnitude = negative ? amount.slice(1) : amount;
  if (zero.test(magnitude)) return groupDigits(magnitude);
  return `${negative ? "-" : "+"}${groupDigits(magnitude)}`;
}
