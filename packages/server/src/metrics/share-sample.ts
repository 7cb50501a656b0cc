/**
 * Prometheus collects every metric of a scrape at once; several gauges fed by one query share
 * one sample taken at most once per `ttlMs`, so a scrape costs one query, not one per gauge.
 */
export function shareSample<T>(take: () => Promise<T>, ttlMs = 1_000): () => Promise<T> {
  let taken: { at: number; sample: Promise<T> } | null = null;
  return () => {
    const now = Date.now();
    if (taken === null || now - taken.at >= ttlMs) taken = { at: now, sample: take() };
    return taken.sample;
  };
}

/** Rejects after `ms`: a scrape answers with what it has instead of waiting on a stuck dependency. */
export function withinMs<T>(ms: number, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
