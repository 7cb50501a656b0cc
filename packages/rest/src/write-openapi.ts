import { readFile, writeFile } from "node:fs/promises";
import { buildOpenApiDocument } from "./build-rest-api.ts";

/** The committed document: `npm run openapi -w @purse/rest` rewrites it; a test fails when it drifts. */
export const committedOpenApiUrl = new URL("../openapi.json", import.meta.url);

export async function openApiText(): Promise<string> {
  return `${JSON.stringify(await buildOpenApiDocument(), null, 2)}\n`;
}

export async function readCommittedOpenApi(): Promise<string> {
  return readFile(committedOpenApiUrl, "utf8");
}

if (process.argv[1]?.endsWith("write-openapi.ts")) {
  await writeFile(committedOpenApiUrl, await openApiText());
  console.log("Wrote packages/rest/openapi.json");
}
