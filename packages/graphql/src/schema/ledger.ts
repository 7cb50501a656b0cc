import {
  creditWallet,
  isOperator,
  operatorOf,
  PurseError,
  payOutWallet,
  requireAccess,
  reverseTransaction,
  type StatementLine,
  statementBound,
  type WalletStatement,
  walletStatement,
} from "@purse/engine";
import { builder } from "../builder.ts";
import { bounded } from "../limits/input-bounds.ts";

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

builder.queryFields((t) => ({
  statement: t.field({
    type: StatementRef,
    errors: domainErrors,
    description: "A wallet's statement: the owner's wallets, or any wallet with an operator token",
    args: {
      wallet: t.arg.string({ required: true, validate: bounded.walletNumber }),
      from: t.arg.string({ required: true, validate: bounded.date }),
      to: t.arg.string({ validate: bounded.date, description: "Default: now" }),
    },
    resolve: async (_root, args, ctx) => {
      const actor = await ctx.actor();
      const operator = isOperator(actor);
      if (!operator) requireAccess(actor);
      return walletStatement(ctx.deps.db, {
        number: args.wallet,
        from: statementBound(args.from, "from", false),
        to: args.to ? statementBound(args.to, "to", true) : ctx.deps.now(),
        ...(operator ? {} : { ownerId: actor.userId }),
      });
    },
  }),
}));

type MutationFieldBuilder = Parameters<Parameters<typeof builder.mutationFields>[0]>[0];

const operatorArgs = (t: MutationFieldBuilder) => ({
  key: t.arg.string({ required: true, validate: bounded.identifier, description: "Idempotency key" }),
  note: t.arg.string({ validate: bounded.text }),
});

/**
 * An operator's money movement on one wallet (credit from equity, payout to the outside world):
 * the same arguments, the operator from the token, the note defaulted, the result attributed.
 * Payout has credit's signature, so one factory serves both.
 */
function walletMovementField(
  t: MutationFieldBuilder,
  description: string,
  defaultNote: string,
  move: typeof creditWallet,
) {
  return t.field({
    type: OperatorMovement,
    errors: domainErrors,
    description,
    args: {
      wallet: t.arg.string({ required: true, validate: bounded.walletNumber }),
      amount: t.arg.string({ required: true, validate: bounded.amount }),
      ...operatorArgs(t),
    },
    resolve: async (_root, args, ctx) => {
      const operator = operatorOf(await ctx.actor());
      const done = await move(ctx.deps, {
        number: args.wallet,
        amount: args.amount,
        note: args.note ?? defaultNote,
        key: args.key,
        operator,
      });
      return { ...done, operator };
    },
  });
}

builder.mutationFields((t) => ({
  operatorCredit: walletMovementField(
    t,
    "Operator token only: credit a wallet from equity",
    "Operator credit",
    creditWallet,
  ),
  operatorPayout: walletMovementField(
    t,
    "Operator token only: pay money out of a wallet (WITHDRAW)",
    "Operator payout",
    payOutWallet,
  ),
  reverseTransaction: t.field({
    type: OperatorMovement,
    errors: domainErrors,
    description: "Operator token only: a compensating transaction linked to the original",
    args: { transactionId: t.arg.int({ required: true }), ...operatorArgs(t) },
    resolve: async (_root, args, ctx) => {
      const operator = operatorOf(await ctx.actor());
      const done = await reverseTransaction(ctx.deps, {
        transactionId: args.transactionId,
        note: args.note ?? `Reversal of transaction ${args.transactionId}`,
        key: args.key,
        operator,
      });
      return { ...done, operator };
    },
  }),
}));
