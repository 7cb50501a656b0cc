import type { DocumentNode } from "graphql";
import { LRUCache } from "lru-cache";

/**
 * Yoga's parser cache, bounded by the documents' text rather than their number. A parsed document
 * holds about fifty times its text (a 10 KB document of 2 000 tokens, the door's limit, is about
 * 500 KB of AST), so yoga's default of 1 024 documents of any size would let anyone, before any
 * token is checked, fill the 256 MB heap with distinct large documents. Dashboards send a few
 * small documents again and again: those are what is kept.
 */
export function boundedDocumentCache(): LRUCache<string, DocumentNode> {
  return new LRUCache<string, DocumentNode>({
    // At most 256 KiB of document text in all, about 13 MB of AST; no one document over 8 KiB.
    maxSize: 256 * 1024,
    maxEntrySize: 8 * 1024,
    sizeCalculation: (_document, text) => Math.max(1, text.length),
  });
}

/** Parse errors are not kept: a refused document costs a bounded parse again (scan-document.ts). */
export const noErrorCache = {
  get: (): undefined => undefined,
  set: (): void => undefined,
};
