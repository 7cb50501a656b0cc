import type { GraphiQLOptions, Plugin } from "graphql-yoga";
import { graphqlPath } from "../limits/query-bounds.ts";
import { graphiqlAssetsPath, graphiqlPolicy } from "./graphiql-assets.ts";

/** What GraphiQL opens with on the first visit (GraphiQL keeps the user's own tabs afterwards). */
const defaultQuery = `# Purse GraphQL. Every field needs a bearer token:
# POST /token (client_credentials; npm start
# prints a curl line for it), then under Headers:
#   {"Authorization": "Bearer <access_token>"}
# An example of every field: docs/graphql.md
{
  wallets {
    number
    amount
    currency { code }
  }
}
`;

/** yoga's `graphiql` option: the editor opens on the header editor, which is never stored. */
export const graphiqlOptions: GraphiQLOptions = {
  title: "Purse GraphQL",
  endpoint: graphqlPath,
  defaultQuery,
  defaultEditorToolsVisibility: "headers",
  isHeadersEditorEnabled: true,
  // A bearer token typed into the header editor stays in that tab, never in localStorage.
  shouldPersistHeaders: false,
};

/** JSON inside a `<script type="application/json">` block: no `<` may close it early. */
function scriptData(value: unknown): string {
  return JSON.stringify(value).replaceAll("<", "\\u003c");
}

function escapeHtml(text: string): string {
  return text
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;");
}

/**
 * yoga's `renderGraphiQL` option: GraphiQL's page, with its script, stylesheet and icon as
 * same-origin files (graphiql-assets.ts) and its options as data, so it runs offline and under
 * `graphiqlPolicy`.
 */
export function renderGraphiQLPage(options: GraphiQLOptions): string {
  const asset = (name: string) => `${graphiqlAssetsPath}/${name}`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(options.title ?? graphiqlOptions.title ?? "GraphiQL")}</title>
<link rel="icon" href="${asset("favicon.ico")}">
<link rel="stylesheet" href="${asset("graphiql.css")}">
</head>
<body id="body" class="no-focus-outline">
<noscript>GraphiQL needs JavaScript. Without it, POST queries to ${graphqlPath} (docs/graphql.md).</noscript>
<div id="root"></div>
<script type="application/json" id="graphiql-options">${scriptData(options)}</script>
<script src="${asset("graphiql.js")}"></script>
</body>
</html>
`;
}

/**
 * GraphiQL's page is the only HTML yoga answers; it gets its Content-Security-Policy here, where
 * the answer is made (the host's security headers add the rest: no framing, no referrer).
 */
export function graphiqlPolicyHeader(): Plugin {
  return {
    onResponse({ response }) {
      if (response.headers.get("content-type")?.startsWith("text/html")) {
        response.headers.set("content-security-policy", graphiqlPolicy);
      }
    },
  };
}
