import { type ParseOptions, parse, type Source } from "graphql";
import type { Plugin } from "graphql-yoga";
import { checkVariables } from "./check-variables.ts";
import { keepRequestErrorStatus, queryLimits, requestRefused } from "./query-limits.ts";
import { scanDocument } from "./scan-document.ts";

/**
 * Bounds a request before any expensive work: variables before coercion, the document in a flat
 * lexer pass before the (recursive) parser, then graphql-js's own token limit as a second guard.
 */
export function boundRequests(): Plugin {
  return {
    onParams({ params }) {
      checkParams(params);
    },
    onParse({ setParseFn }) {
      setParseFn(boundedParse);
    },
    onResultProcess({ result }) {
      if (!Array.isArray(result) && "errors" in result) keepRequestErrorStatus(result.errors);
    },
  };
}

/** The request's own fields, before any parsing: also run on a WebSocket's subscribe message. */
export function checkParams(params: { readonly query?: unknown; readonly variables?: unknown }): void {
  // Yoga hands any JSON value on to the parser: `{"query": 123}` reached it as a number and
  // failed there as an internal error instead of the client's mistake it is.
  if (params.query !== undefined && typeof params.query !== "string") {
    throw requestRefused("The query must be a string holding a GraphQL document.");
  }
  if (typeof params.query === "string" && params.query.length > queryLimits.maxBodyBytes) {
    throw requestRefused("Query text is too long.", "QUERY_TOO_LARGE");
  }
  checkVariables(params.variables);
}

function boundedParse(source: string | Source, options?: ParseOptions) {
  scanDocument(typeof source === "string" ? source : source.body);
  return parse(source, { ...options, maxTokens: queryLimits.maxTokens });
}
