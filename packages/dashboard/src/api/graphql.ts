import { initGraphQLTada } from "gql.tada";
import type { introspection } from "../graphql-env.generated.d.ts";

/**
 * Typed GraphQL documents: gql.tada reads packages/graphql/schema.graphql (the committed schema)
 * through the generated introspection types, so a document that drifts from the schema fails
 * `npm run typecheck` (`gql.tada check`, then tsc on the inferred result types).
 */
export const graphql = initGraphQLTada<{ introspection: introspection }>();

export type { ResultOf, TadaDocumentNode, VariablesOf } from "gql.tada";
