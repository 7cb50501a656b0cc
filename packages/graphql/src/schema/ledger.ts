import {
  creditWalletAsOperator,
  operatorMovementContract,
  operatorReversalContract,
  PurseError,
  payOutWalletAsOperator,
  reverseTransactionAsOperator,
  type StatementLine,
  showStatement,
  statementRequestContract,
  type WalletStatement,
} from "@purse/engine";
import type { z } from "zod";
import { builder } from "../builder.ts";

const StatementLineRef = builder.objectRef<StatementLine>("StatementLine").implement({
  description: "One movement of the wallet; amounts are exact decimals",
  fields: (t) => ({
    transactionId: t.exposeInt("transactionId"),
    at: t.exposeString("at", { description: "YYYY-MM-DD HH:MM:SS, UTC" }),
    type: t.exposeInt("type"),
    typeName: t.exposeString("typeName"),
    status: t.exposeInt("status"),
    label: t.exposeString("label"),
    description: t.exposeString("description"),
    amount: t.exposeString("amount", { description: "The wallet's change, negative for a debit" }),
    fee: t.exposeString("fee", { description: "The transaction's fee postings" }),
    balanceAfter: t.exposeString("balanceAfter"),
    operator: t.string({ nullable: true, resolve: (line) => line.operator }),
    reversesTransactionId: t.int({ nullable: true, resolve: (line) => line.reversesTransactionId }),
  }),
});

const StatementRef = builder.objectRef<WalletStatement>("Statement").implement({
  description: "Opening balance + the movements = closing balance",
  fields: (t) => ({
    wallet: t.exposeString("wallet"),
    currency: t.exposeString("currency"),
    from: t.exposeString("from"),
    to: t.exposeString("to"),
    openingBalance: t.exposeString("openingBalance"),
    closingBalance: t.exposeString("closingBalance"),
    totalIn: t.exposeString("totalIn"),
    totalOut: t.exposeString("totalOut"),
    lines: t.field({ type: [StatementLineRef], resolve: (statement) => [...statement.lines] }),
  }),
});

const OperatorMovement = builder
  .objectRef<{ transactionId: number; replayed: boolean; operator: string }>("OperatorMovement")
  .implement({
    fields: (t) => ({
      transactionId: t.exposeInt("transactionId"),
      replayed: t.exposeBoolean("replayed", { description: "The key had moved this money already" }),
      operator: t.exposeString("operator", { description: "Recorded on the transaction" }),
    }),
  });

const domainErrors = { types: [PurseError] };

const statement = statementRequestContract.shape;

/** An argument validated and described by its contract field (`{}` for an undescribed one). */
const contractArg = (field: z.ZodType) => ({
  validate: field,
  ...(field.description ? { description: field.description } : {}),
});

builder.queryFields((t) => ({
  statement: t.field({
    type: StatementRef,
    errors: domainErrors,
    authScopes: { user: true, operator: true },
    description: "A wallet's statement: the owner's wallets, or any wallet with an operator token",
    args: {
      wallet: t.arg.string({ required: true, ...contractArg(statement.wallet) }),
      from: t.arg.string({ required: true, ...contractArg(statement.from) }),
      to: t.arg.string(contractArg(statement.to)),
    },
    resolve: async (_root, args, ctx) => showStatement(ctx.deps, await ctx.actor(), args),
  }),
}));

type MutationFieldBuilder = Parameters<Parameters<typeof builder.mutationFields>[0]>[0];

const movement = operatorMovementContract.shape;

const operatorArgs = (t: MutationFieldBuilder) => ({
  key: t.arg.string({ required: true, ...contractArg(movement.key) }),
  note: t.arg.string(contractArg(movement.note)),
});

/** An operator's money movement on one wallet; payout has credit's signature, so one factory serves both. */
function walletMovementField(
  t: MutationFieldBuilder,
  description: string,
  move: typeof creditWalletAsOperator,
) {
  return t.field({
    type: OperatorMovement,
    errors: domainErrors,
    authScopes: { operator: true },
    description,
    args: {
      wallet: t.arg.string({ required: true, ...contractArg(movement.wallet) }),
      amount: t.arg.string({ required: true, ...contractArg(movement.amount) }),
      ...operatorArgs(t),
    },
    resolve: async (_root, args, ctx) => move(ctx.deps, await ctx.actor(), args),
  });
}

builder.mutationFields((t) => ({
  operatorCredit: walletMovementField(
    t,
    "Operator token only: credit a wallet from equity",
    creditWalletAsOperator,
  ),
  operatorPayout: walletMovementField(
    t,
    "Operator token only: pay money out of a wallet (WITHDRAW)",
    payOutWalletAsOperator,
  ),
  reverseTransaction: t.field({
    type: OperatorMovement,
    errors: domainErrors,
    authScopes: { operator: true },
    description: "Operator token only: a compensating transaction linked to the original",
    args: {
      transactionId: t.arg.int({
        required: true,
        ...contractArg(operatorReversalContract.shape.transactionId),
      }),
      ...operatorArgs(t),
    },
    resolve: async (_root, args, ctx) => reverseTransactionAsOperator(ctx.deps, await ctx.actor(), args),
  }),
}));
