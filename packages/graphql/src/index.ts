export { queryLimits } from "./limits/query-limits.ts";
export { purseSchema } from "./schema.ts";
export { createGraphQLHandler, type GraphQLDoorOptions, type PurseYoga } from "./yoga.ts";
