import {
  creditWalletAsOperator,
  operatorMovementContract,
  operatorMovementResultContract,
  operatorReversalContract,
  payOutWalletAsOperator,
  reverseTransactionAsOperator,
  showStatement,
  statementContract,
  statementRequestContract,
} from "@purse/engine";
import { operatorProcedure, userOrOperatorProcedure } from "../trpc.ts";

/** A wallet's statement: the owner's wallets, or any wallet with an operator token. */
export const statement = userOrOperatorProcedure
  .input(statementRequestContract)
  .output(statementContract)
  .query(async ({ ctx, input }) => {
    const found = await showStatement(ctx.deps, ctx.actor, input);
    return { ...found, lines: [...found.lines] };
  });

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
