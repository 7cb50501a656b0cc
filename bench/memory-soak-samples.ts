import { readFile } from "node:fs/promises";

/** One look at the server: its resident set from /proc, V8's heap from its /metrics. */
export interface SoakSample {
  readonly atSeconds: number;
  /** What the clients were doing when it was taken: asking and calling, pausing, or done. */
  readonly phase: "active" | "pause" | "after";
  readonly rssMb: number;
  readonly heapUsedMb: number;
  readonly heapTotalMb: number;
}

const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;

export async function sampleServer(
  url: string,
  pid: number | undefined,
  started: number,
  phase: SoakSample["phase"],
): Promise<SoakSample> {
  const status = await readFile(`/proc/${pid}/status`, "utf8").catch(() => "");
  const rssKb = Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0);
  // prom-client's default metrics (metrics/purse-metrics.ts), read as any scraper does.
  const metrics = await fetch(`${url}/metrics`).then(
    (response) => response.text(),
    () => "",
  );
  const gauge = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, "m").exec(metrics)?.[1] ?? 0);
  return {
    atSeconds: Math.round((Date.now() - started) / 1000),
    phase,
    rssMb: mb(rssKb * 1024),
    heapUsedMb: mb(gauge("purse_nodejs_heap_size_used_bytes")),
    heapTotalMb: mb(gauge("purse_nodejs_heap_size_total_bytes")),
  };
}

/** The figures the soak reports: ready, after the first burst, peak, the load's end, after it. */
export function summarizeSamples(samples: readonly SoakSample[]) {
  const [ready] = samples;
  const during = samples.filter((sample) => sample.phase !== "after");
  const lastDuring = during.at(-1);
  const peak = (key: "rssMb" | "heapUsedMb") => Math.max(...samples.map((sample) => sample[key]));
  // The last third of the run against the first: a resident set that keeps climbing is a leak.
  const third = Math.floor(during.length / 3);
  const meanRss = (part: readonly SoakSample[]) =>
    Math.round(part.reduce((sum, sample) => sum + sample.rssMb, 0) / Math.max(1, part.length));
  return {
    samples: samples.length,
    readyRssMb: ready?.rssMb ?? 0,
    readyHeapUsedMb: ready?.heapUsedMb ?? 0,
    // The second sample, one period into the first burst of new clients.
    inFirstBurstRssMb: samples[1]?.rssMb ?? 0,
    peakRssMb: peak("rssMb"),
    peakHeapUsedMb: peak("heapUsedMb"),
    endOfLoadRssMb: lastDuring?.rssMb ?? 0,
    afterLoadRssMb: samples.at(-1)?.rssMb ?? 0,
    afterLoadHeapUsedMb: samples.at(-1)?.heapUsedMb ?? 0,
    meanRssFirstThirdMb: meanRss(during.slice(0, third)),
    meanRssLastThirdMb: meanRss(during.slice(-third)),
  };
}
