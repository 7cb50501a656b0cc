import {
  type CurrencyView,
  getProfile,
  listRates,
  listWallets,
  loadCurrencies,
  type RateView,
  type walletContract,
} from "@purse/engine";
import type { z } from "zod";
import { builder } from "../builder.ts";
import { bounded } from "../limits/input-bounds.ts";

/**
 * A field may resolve to a currency or to its id: ids are loaded in one query per request
 * (a page of transactions asks for all its currencies at once); unknown ids give null.
 */
export const Currency = builder.loadableObject("Currency", {
  load: async (ids: number[], ctx) => [...(await loadCurrencies(ctx.deps, ids)).values()],
  sort: (currency: CurrencyView) => currency.id,
  fields: (t) => ({
    id: t.exposeInt("id"),
    code: t.exposeString("code"),
    name: t.exposeString("name"),
    rate: t.exposeString("rate", { description: "Exchange rate (USD per unit), exact decimal" }),
    prefix: t.exposeString("prefix"),
    icon: t.exposeString("icon"),
    precession: t.exposeInt("precession"),
    minAmount: t.exposeString("minAmount"),
    maxAmount: t.exposeString("maxAmount"),
  }),
});

/**
 * Typed by the engine's `walletContract` (and `Currency` by its `walletCurrencyContract`); fields
 * declared here for the published descriptions; `userId` is not published on GraphQL.
 */
export const Wallet = builder.objectRef<z.output<typeof walletContract>>("Wallet").implement({
  fields: (t) => ({
    id: t.exposeInt("id"),
    number: t.exposeString("number"),
    amount: t.exposeString("amount", { description: "Balance, exact decimal" }),
    amountLimit: t.exposeString("amountLimit"),
    activeAmount: t.exposeString("activeAmount"),
    status: t.int({ resolve: (wallet) => wallet.status, description: "0 NEW, 1 ACTIVE, 2 DELETED" }),
    canUseForDepositApiOut: t.exposeBoolean("canUseForDepositApiOut"),
    canUseForWithdrawApiOut: t.exposeBoolean("canUseForWithdrawApiOut"),
    currency: t.field({ type: Currency, resolve: (wallet) => wallet.currency }),
  }),
});

const Rate = builder.objectRef<RateView>("Rate").implement({
  fields: (t) => ({
    name: t.exposeString("name"),
    group: t.exposeString("group"),
    value: t.exposeString("value"),
  }),
});

const Me = builder.objectRef<{ id: number; name: string; role: string; blocked: boolean }>("Me").implement({
  fields: (t) => ({
    id: t.exposeInt("id"),
    name: t.exposeString("name"),
    role: t.exposeString("role"),
    blocked: t.exposeBoolean("blocked"),
  }),
});

builder.queryFields((t) => ({
  me: t.field({
    type: Me,
    authScopes: { user: true },
    resolve: async (_root, _args, ctx) => getProfile(ctx.deps, await ctx.actor()),
  }),
  wallets: t.field({
    type: [Wallet],
    authScopes: { user: true },
    resolve: async (_root, _args, ctx) => listWallets(ctx.deps, await ctx.actor()),
  }),
  wallet: t.field({
    type: Wallet,
    nullable: true,
    authScopes: { user: true },
    args: { number: t.arg.string({ required: true, validate: bounded.walletNumber }) },
    resolve: async (_root, { number }, ctx) =>
      (await listWallets(ctx.deps, await ctx.actor())).find((wallet) => wallet.number === number) ?? null,
  }),
  rates: t.field({ type: [Rate], resolve: (_root, _args, ctx) => listRates(ctx.deps) }),
}));
