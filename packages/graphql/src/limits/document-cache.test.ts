import { parse } from "graphql";
import { describe, expect, it } from "vitest";
import { boundedDocumentCache } from "./document-cache.ts";

/** A syntactically valid document of about `length` characters. */
function documentOf(length: number, seed: number): string {
  let text = `query Q${seed} {`;
  for (let field = 0; text.length < length - 30; field += 1) text += ` f${field}(a: "xxxxxxxxxxxxxxxx")`;
  return `${text} }`;
}

describe("the GraphQL parser cache", () => {
  it("keeps a dashboard's small documents and refuses a large one", () => {
    const cache = boundedDocumentCache();
    const small = "{ wallets { number balance } }";
    cache.set(small, parse(small));
    const large = documentOf(9_000, 1);
    cache.set(large, parse(large));
    expect(cache.get(small)).toBeDefined();
    expect(cache.get(large)).toBeUndefined();
  });

  it("holds at most 256 KiB of document text however many distinct documents arrive", () => {
    const cache = boundedDocumentCache();
    for (let seed = 0; seed < 200; seed += 1) {
      const text = documentOf(8_000, seed);
      cache.set(text, parse(text));
    }
    expect(cache.calculatedSize).toBeLessThanOrEqual(256 * 1024);
    expect(cache.size).toBeLessThan(40);
  });
});
