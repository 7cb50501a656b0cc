import { createHash } from "node:crypto";
import { graphqlPath } from "../limits/query-bounds.ts";

/**
 * GraphiQL from Purse's own server: yoga's default page loads React, GraphiQL and Monaco from
 * unpkg, so offline or under a Content-Security-Policy it stays blank. These are the same
 * files, from yoga's `@graphql-yoga/render-graphiql` package (its `graphiql` module holds the
 * built GraphiQL, its stylesheet and Monaco's workers as strings), served as separate files
 * under /graphql/ide/ so that the page runs no inline script and no `blob:` worker.
 *
 * This module loads nothing heavy until the first asset is asked for (the strings are about
 * 9 MB): production never serves GraphiQL and never reads them.
 */
export const graphiqlAssetsPath = `${graphqlPath}/ide`;

/**
 * The page's and its workers' policy: only Purse's own files, GraphQL on the same origin, never
 * framed. GraphiQL's fonts and icons are `data:` URLs inside its stylesheet. Monaco and
 * GraphiQL's dialogs add `<style>` elements at run time, so styles need 'unsafe-inline'; scripts
 * never do.
 */
export const graphiqlPolicy = [
  "default-src 'none'",
  "script-src 'self'",
  "worker-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "connect-src 'self'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join("; ");

export interface GraphiQLAsset {
  readonly body: Buffer;
  readonly type: string;
  /** A strong validator of the body, for conditional requests (If-None-Match). */
  readonly etag: string;
}

/** Monaco asks for a worker by label; GraphiQL uses these three. */
const workerFiles = {
  editorWorkerService: "editor.worker.js",
  json: "json.worker.js",
  graphql: "graphql.worker.js",
} as const;

const javascript = "text/javascript; charset=utf-8";

/**
 * Before GraphiQL's bundle: where Monaco finds its workers (same-origin files, so `worker-src
 * 'self'` holds). After it: the start, with the options the page carries as JSON data (a JSON
 * script block is data, never run, so the page needs no inline script).
 */
const setup = `self.MonacoEnvironment = {
  globalAPI: false,
  getWorkerUrl: function (_moduleId, label) {
    var files = ${JSON.stringify(workerFiles)};
    return files[label] ? ${JSON.stringify(`${graphiqlAssetsPath}/`)} + files[label] : undefined;
  },
};
`;

const start = `
YogaGraphiQL.renderYogaGraphiQL(
  document.getElementById("root"),
  JSON.parse(document.getElementById("graphiql-options").textContent),
);
`;

function asset(body: string | Buffer, type: string): GraphiQLAsset {
  const bytes = typeof body === "string" ? Buffer.from(body) : body;
  return { body: bytes, type, etag: `"${createHash("sha256").update(bytes).digest("base64url")}"` };
}

async function readAssets(): Promise<ReadonlyMap<string, GraphiQLAsset>> {
  const built = await import("@graphql-yoga/render-graphiql/graphiql");
  const favicon = built.favicon.slice(built.favicon.indexOf(",") + 1);
  return new Map([
    ["graphiql.js", asset(`${setup};\n${built.js};\n${start}`, javascript)],
    ["graphiql.css", asset(built.css, "text/css; charset=utf-8")],
    [workerFiles.editorWorkerService, asset(built.editorWorkerService, javascript)],
    [workerFiles.json, asset(built.jsonWorker, javascript)],
    [workerFiles.graphql, asset(built.graphqlWorker, javascript)],
    ["favicon.ico", asset(Buffer.from(favicon, "base64"), "image/x-icon")],
  ]);
}

let assets: Promise<ReadonlyMap<string, GraphiQLAsset>> | undefined;

/** GraphiQL's file by name (only these names are ever answered: no path from the request). */
export async function graphiqlAsset(name: string): Promise<GraphiQLAsset | undefined> {
  assets ??= readAssets();
  return (await assets).get(name);
}
