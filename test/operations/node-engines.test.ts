import { readFileSync } from "node:fs";
import semver from "semver";
import { describe, expect, it } from "vitest";

/**
 * The root `engines.node` promises a Node that every installed package runs on: a range wider
 * than a dependency's own (MikroORM 7 needs 22.17, undici 22.19) let an operator start Purse on a
 * Node where it fails later. Read from package-lock.json, which is what `npm ci` installs.
 */
const read = (path: string) => JSON.parse(readFileSync(new URL(path, import.meta.url), "utf8"));
const root: { engines: { node: string } } = read("../../package.json");
const lock: { packages: Record<string, { engines?: { node?: unknown } }> } = read("../../package-lock.json");

describe("the Node versions Purse declares", () => {
  it("fit within every installed package's engines.node", () => {
    const narrower = Object.entries(lock.packages)
      .filter(([path]) => path.includes("node_modules/"))
      .map(([path, entry]) => ({ path, wants: entry.engines?.node }))
      .filter((it): it is { path: string; wants: string } => typeof it.wants === "string")
      .filter(({ wants }) => semver.validRange(wants) !== null && !semver.subset(root.engines.node, wants))
      .map(({ path, wants }) => `${path} wants ${wants}`);
    expect(narrower).toEqual([]);
  });

  it("is a range npm can read", () => {
    expect(semver.validRange(root.engines.node)).not.toBeNull();
  });
});
