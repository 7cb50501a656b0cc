import { z } from "zod";

/**
 * Lengths of text inputs, checked by zod before a procedure calls the engine (a longer value is a
 * BAD_REQUEST). An amount is a decimal of at most a few dozen characters; it is never parsed
 * when longer.
 */
export const bounded = {
  amount: z.string().max(40).describe('Exact decimal, e.g. "10.50"'),
  walletNumber: z.string().max(32),
  identifier: z.string().max(128),
  signature: z.string().max(128),
  // Above the contract's 2048, so the engine refuses 2049+ with "This value is not a valid URL."
  // on the field, as REST does; this bound only keeps huge text out.
  url: z.string().max(8192),
  text: z.string().max(1000),
} as const;
