export { queryLimits } from "./limits/query-limits.ts";
export {
  graphqlWsOptions,
  type LiveSocketBounds,
  type LiveSocketExtra,
  liveCloseReasons,
} from "./live/graphql-ws-options.ts";
export { purseSchema } from "./schema.ts";
export { createGraphQLHandler, type GraphQLDoorOptions, type PurseYoga } from "./yoga.ts";
