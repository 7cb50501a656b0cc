import { Lexer, Source, TokenKind } from "graphql";
import { queryLimits, requestRefused } from "./query-limits.ts";

const opening = new Set<string>([TokenKind.BRACE_L, TokenKind.BRACKET_L, TokenKind.PAREN_L]);
const closing = new Set<string>([TokenKind.BRACE_R, TokenKind.BRACKET_R, TokenKind.PAREN_R]);

/**
 * Counts tokens, nesting and string lengths in one flat loop over the lexer, before the parser
 * runs. The parser is recursive descent: counting tokens while it parses (graphql-armor's
 * max-tokens) lets a list literal nested 2 000 deep recurse 2 000 frames before the count is
 * reached, and overflows the stack. Here nothing recurses, so the refusal comes first.
 */
export function scanDocument(text: string): void {
  const lexer = new Lexer(new Source(text));
  let tokens = 0;
  let nesting = 0;
  for (let token = lexer.advance(); token.kind !== TokenKind.EOF; token = lexer.advance()) {
    tokens += 1;
    if (tokens > queryLimits.maxTokens) {
      throw requestRefused(`Token limit of ${queryLimits.maxTokens} exceeded.`, "QUERY_TOO_LARGE");
    }
    if (opening.has(token.kind)) {
      nesting += 1;
      if (nesting > queryLimits.maxNesting) {
        throw requestRefused(`Nesting limit of ${queryLimits.maxNesting} exceeded.`, "QUERY_TOO_DEEP");
      }
    } else if (closing.has(token.kind)) {
      nesting -= 1;
    } else if (
      (token.kind === TokenKind.STRING || token.kind === TokenKind.BLOCK_STRING) &&
      (token.value?.length ?? 0) > queryLimits.maxStringLength
    ) {
      throw requestRefused(`String longer than ${queryLimits.maxStringLength} characters.`, "BAD_USER_INPUT");
    }
  }
}
