/**
 * Builds the client package: `dist/index.js` (the enum names) and one bundled `dist/index.d.ts`.
 *
 * 1. tsc emits the tRPC package's declarations (the router's type, expanded) into `build/trpc`.
 * 2. rolldown with rolldown-plugin-dts bundles them behind `src/index.ts`: `@purse/trpc` resolves to
 *    those declarations, `@purse/engine` to `src/server-context.d.ts` (the router's server-side
 *    context, opaque to a front end), and every other package stays an import. The build then
 *    refuses any import but `@trpc/server`'s, so server code can never reach a front end's types.
 */
import { execFileSync } from "node:child_process";
import { readdir, readFile, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "rolldown";
import { dts } from "rolldown-plugin-dts";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const trpcPackage = join(root, "..", "trpc");
const trpcTypes = join(root, "build", "trpc");
/** The only packages a front end's types may import: the peer the router's types are made of. */
const allowedImports = /^@trpc\/server(\/|$)/;

await rm(join(root, "build"), { recursive: true, force: true });
await rm(join(root, "dist"), { recursive: true, force: true });

const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
execFileSync(
  process.execPath,
  [
    tsc,
    ...["-p", join(trpcPackage, "tsconfig.build.json")],
    ...["--noEmit", "false", "--declaration", "--emitDeclarationOnly", "--sourceMap", "false"],
    ...["--outDir", trpcTypes],
  ],
  { stdio: "inherit" },
);

// The router's declarations may name from the engine only what the opaque stub stands for (its
// server-side context): any other engine type would be bundled as nothing, silently.
const stubbed = new Set(["Actor", "EngineDependencies"]);
for (const file of await declarationFiles(trpcTypes)) {
  const text = await readFile(file, "utf8");
  const named = [
    ...[...text.matchAll(/import\s+(?:type\s+)?\{([^}]*)\}\s+from\s+["']@purse\/engine["']/g)].flatMap(
      (match) =>
        (match[1] ?? "").split(",").map(
          (name) =>
            name
              .replace(/\btype\b/, "")
              .trim()
              .split(/\s+as\s+/)[0] ?? "",
        ),
    ),
    ...[...text.matchAll(/import\(\s*["']@purse\/engine["']\s*\)\.(\w+)/g)].map((match) => match[1] ?? ""),
  ].filter((name) => name !== "");
  const unknown = named.filter((name) => !stubbed.has(name));
  if (unknown.length > 0) {
    console.error(
      `${file} names ${unknown.join(", ")} from @purse/engine: give the procedure an output schema or spell the type out`,
    );
    process.exit(1);
  }
}

/** Points the bundle's declaration imports at the emitted router types and the opaque context. */
const purseSurface = {
  name: "purse-client-surface",
  resolveId: {
    order: "pre",
    handler(source, importer) {
      if (!importer?.endsWith(".d.ts")) return null;
      if (source === "@purse/trpc") return join(trpcTypes, "index.d.ts");
      if (source === "@purse/engine") return join(root, "src", "server-context.d.ts");
      // tsc keeps the sources' `.ts` specifiers in declarations; the files are `.d.ts`.
      if (source.startsWith(".") && source.endsWith(".ts") && importer.startsWith(trpcTypes))
        return resolve(dirname(importer), source.replace(/\.ts$/, ".d.ts"));
      return null;
    },
  },
};

await build({
  input: { index: join(root, "src", "index.ts") },
  platform: "neutral",
  external: (id) => !id.startsWith(".") && !id.startsWith("/") && !id.startsWith("@purse/"),
  plugins: [purseSurface, dts({ tsconfig: join(root, "tsconfig.json") })],
  output: { dir: join(root, "dist"), format: "esm" },
  logLevel: "warn",
  checks: { pluginTimings: false },
});

const declarations = await readFile(join(root, "dist", "index.d.ts"), "utf8");
const imported = [
  ...declarations.matchAll(/\bfrom\s+["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g),
].map((match) => match[1] ?? match[2]);
const foreign = imported.filter((specifier) => !allowedImports.test(specifier ?? ""));
if (foreign.length > 0) {
  console.error(
    `dist/index.d.ts imports ${[...new Set(foreign)].join(", ")}: only @trpc/server may be imported`,
  );
  process.exit(1);
}
await rm(join(root, "build"), { recursive: true, force: true });

/** Every `.d.ts` under `directory`. */
async function declarationFiles(directory) {
  const entries = await readdir(directory, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith(".d.ts"))
    .map((entry) => join(entry.parentPath, entry.name));
}
