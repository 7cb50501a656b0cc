import { z } from "zod";
import type { CurrencyView } from "../currency/currency-view.ts";
import type { ContractShape } from "../input/contract-fields.ts";
import type { WalletView } from "./wallet-view.ts";

/** Exact decimal text: amounts never travel as floats (REST turns the ones the spec types as numbers into numbers). */
const decimal = z.string().describe('Exact decimal, e.g. "10.50"');

/** A currency as a wallet carries it (REST's `WalletCurrency`: `precession`, `min_amount`, `max_amount`). */
export const walletCurrencyContract = z.object({
  id: z.number(),
  code: z.string(),
  name: z.string(),
  rate: decimal.describe("Exchange rate (USD per unit)"),
  icon: z.string(),
  precession: z.number().describe("Decimal places (spelled as in the specification)"),
  prefix: z.string(),
  minAmount: decimal.describe("Minimum transaction amount"),
  maxAmount: decimal.describe("Maximum transaction amount"),
} satisfies ContractShape<CurrencyView>);

/**
 * One of the caller's wallets. REST keeps the specification's names (`amountLimit`,
 * `active_amount`, `can_use_for_deposit_api_out`, ...), sends amounts as JSON numbers and leaves
 * out `userId` (always the caller).
 */
export const walletContract = z.object({
  id: z.number(),
  number: z.string(),
  userId: z.number().describe("The owner: always the caller"),
  amount: decimal.describe("Current balance"),
  amountLimit: decimal.describe("The most the wallet may hold"),
  activeAmount: decimal.describe("Usable balance"),
  status: z.number().describe("0 NEW, 1 ACTIVE (deleted wallets are not listed)"),
  canUseForDepositApiOut: z.boolean().describe("Checkouts may pay into it"),
  canUseForWithdrawApiOut: z.boolean().describe("Transfers may leave it"),
  currency: walletCurrencyContract,
} satisfies ContractShape<WalletView>);

/** The caller's wallets (deleted ones left out). */
export const walletListContract = z.array(walletContract);
