import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";

const root = new URL("../../../../", import.meta.url);

describe("one copy of graphql", () => {
  it("is locked: every graphql in package-lock.json is the same single 17.x entry", () => {
    const lock = JSON.parse(readFileSync(new URL("package-lock.json", root), "utf8")) as {
      packages: Record<string, { version?: string }>;
    };
    const copies = Object.entries(lock.packages).filter(([path]) =>
      /(^|\/)node_modules\/graphql$/.test(path),
    );
    expect(copies.map(([path, entry]) => [path, entry.version?.split(".")[0]])).toEqual([
      ["node_modules/graphql", "17"],
    ]);
  });

  it("is what graphql-armor's rules load, so their errors are the server's GraphQLError", () => {
    const fromRoot = createRequire(new URL("package.json", root)).resolve("graphql");
    for (const armor of ["cost-limit", "max-depth", "max-aliases", "max-directives"]) {
      const armorRequire = createRequire(
        createRequire(new URL("packages/graphql/package.json", root)).resolve(
          `@escape.tech/graphql-armor-${armor}`,
        ),
      );
      expect(armorRequire.resolve("graphql")).toBe(fromRoot);
    }
  });
});
