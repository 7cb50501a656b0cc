import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

/**
 * Docs cite only files the repository holds: a reader who follows `persistence/sql.ts` or a
 * link must find it. A cited path may be relative to a package (`ledger/run-movement.ts`), so it
 * counts as found when a tracked file's path ends with it. Spans that look like paths are read
 * from inline code and from relative links.
 */
const root = new URL("../../", import.meta.url);
const tracked = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard"], {
  cwd: root,
  encoding: "utf8",
})
  .split("\n")
  .filter(Boolean);
const documents = [
  "README.md",
  "CONTRIBUTING.md",
  "CODE_STYLE.md",
  ...readdirSync(new URL("docs", root))
    .filter((name) => name.endsWith(".md"))
    .map((name) => `docs/${name}`),
];
const inlinePath =
  /`([\w.@-]+(?:\/[\w.@*-]+)+\.(?:ts|tsx|md|json|mjs|cjs|js|yaml|yml|sh|service|sql|png|html|conf))`/g;
const relativeLink = /\]\((?![a-z]+:|#)([^)#\s]+)/g;

function held(path: string, from: string): boolean {
  const normal = new URL(path, new URL(from, root)).pathname.slice(root.pathname.length);
  return tracked.some(
    (file) => file === path || file.endsWith(`/${path}`) || file === normal || file.startsWith(`${normal}/`),
  );
}

describe("citations in the docs", () => {
  it.each(documents)("%s cites only files the repository holds", (document) => {
    const text = readFileSync(new URL(document, root), "utf8");
    const cited = [...text.matchAll(inlinePath), ...text.matchAll(relativeLink)].map(
      (match) => match[1] ?? "",
    );
    expect(cited.filter((path) => !held(path, document))).toEqual([]);
  });
});
