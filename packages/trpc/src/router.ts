import { operations } from "@purse/engine";
import { proceduresOf } from "./procedures/declared.ts";
import { transactionUpdated } from "./procedures/live.ts";
import { router } from "./trpc.ts";

/**
 * The typed API for front ends: each of the engine's operations (`operations`) under its own
 * name (the declaration says the rest: kind, scope, contracts, run), and the live updates.
 * REST's own (the page-numbered history, the hosted page's pay call) and the dashboard's
 * session-only operations are not in that record. `AppRouter` is what TypeScript infers from it.
 */
export const appRouter = router({
  ...proceduresOf(operations),
  transactionUpdated,
});

export type AppRouter = typeof appRouter;
