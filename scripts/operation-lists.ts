/**
 * Writes the two lists no one should keep by hand (`npm run lists`): the engine's declared
 * operations, from every `*.operation.ts` (packages/engine/src/operations/operations.generated.ts),
 * and REST's route contracts, from every `*.route.ts` (packages/rest/src/routes/
 * operation-routes.generated.ts). Node finds no directory's modules without such a list, and the
 * bundled server cannot read a directory at start-up, so the lists are written, as TanStack
 * Router writes its route tree; `test/house/operation-lists.test.ts` fails when one is stale.
 *
 * `--check` writes nothing and exits 1 when a committed list differs from what it would write.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const engineSource = join(root, "packages/engine/src");
const routesSource = join(root, "packages/rest/src/routes");

export const operationsList = join(engineSource, "operations/operations.generated.ts");
export const routesList = join(routesSource, "operation-routes.generated.ts");

/** One exported value of a module: where it comes from, its export name, the value. */
interface Exported {
  readonly file: string;
  readonly exportName: string;
  readonly value: unknown;
}

/** Every export of the files under `directory` whose name ends in `suffix`, sorted by file then name. */
async function exportsOf(directory: string, suffix: string): Promise<Exported[]> {
  const files = readdirSync(directory, { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(suffix))
    .map((file) => join(directory, file))
    .sort();
  const found: Exported[] = [];
  for (const file of files) {
    const module = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
    for (const exportName of Object.keys(module).sort())
      found.push({ file, exportName, value: module[exportName] });
  }
  return found;
}

function importLine(from: string, names: readonly string[], file: string): string {
  let path = relative(dirname(from), file).replaceAll("\\", "/");
  if (!path.startsWith(".")) path = `./${path}`;
  return `import { ${names.join(", ")} } from "${path}";`;
}

function importsOf(from: string, exported: readonly Exported[]): string[] {
  const byFile = new Map<string, string[]>();
  for (const { file, exportName } of exported) byFile.set(file, [...(byFile.get(file) ?? []), exportName]);
  return [...byFile].map(([file, names]) => importLine(from, names, file));
}

const header = (what: string) =>
  `// Written by \`npm run lists\` (scripts/operation-lists.ts) from ${what}: do not edit.\n`;

interface Declaration {
  readonly name: string | null;
  readonly kind: string;
  readonly sessionOnly?: true;
  readonly run: unknown;
}

function isDeclaration(value: unknown): value is Declaration {
  return typeof value === "object" && value !== null && "kind" in value && "run" in value && "name" in value;
}

/** The engine's list: every declaration by its own name, and those GraphQL and tRPC publish by theirs. */
async function operationsSource(): Promise<string> {
  const declared = (await exportsOf(engineSource, ".operation.ts")).filter((each) =>
    isDeclaration(each.value),
  );
  const named = (session: boolean) =>
    declared
      .map((each) => ({ ...each, declaration: each.value as Declaration }))
      .filter(
        ({ declaration }) => declaration.name !== null && (declaration.sessionOnly === true) === session,
      )
      .sort((a, b) => String(a.declaration.name).localeCompare(String(b.declaration.name)))
      .map(({ declaration, exportName }) => `  ${declaration.name}: ${exportName},`);
  return [
    header("every `*.operation.ts` declaration"),
    ...importsOf(operationsList, declared),
    "",
    "/**",
    " * The API's operations by name, declared once for every door: GraphQL mounts each under this name",
    " * (or its binding's, packages/graphql/src/schema/operation-bindings.ts), tRPC publishes each as",
    " * the procedure of this name, REST those it has a route contract for (packages/rest/src/routes).",
    " */",
    "export const operations = {",
    ...named(false),
    "} as const;",
    "",
    "/** The dashboard's own, which only its session cookie may call (`sessionOnly`): GraphQL only. */",
    "export const sessionOperations = {",
    ...named(true),
    "} as const;",
    "",
    "/** Each declaration by its export name, for REST's route contracts (the REST-only ones among them). */",
    `export { ${declared.map((each) => each.exportName).join(", ")} };`,
    "",
  ].join("\n");
}

interface Route {
  readonly url: string;
}

function isRoute(value: unknown): value is Route {
  return typeof value === "object" && value !== null && "operationIds" in value && "register" in value;
}

/** REST's list: every route contract by its name, by path, the OpenAPI document's order. */
async function routesSourceText(): Promise<string> {
  const url = (each: Exported) => (each.value as Route).url;
  const routes = (await exportsOf(routesSource, ".route.ts"))
    .filter((each) => isRoute(each.value))
    .sort((a, b) => url(a).localeCompare(url(b)) || a.exportName.localeCompare(b.exportName));
  return [
    header("every `*.route.ts` route contract"),
    'import type { RestRoute } from "./operation-route.ts";',
    ...importsOf(routesList, routes),
    "",
    "/**",
    " * Every route of an engine operation, by name and in the order of their paths: `build-rest-api.ts`",
    " * registers each in this order (the OpenAPI document's paths and components follow it).",
    " */",
    "export const operationRoutes = {",
    ...routes.map(({ exportName }) => `  ${exportName.replace(/Route$/, "")}: ${exportName},`),
    "} as const satisfies Readonly<Record<string, RestRoute>>;",
    "",
  ].join("\n");
}

/** What each list's file should hold: the engine's first, which the route contracts import. */
export async function operationLists(): Promise<ReadonlyMap<string, string>> {
  return new Map([
    [operationsList, await operationsSource()],
    [routesList, await routesSourceText()],
  ]);
}

function read(file: string): string | null {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return null;
  }
}

const invoked = process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1];
if (invoked) {
  const check = process.argv.includes("--check");
  let stale = 0;
  // One after the other: a new route imports its declaration through the engine's list, which
  // must be written before the routes are read.
  for (const [file, source] of [
    [operationsList, operationsSource],
    [routesList, routesSourceText],
  ] as const) {
    const text = await source();
    if (read(file) === text) continue;
    stale += 1;
    if (check) {
      console.error(`${relative(root, file)} is stale: run npm run lists`);
      break;
    }
    writeFileSync(file, text);
    console.log(`wrote ${relative(root, file)}`);
  }
  if (check && stale > 0) process.exit(1);
}
