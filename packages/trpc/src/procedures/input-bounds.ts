import { z } from "zod";

/**
 * Lengths of the text inputs that have no engine contract yet (lookups and the search), checked
 * by zod before a procedure calls the engine (a longer value is a BAD_REQUEST); operations with a
 * contract take the contract's bounds. An amount is a decimal of at most a few dozen characters;
 * it is never parsed when longer.
 */
export const bounded = {
  amount: z.string().max(40).describe('Exact decimal, e.g. "10.50"'),
  walletNumber: z.string().max(32),
} as const;
