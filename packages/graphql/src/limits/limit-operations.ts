import { blockFieldSuggestionsPlugin } from "@escape.tech/graphql-armor-block-field-suggestions";
import { costLimitRule } from "@escape.tech/graphql-armor-cost-limit";
import { maxAliasesRule } from "@escape.tech/graphql-armor-max-aliases";
import { maxDepthRule } from "@escape.tech/graphql-armor-max-depth";
import { maxDirectivesRule } from "@escape.tech/graphql-armor-max-directives";
import { authenticate, type EngineDependencies } from "@purse/engine";
import { type DocumentNode, type GraphQLError, Kind, type ValidationContext } from "graphql";
import type { Plugin } from "graphql-yoga";
import { queryLimits, requestRefused } from "./query-limits.ts";

export interface OperationLimitOptions {
  /** Anyone may load the whole schema (the embedded demo); otherwise only authenticated callers. */
  readonly openIntrospection: boolean;
  /** Hide "Did you mean ...?" in validation errors (production). */
  readonly hideSuggestions: boolean;
}

/**
 * Depth, cost, alias and directive limits (graphql-armor's rules) for every operation. The
 * standard introspection query is deeper and costlier than any dashboard query, so for an
 * operation that only introspects, and a caller allowed to introspect, the depth and cost of
 * `__schema` are not counted; every other operation keeps the full limits.
 */
export function limitOperations(deps: EngineDependencies, options: OperationLimitOptions): Plugin {
  const mayIntrospect = new WeakSet<object>();
  const strict = operationRules(false);
  const introspective = operationRules(true);
  // Documents found valid, per kind of caller: yoga's parser cache answers the same document
  // object for the same text, so a dashboard's repeated query is validated once, not per request.
  // Only valid verdicts are kept (an invalid document's errors are shaped by other plugins), and
  // the key is the document object, so the sets hold nothing the parser cache has let go.
  const validFor = { allowed: new WeakSet<DocumentNode>(), refused: new WeakSet<DocumentNode>() };
  return {
    async onParams({ params, request }) {
      if (options.openIntrospection || !params.query?.includes("__schema")) return;
      const token = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.get("authorization") ?? "")?.[1] ?? null;
      if (token === null) return;
      const caller = await authenticate(deps, token).catch(() => null);
      if (caller) mayIntrospect.add(request);
    },
    onValidate({ addValidationRule, context, params, setResult }) {
      const request = (context as { request?: object }).request;
      const allowed = options.openIntrospection || (request !== undefined && mayIntrospect.has(request));
      const document = params.documentAST;
      const known = allowed ? validFor.allowed : validFor.refused;
      if (known.has(document)) {
        setResult([]);
        return;
      }
      const introspectionOnly = onlyIntrospects(document);
      for (const rule of allowed && introspectionOnly ? introspective : strict) addValidationRule(rule);
      return ({ valid, result, setResult }) => {
        if (valid) known.add(document);
        else if (introspectionOnly && !allowed) setResult([...result, introspectionHint()]);
      };
    },
    ...(options.hideSuggestions ? { onPluginInit: ({ addPlugin }) => addPlugin(hiddenSuggestions) } : {}),
  };
}

const hiddenSuggestions: Plugin = blockFieldSuggestionsPlugin({ mask: "" }) as Plugin;

function operationRules(ignoreIntrospection: boolean) {
  // Reported as ordinary validation errors (HTTP 400), without armor's misleading "Syntax Error:".
  const report = {
    propagateOnRejection: false,
    onReject: [
      (context: ValidationContext | null, error: GraphQLError) =>
        context?.reportError(requestRefused(error.message.replace(/^Syntax Error: /, ""), "QUERY_LIMIT")),
    ],
  };
  return [
    maxDepthRule({ n: queryLimits.maxDepth, ignoreIntrospection, ...report }),
    costLimitRule({ maxCost: queryLimits.maxCost, ignoreIntrospection, ...report }),
    maxAliasesRule({ n: queryLimits.maxAliases, ...report }),
    maxDirectivesRule({ n: queryLimits.maxDirectives, ...report }),
  ];
}

/** Tells a caller refused for introspecting what would let it in. */
function introspectionHint(): GraphQLError {
  return requestRefused("Introspection of the whole schema needs a bearer token.", "QUERY_LIMIT");
}

/** Every operation selects only `__schema`, `__type` or `__typename` at its root. */
function onlyIntrospects(document: DocumentNode): boolean {
  const operations = document.definitions.filter(
    (definition) => definition.kind === Kind.OPERATION_DEFINITION,
  );
  return (
    operations.length > 0 &&
    operations.every((operation) =>
      operation.selectionSet.selections.every(
        (selection) => selection.kind === Kind.FIELD && selection.name.value.startsWith("__"),
      ),
    )
  );
}
