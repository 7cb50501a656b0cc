import {
  loadWalletSummaries,
  searchTransactions,
  type TransactionNode,
  type TransactionTotal,
  transactionSearchContract,
  type WalletSummary,
} from "@purse/engine";
import { GraphQLError } from "graphql";
import { builder } from "../builder.ts";
import { bounded } from "../limits/input-bounds.ts";
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
    ...(await loadWalletSummaries(ctx.deps, await ctx.actor(), ids)).values(),
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

const TransactionEdge = builder
  .objectRef<{ cursor: string; node: TransactionNode }>("TransactionEdge")
  .implement({
    fields: (t) => ({
      cursor: t.exposeString("cursor"),
      node: t.field({ type: Transaction, resolve: (edge) => edge.node }),
    }),
  });

const PageInfo = builder.objectRef<{ hasNextPage: boolean; endCursor: string | null }>("PageInfo").implement({
  fields: (t) => ({
    hasNextPage: t.exposeBoolean("hasNextPage"),
    endCursor: t.exposeString("endCursor", { nullable: true }),
  }),
});

const CurrencyTotal = builder.objectRef<TransactionTotal>("CurrencyTotal").implement({
  description: "Count and sums over the whole filtered set, per currency",
  fields: (t) => ({
    currency: t.exposeString("currency"),
    count: t.exposeInt("count"),
    amount: t.exposeString("amount"),
    commission: t.exposeString("commission"),
  }),
});

const TransactionConnection = builder
  .objectRef<{
    edges: { cursor: string; node: TransactionNode }[];
    pageInfo: { hasNextPage: boolean; endCursor: string | null };
    totals: TransactionTotal[];
  }>("TransactionConnection")
  .implement({
    fields: (t) => ({
      edges: t.field({ type: [TransactionEdge], resolve: (connection) => connection.edges }),
      pageInfo: t.field({ type: PageInfo, resolve: (connection) => connection.pageInfo }),
      totals: t.field({ type: [CurrencyTotal], resolve: (connection) => connection.totals }),
    }),
  });

const search = transactionSearchContract.shape;
const described = (field: { description?: string | undefined }) =>
  field.description ? { description: field.description } : {};

/** The engine's search contract: each field validated by it (enums as GraphQL enums). */
const TransactionFilter = builder.inputType("TransactionFilter", {
  fields: (t) => ({
    from: t.string({ ...described(search.from), validate: search.from }),
    until: t.string({ ...described(search.until), validate: search.until }),
    walletNumber: t.string({ validate: search.walletNumber }),
    type: t.field({ type: TransactionType }),
    status: t.field({ type: TransactionStatus }),
    minAmount: t.string({ ...described(search.minAmount), validate: search.minAmount }),
    maxAmount: t.string({ validate: search.maxAmount }),
  }),
});

const encodeCursor = (id: number) => Buffer.from(`tx:${id}`).toString("base64url");
function decodeCursor(cursor: string | null | undefined): number | null {
  if (!cursor) return null;
  const match = /^tx:(\d+)$/.exec(Buffer.from(cursor, "base64url").toString("utf8"));
  if (!match?.[1]) throw new GraphQLError("Invalid cursor", { extensions: { code: "BAD_USER_INPUT" } });
  return Number(match[1]);
}

builder.queryFields((t) => ({
  transactions: t.field({
    type: TransactionConnection,
    authScopes: { merchant: true },
    description: "The caller's transactions, newest first (merchants only, as REST history)",
    args: {
      first: t.arg.int({ defaultValue: 20 }),
      after: t.arg.string({ validate: bounded.cursor }),
      filter: t.arg({ type: TransactionFilter }),
    },
    resolve: async (_root, args, ctx) => {
      const filter = args.filter ?? {};
      const page = await searchTransactions(ctx.deps, await ctx.actor(), filter, {
        first: args.first ?? 20,
        afterId: decodeCursor(args.after),
      });
      const edges = page.nodes.map((node) => ({ cursor: encodeCursor(node.id), node }));
      return {
        edges,
        pageInfo: { hasNextPage: page.hasNextPage, endCursor: edges.at(-1)?.cursor ?? null },
        totals: page.totals,
      };
    },
  }),
}));
