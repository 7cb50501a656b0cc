import { costLimitRule } from "@escape.tech/graphql-armor-cost-limit";
import { maxAliasesRule } from "@escape.tech/graphql-armor-max-aliases";
import { maxDepthRule } from "@escape.tech/graphql-armor-max-depth";
import { maxDirectivesRule } from "@escape.tech/graphql-armor-max-directives";
import { type EngineDependencies, resolveCaller } from "@purse/engine";
import { type ASTVisitor, type DocumentNode, GraphQLError, Kind, type ValidationContext } from "graphql";
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
      const caller = await resolveCaller(deps, token)
        .then((caller) => caller.actor)
        .catch(() => null);
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
      // Not only the standard query: any `__schema` or `__type` reads the schema, however shallow.
      if (!allowed) addValidationRule(noSchemaReading);
      return ({ valid }) => {
        if (valid) known.add(document);
      };
    },
    ...(options.hideSuggestions ? { onPluginInit: ({ addPlugin }) => addPlugin(hiddenSuggestions) } : {}),
  };
}

/** Refuses `__schema` and `__type` (not `__typename`), telling the caller what would let it in. */
function noSchemaReading(context: ValidationContext): ASTVisitor {
  let reported = false;
  return {
    Field(node) {
      if (reported || (node.name.value !== "__schema" && node.name.value !== "__type")) return;
      reported = true;
      context.reportError(introspectionHint());
    },
  };
}

/**
 * Production hides every "Did you mean ...?" (field names, enum values, input fields, arguments),
 * in validation errors and in variable errors alike: each one names a part of the schema.
 */
const suggestion = / ?Did you mean [^?]*\?/g;
const hiddenSuggestions: Plugin = {
  onResultProcess({ result, setResult }) {
    if (Array.isArray(result) || !("errors" in result) || !result.errors) return;
    const errors = result.errors as readonly GraphQLError[];
    if (!errors.some((error) => error.message.includes("Did you mean"))) return;
    setResult({ ...result, errors: errors.map(withoutSuggestion) });
  },
};

function withoutSuggestion(error: GraphQLError): GraphQLError {
  if (!error.message.includes("Did you mean")) return error;
  return new GraphQLError(error.message.replace(suggestion, "").trim(), {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    path: error.path,
    originalError: error.originalError,
    extensions: error.extensions,
  });
}

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
