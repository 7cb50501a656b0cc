/**
 * What a Purse process says of its own tail during a phase, from its `/metrics` (prom-client's
 * default metrics): the garbage collector's pauses and the event loop's delay. A p99 far above the
 * p50 comes from somewhere: these say whether the process itself stalled.
 */
export interface MetricSample {
  /** When it was taken, in seconds (`performance.now()`). */
  readonly at: number;
  readonly values: ReadonlyMap<string, number>;
}

/** The process's metrics now. prom-client restarts its event-loop histogram at each scrape. */
export async function sampleRuntime(url: string): Promise<MetricSample> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const at = performance.now() / 1000;
  const values = new Map<string, number>();
  for (const line of text.split("\n")) {
    if (line.startsWith("#") || line.length === 0) continue;
    const cut = line.lastIndexOf(" ");
    values.set(line.slice(0, cut), Number(line.slice(cut + 1)));
  }
  return { at, values };
}

export interface RuntimeTail {
  /** Milliseconds of garbage-collector pauses per answered transfer, every kind. */
  readonly gcMsPerTransfer: number;
  /** Full (mark-compact) collections during the phase, and their pauses' total in ms. */
  readonly majorCount: number;
  readonly majorMs: number;
  /** The event loop's delay over the phase (prom-client samples every 10 ms; included). */
  readonly loopP99Ms: number;
  readonly loopMaxMs: number;
  /** The share of the phase the event loop was running callbacks: near 1, the loop is the bound. */
  readonly loopBusy: number;
}

const loopBusySeconds = "purse_nodejs_eventloop_busy_seconds_total";

const gc = (sample: MetricSample, field: "sum" | "count", kind: string) =>
  sample.values.get(`purse_nodejs_gc_duration_seconds_${field}{kind="${kind}"}`) ?? 0;

/** The phase between two samples, the second taken when it ended. */
export function runtimeTail(before: MetricSample, after: MetricSample, transfers: number): RuntimeTail {
  const kinds = ["minor", "major", "incremental", "weakcb"];
  const gcSeconds = kinds.reduce((sum, kind) => sum + gc(after, "sum", kind) - gc(before, "sum", kind), 0);
  return {
    gcMsPerTransfer: (gcSeconds * 1000) / Math.max(1, transfers),
    majorCount: gc(after, "count", "major") - gc(before, "count", "major"),
    majorMs: (gc(after, "sum", "major") - gc(before, "sum", "major")) * 1000,
    loopP99Ms: (after.values.get("purse_nodejs_eventloop_lag_p99_seconds") ?? 0) * 1000,
    loopMaxMs: (after.values.get("purse_nodejs_eventloop_lag_max_seconds") ?? 0) * 1000,
    loopBusy:
      ((after.values.get(loopBusySeconds) ?? 0) - (before.values.get(loopBusySeconds) ?? 0)) /
      Math.max(1e-9, after.at - before.at),
  };
}

export function describeTail(tail: RuntimeTail): string {
  return `GC ${tail.gcMsPerTransfer.toFixed(3)} ms per transfer (${tail.majorCount} full collections, ${tail.majorMs.toFixed(0)} ms), event-loop delay p99 ${tail.loopP99Ms.toFixed(0)} ms, max ${tail.loopMaxMs.toFixed(0)} ms, event loop busy ${(tail.loopBusy * 100).toFixed(0)} % of the phase`;
}
