import { z } from "zod";

/** Exact decimal text: amounts never travel as floats. */
export const decimal = z.string().describe('Exact decimal, e.g. "10.50"');
