import { readFileSync } from "node:fs";
import { relative } from "node:path";
import { describe, expect, it } from "vitest";
import { operationLists } from "../../scripts/operation-lists.ts";

/**
 * The engine's list of declarations and REST's list of route contracts are written by
 * `npm run lists` (scripts/operation-lists.ts), never by hand: a new `*.operation.ts` or
 * `*.route.ts` file is published once the lists are written again, and a stale list fails here.
 */
describe("the written lists of operations and routes", () => {
  it("are what npm run lists writes from the declarations and route contracts", async () => {
    for (const [file, text] of await operationLists()) {
      const committed = readFileSync(file, "utf8");
      expect(committed, `${relative(process.cwd(), file)} is stale: run npm run lists`).toBe(text);
    }
  });
});
