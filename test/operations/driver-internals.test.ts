import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/**
 * Purse talks to PostgreSQL only through what node-postgres documents: `client.query` with text
 * or `{ name, text, values }`, the pool, and pipeline mode. Its private members (underscored
 * fields, the connection's statement bookkeeping, lib/ modules) change in any release, even a
 * patch, without a type error: this reads every source file and refuses them. Imports of
 * `pg/lib/*` are refused by Biome's noRestrictedImports as well (biome.json).
 */
const root = fileURLToPath(new URL("../..", import.meta.url));
const scanned = ["packages", "test", "bench", "scripts"];
const skipped = new Set(["node_modules", "dist", ".turbo", "coverage"]);
const sourceFile = /\.(ts|tsx|js|mjs|cjs)$/;

const forbidden: readonly { readonly pattern: RegExp; readonly what: string }[] = [
  { pattern: /["'`]pg\/lib\//, what: "a pg/lib module" },
  { pattern: /["'`]pg-protocol\/dist\//, what: "a pg-protocol internal module" },
  {
    pattern:
      /\.(_result|_getRows|_parsers|_accumulateRows|_queryQueue|_sentQueryQueue|_activeQuery|_pulseQueryQueue|_types|_send)\b/,
    what: "a pg underscore member",
  },
  { pattern: /\b(parsedStatements|submittedNamedStatements)\b/, what: "pg's statement bookkeeping" },
  { pattern: /prototype\.query\s*=/, what: "a replaced Client.prototype.query" },
  // Other libraries' internals, for the same reason (Biome refuses the imports as well).
  { pattern: /unstable-core-do-not-import/, what: "tRPC's internal core" },
  { pattern: /\._def\._config\b/, what: "a tRPC router's private root config" },
  { pattern: /["'`]@sesamecare-oss\/redlock\/build\//, what: "Redlock's build files" },
];

function* sources(directory: string): Generator<string> {
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    if (skipped.has(entry.name)) continue;
    const path = join(directory, entry.name);
    if (entry.isDirectory()) yield* sources(path);
    else if (sourceFile.test(entry.name)) yield path;
  }
}

describe("no node-postgres (or other library) internals", () => {
  it("finds none of pg's private members or modules in Purse's sources", () => {
    const self = fileURLToPath(import.meta.url);
    const found: string[] = [];
    let files = 0;
    for (const top of scanned) {
      for (const path of sources(join(root, top))) {
        if (path === self) continue; // this file names them to refuse them
        files += 1;
        readFileSync(path, "utf8")
          .split("\n")
          .forEach((line, index) => {
            for (const { pattern, what } of forbidden)
              if (pattern.test(line))
                found.push(`${relative(root, path)}:${index + 1}: ${what}: ${line.trim()}`);
          });
      }
    }
    expect(files).toBeGreaterThan(100); // the walk did reach the sources
    expect(found).toEqual([]);
  });
});
