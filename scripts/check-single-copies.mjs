// CI gate (`npm run single-copies`): every package Purse's own package.json files name is installed
// in one version only. Two copies of graphql make "from another module or realm" errors; two of
// anything else ship twice and can disagree. Read from package-lock.json, which is what `npm ci`
// installs. Duplicates deeper down (a dependency's own dependencies) are their authors' ranges.
import { readFileSync } from "node:fs";

const lock = JSON.parse(readFileSync(new URL("../package-lock.json", import.meta.url), "utf8"));
const entries = Object.entries(lock.packages);

const workspaces = entries.filter(([path, entry]) => !path.includes("node_modules") && !entry.link);
const direct = new Set(
  workspaces.flatMap(([, entry]) =>
    Object.keys({ ...entry.dependencies, ...entry.devDependencies, ...entry.optionalDependencies }),
  ),
);

const versions = new Map();
for (const [path, entry] of entries) {
  const at = path.lastIndexOf("node_modules/");
  if (at < 0 || entry.link) continue;
  const name = path.slice(at + "node_modules/".length);
  if (!direct.has(name)) continue;
  const seen = versions.get(name) ?? new Map();
  seen.set(entry.version, [...(seen.get(entry.version) ?? []), path]);
  versions.set(name, seen);
}

const duplicated = [...versions].filter(([, seen]) => seen.size > 1);
for (const [name, seen] of duplicated) {
  console.error(
    `${name}: ${[...seen].map(([version, paths]) => `${version} at ${paths.join(", ")}`).join("; ")}`,
  );
}
if (duplicated.length > 0) process.exit(1);
console.log(
  `one copy each of the ${direct.size} packages Purse's package.json files name (graphql included)`,
);
