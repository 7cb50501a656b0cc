import { EnvelopArmorPlugin } from "@escape.tech/graphql-armor";
import { type EngineDependencies, PurseError } from "@purse/engine";
import { GraphQLError } from "graphql";
import { createYoga, type YogaServerInstance } from "graphql-yoga";
import { createContext, type GraphQLContext } from "./context.ts";
import { purseSchema } from "./schema.ts";

/** Limits that keep one query from costing the server more than a dashboard page needs. */
export const queryLimits = {
  maxDepth: 10,
  maxCost: 5_000,
  maxAliases: 15,
  maxTokens: 2_000,
} as const;

export type PurseYoga = YogaServerInstance<Record<string, unknown>, GraphQLContext>;

/**
 * GraphQL over HTTP at /graphql (subscriptions as Server-Sent Events). Engine errors keep the
 * spec's message and carry their code; anything unexpected is masked.
 */
export function createGraphQLHandler(deps: EngineDependencies): PurseYoga {
  return createYoga<Record<string, unknown>, GraphQLContext>({
    schema: purseSchema(),
    graphqlEndpoint: "/graphql",
    landingPage: false,
    graphiql: false,
    logging: false,
    context: ({ request }) => createContext(deps, request.headers.get("authorization")),
    maskedErrors: { maskError },
    plugins: [
      EnvelopArmorPlugin({
        maxDepth: { n: queryLimits.maxDepth, ignoreIntrospection: false },
        costLimit: { maxCost: queryLimits.maxCost, ignoreIntrospection: false },
        maxAliases: { n: queryLimits.maxAliases },
        maxTokens: { n: queryLimits.maxTokens },
        maxDirectives: { n: 20 },
        blockFieldSuggestion: { enabled: true },
      }),
    ],
  });
}

function maskError(error: unknown): Error {
  const original = error instanceof GraphQLError ? error.originalError : error;
  if (PurseError.is(original)) {
    return new GraphQLError(original.message, {
      extensions: {
        code: original.code,
        status: original.status,
        ...(original.field ? { field: original.field } : {}),
        ...(original.translation ? { translation: original.translation } : {}),
      },
    });
  }
  if (error instanceof GraphQLError && !error.originalError) return error;
  if (error instanceof GraphQLError && error.originalError instanceof GraphQLError)
    return error.originalError;
  return new GraphQLError("Unexpected error.", { extensions: { code: "INTERNAL_SERVER_ERROR" } });
}
