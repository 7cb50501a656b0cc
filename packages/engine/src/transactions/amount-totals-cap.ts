/**
 * The most transactions a total under amount bounds counts (capped-totals-store.ts;
 * docs/architecture.md, "Reading history as a merchant grows"). Up to it a total is exact; past it
 * the total says "at least this many" and whether more follow, as a search engine's hit count or
 * Stripe's lists do. At 1 000 the count reads about what a page of 20 reads (up to 21 matches per
 * wallet and side), the same at 10k as at 1M transactions; at 10 000 the bench's merchant's count
 * read ten times the buffers at 1M, most of them from disk, and took 0.4 to 1.5 s where 1 000 took
 * 7 to 50 ms on the same loaded machine (docs/benchmark.md, "No counters nobody asked for").
 */
export const amountTotalsCap = 1_000;
