import { operations } from "@purse/engine";
import { declaredProcedures } from "./procedures/declared.ts";
import { transactionUpdated } from "./procedures/live.ts";
import {
  operatorCredit,
  operatorPayout,
  reverseTransactionProcedure,
  statement,
} from "./procedures/operator.ts";
import { router } from "./trpc.ts";

/** The typed API for front ends: the engine's operations with zod input and output. */
export const appRouter = router({
  // The operations declared once in the engine (`@purse/engine`'s `operations`: wallets, a wallet,
  // me, currencies, profile, vouchers, a transaction, voucher purchase and activation, the
  // transfer, the transaction search).
  ...declaredProcedures(operations),
  transactionUpdated,
  statement,
  operatorCredit,
  operatorPayout,
  reverseTransaction: reverseTransactionProcedure,
});

export type AppRouter = typeof appRouter;
