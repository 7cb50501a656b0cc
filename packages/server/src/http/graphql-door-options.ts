import type { GraphQLDoorOptions } from "@purse/graphql";
import type { PurseConfig } from "../config/config.ts";

/**
 * The embedded default (no DATABASE_URL, not production) is a local demo: the schema is open to
 * IDEs and GraphiQL is served. In production neither, and errors suggest no field names.
 */
export function graphQLDoorOptions(config: PurseConfig): GraphQLDoorOptions {
  const embeddedDemo = !config.production && config.databaseUrl === undefined;
  return { production: config.production, openIntrospection: embeddedDemo, graphiql: embeddedDemo };
}
