/**
 * The most transactions a total under amount bounds counts (docs/architecture.md, "Reading history
 * as a merchant grows"). Below it a total is exact; past it the total says "at least this many"
 * and whether there are more, as a search engine's hit count or Stripe's lists do. 1 000 keeps the
 * count's cost about a history page's (a page of 20 reads up to 21 matches per wallet and side):
 * at 10 000 a large merchant's count read ten times the rows at 1M transactions as at 10k, and the
 * history's latency stopped being flat in the ledger's size (docs/benchmark.md, issue 35).
 */
export const amountTotalsCap = 1_000;
