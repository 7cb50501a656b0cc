import { readdirSync, readFileSync } from "node:fs";
import { basename } from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The docs that list what exists (the engine's rooms, its SQL stores, the packages) list all of
 * it: a room, store or package added without its line fails here, not in a reader's head.
 */
const repository = new URL("../../", import.meta.url);
const read = (path: string) => readFileSync(new URL(path, repository), "utf8");
const architecture = read("docs/architecture.md");

/** The part of `text` from the line starting with `from` up to the next line starting with `until`. */
function section(text: string, from: string, until: string): string {
  const start = text.indexOf(`\n${from}`);
  const end = text.indexOf(`\n${until}`, start + 1);
  if (start < 0 || end < 0) throw new Error(`no section from "${from}" to "${until}"`);
  return text.slice(start, end);
}

/** The names written as code (`name`) in `text`. */
const codeNames = (text: string) => new Set([...text.matchAll(/`([^`]+)`/g)].map((match) => match[1] ?? ""));

describe("the docs that count what exists", () => {
  it("architecture.md names every room of the engine in its layers", () => {
    const rooms = codeNames(section(architecture, "**The engine's rooms**", "dependency-cruiser keeps"));
    const entries = readdirSync(new URL("packages/engine/src/", repository), { withFileTypes: true })
      .filter(
        (entry) =>
          entry.isDirectory() || entry.name === "engine-dependencies.ts" || entry.name === "index.ts",
      )
      .map((entry) => entry.name);
    expect(entries.length).toBeGreaterThan(20);
    expect(entries.filter((room) => !rooms.has(room))).toEqual([]);
  });

  it("architecture.md's table of stores names every engine store", () => {
    const table = section(architecture, "**SQL lives in stores.**", "A Biome `noRestrictedImports`");
    const named = [...codeNames(table)].map((name) => basename(name));
    const stores = readdirSync(new URL("packages/engine/src/", repository), {
      recursive: true,
      encoding: "utf8",
    })
      .filter((file) => file.endsWith("-store.ts"))
      .map((file) => basename(file));
    expect(stores.length).toBeGreaterThan(30);
    expect(stores.filter((store) => !named.includes(store))).toEqual([]);
  });

  it("the README's layout names every package", () => {
    const layout = section(read("README.md"), "## Layout", "Dependencies point inward");
    const packages = readdirSync(new URL("packages/", repository), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => `packages/${entry.name}`);
    expect(packages.filter((name) => !new RegExp(`^${name}\\s`, "m").test(layout))).toEqual([]);
  });
});
