import { loadWalletSummaries, type TransactionNode, type WalletSummary } from "@purse/engine";
import { builder } from "../builder.ts";
import { Currency } from "./currency.ts";

export const TransactionType = builder.enumType("TransactionType", {
  values: ["TRANSFER", "DEPOSIT", "WITHDRAW"] as const,
});
export const TransactionStatus = builder.enumType("TransactionStatus", {
  values: ["PENDING", "FAIL", "SUCCESS", "CANCEL"] as const,
});

/** Loaded by id, all of a page's wallets in one query (the plugin keeps one loader per request). */
const WalletRef = builder.loadableObject("WalletRef", {
  description: "A wallet a transaction touched (the other party's too: number and currency only)",
  load: async (ids: number[], ctx) => [
    ...(
      await (async () => {
        const { deps, actor } = await ctx.caller();
        return loadWalletSummaries(deps, actor, ids);
      })()
    ).values(),
  ],
  sort: (wallet: WalletSummary) => wallet.id,
  fields: (t) => ({
    id: t.exposeInt("id"),
    number: t.exposeString("number"),
    ownedByMe: t.exposeBoolean("ownedByCaller"),
    currency: t.field({
      type: Currency,
      nullable: true,
      resolve: (wallet) => wallet.currencyId,
    }),
  }),
});

/**
 * A transaction as the search lists it (the declared `transactions` connection's node): its
 * currency and wallets by batched loaders, one query each per page.
 */
export const Transaction = builder.objectRef<TransactionNode>("Transaction").implement({
  fields: (t) => ({
    id: t.exposeInt("id"),
    externalId: t.exposeString("externalId", { nullable: true }),
    type: t.field({ type: TransactionType, resolve: (tx) => tx.type }),
    status: t.field({ type: TransactionStatus, resolve: (tx) => tx.status }),
    label: t.exposeString("label"),
    amount: t.exposeString("amount"),
    commission: t.exposeString("commission"),
    amountFrom: t.exposeString("amountFrom"),
    amountTo: t.exposeString("amountTo"),
    description: t.exposeString("description"),
    refundOf: t.exposeInt("refundOf", {
      nullable: true,
      description: "A refund's checkout transaction id; null for anything else",
    }),
    createdAt: t.exposeString("createdAt", { description: "ISO 8601, UTC" }),
    currency: t.field({
      type: Currency,
      nullable: true,
      resolve: (tx) => tx.currencyId,
    }),
    walletFrom: t.field({
      type: WalletRef,
      nullable: true,
      resolve: (tx) => tx.walletFromId,
    }),
    walletTo: t.field({
      type: WalletRef,
      nullable: true,
      resolve: (tx) => tx.walletToId,
    }),
  }),
});
