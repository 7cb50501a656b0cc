import {
  creditWalletAsOperator,
  operatorMovementContract,
  operatorReversalContract,
  PurseError,
  payOutWalletAsOperator,
  reverseTransactionAsOperator,
} from "@purse/engine";
import type { z } from "zod";
import { builder } from "../builder.ts";

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

/** An argument validated and described by its contract field (`{}` for an undescribed one). */
const contractArg = (field: z.ZodType) => ({
  validate: field,
  ...(field.description ? { description: field.description } : {}),
});

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
