import { writeFileSync } from "node:fs";
import { lexicographicSortSchema, printSchema } from "graphql";
import { purseSchema } from "./schema.ts";

/** The committed SDL: `npm run schema -w @purse/graphql` rewrites it; a test fails when it is stale. */
export function schemaText(): string {
  return `${printSchema(lexicographicSortSchema(purseSchema()))}\n`;
}

if (process.argv[1]?.endsWith("print-schema.ts")) {
  writeFileSync(new URL("../schema.graphql", import.meta.url), schemaText());
  console.log("Wrote packages/graphql/schema.graphql");
}
