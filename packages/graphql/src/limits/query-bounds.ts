/**
 * The GraphQL door's address and bounds, importable without loading GraphQL itself: the door's
 * mount (http/mount-graphql.ts) runs at start and loads yoga, Pothos and the schema only on the
 * first request.
 */
export const graphqlPath = "/graphql";

/**
 * Every bound the GraphQL door applies, sized to the largest legal request: a dashboard page of
 * transactions with its filter, or a mutation with a 1 000-character description. Anything past
 * these is refused with a 400 before the engine is called.
 */
export const queryLimits = {
  /** Request body, bytes (the largest legal document plus variables is well under 16 KiB). */
  maxBodyBytes: 64 * 1024,
  /** Lexical tokens per document, counted by a flat loop before the recursive parser runs. */
  maxTokens: 2_000,
  /** Nesting of `{`, `[` and `(` in the document: selections and input values alike. */
  maxNesting: 16,
  /** Characters in one string literal of the document, and in one string variable. */
  maxStringLength: 2_048,
  /** Nesting of objects and arrays in `variables`. */
  maxVariableDepth: 8,
  maxDepth: 10,
  maxCost: 20_000,
  maxAliases: 15,
  maxDirectives: 20,
} as const;
