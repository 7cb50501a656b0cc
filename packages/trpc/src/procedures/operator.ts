import {
  creditWalletAsOperator,
  operatorMovementContract,
  operatorMovementResultContract,
  operatorReversalContract,
  payOutWalletAsOperator,
  reverseTransactionAsOperator,
} from "@purse/engine";
import { operatorProcedure } from "../trpc.ts";

/** Operator token only: credit a wallet from equity (DEPOSIT). */
export const operatorCredit = operatorProcedure
  .input(operatorMovementContract)
  .output(operatorMovementResultContract)
  .mutation(({ ctx, input }) => creditWalletAsOperator(ctx.deps, ctx.actor, input));

/** Operator token only: pay money out of a wallet (WITHDRAW). */
export const operatorPayout = operatorProcedure
  .input(operatorMovementContract)
  .output(operatorMovementResultContract)
  .mutation(({ ctx, input }) => payOutWalletAsOperator(ctx.deps, ctx.actor, input));

/** Operator token only: a compensating transaction linked to the original. */
export const reverseTransactionProcedure = operatorProcedure
  .input(operatorReversalContract)
  .output(operatorMovementResultContract)
  .mutation(({ ctx, input }) => reverseTransactionAsOperator(ctx.deps, ctx.actor, input));
