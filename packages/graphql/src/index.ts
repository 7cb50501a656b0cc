export { purseSchema } from "./schema.ts";
export { createGraphQLHandler, type PurseYoga, queryLimits } from "./yoga.ts";
