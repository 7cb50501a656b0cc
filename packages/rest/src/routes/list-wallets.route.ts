import { walletListOperation } from "@purse/engine";
import { z } from "zod";
import { toNumber } from "../schemas/currency.ts";
import { asJsonNumber } from "../schemas/from-contract.ts";
import { operationRoute } from "./operation-route.ts";

const wallet = walletListOperation.output.element.shape;
const currency = wallet.currency.shape;

/** A wallet's currency as the specification spells it (`precession`, `min_amount`, `max_amount`). */
const walletCurrency = z
  .object({
    id: currency.id,
    code: currency.code,
    name: currency.name,
    rate: asJsonNumber(currency.rate),
    icon: currency.icon,
    precession: currency.precession,
    prefix: currency.prefix,
    min_amount: asJsonNumber(currency.minAmount),
    max_amount: asJsonNumber(currency.maxAmount),
  })
  .meta({ id: "WalletCurrency" });

/**
 * One of the caller's wallets in the specification's names and order (`amountLimit` beside
 * `active_amount`, as clients read them), amounts as JSON numbers, without `userId` (the caller).
 */
const walletSchema = z
  .object({
    id: wallet.id,
    amount: asJsonNumber(wallet.amount),
    amountLimit: asJsonNumber(wallet.amountLimit),
    status: wallet.status,
    number: wallet.number,
    currency: walletCurrency,
    active_amount: asJsonNumber(wallet.activeAmount),
    can_use_for_deposit_api_out: wallet.canUseForDepositApiOut,
    can_use_for_withdraw_api_out: wallet.canUseForWithdrawApiOut,
  })
  .meta({ id: "Wallet" });

/** GET /api/wallets: the caller's wallets (deleted ones left out). */
export const listWalletsRoute = operationRoute(walletListOperation, {
  method: "GET",
  url: "/api/wallets",
  operationId: "listWallets",
  tags: ["Wallets"],
  summary: "The caller's wallets",
  answer: z.array(walletSchema),
  input: () => undefined,
  output: (wallets) =>
    wallets.map((each) => ({
      id: each.id,
      amount: toNumber(each.amount),
      amountLimit: toNumber(each.amountLimit),
      status: each.status,
      number: each.number,
      currency: {
        id: each.currency.id,
        code: each.currency.code,
        name: each.currency.name,
        rate: toNumber(each.currency.rate),
        icon: each.currency.icon,
        precession: each.currency.precession,
        prefix: each.currency.prefix,
        min_amount: toNumber(each.currency.minAmount),
        max_amount: toNumber(each.currency.maxAmount),
      },
      active_amount: toNumber(each.activeAmount),
      can_use_for_deposit_api_out: each.canUseForDepositApiOut,
      can_use_for_withdraw_api_out: each.canUseForWithdrawApiOut,
    })),
  fields: {},
});
