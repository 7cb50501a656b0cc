import { operations } from "@purse/engine";
import { declaredProcedures } from "./procedures/declared.ts";
import { transactionUpdated } from "./procedures/live.ts";
import { router } from "./trpc.ts";

/** The typed API for front ends: the engine's operations with zod input and output. */
export const appRouter = router({
  // The operations declared once in the engine (`@purse/engine`'s `operations`: wallets, a wallet,
  // me, currencies, rates, profile, vouchers, a transaction, voucher purchase, activation and info,
  // the transfer, the transaction search, the statement, the operator verbs and the checkout list).
  ...declaredProcedures(operations),
  transactionUpdated,
});

export type AppRouter = typeof appRouter;
