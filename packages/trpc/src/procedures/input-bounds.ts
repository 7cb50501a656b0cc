import { z } from "zod";

/**
 * Lengths of the text inputs that have no engine contract yet (the wallet lookup), checked
 * by zod before a procedure calls the engine (a longer value is a BAD_REQUEST); operations with a
 * contract take the contract's bounds.
 */
export const bounded = {
  walletNumber: z.string().max(32),
} as const;
