import autocannon from "autocannon";

export interface LoadResult {
  readonly perSecond: number;
  readonly p50: number;
  readonly p99: number;
  readonly ok: number;
  readonly refused: number;
  readonly errors: number;
}

export interface LoadTarget {
  readonly url: string;
  readonly path: string;
  /** POST unless told; a GET sends no body. */
  readonly method?: "GET" | "POST";
  /** Headers and body of the n-th request. */
  request(sequence: number): { headers: Record<string, string>; body?: string };
}

/** Drives POST requests at `targets` together (connections split evenly) and merges the figures. */
export async function drive(
  targets: readonly LoadTarget[],
  connections: number,
  seconds: number,
): Promise<LoadResult> {
  let sequence = 0;
  const results = await Promise.all(
    targets.map((target) =>
      autocannon({
        url: target.url,
        connections: Math.max(1, Math.floor(connections / targets.length)),
        duration: seconds,
        requests: [
          {
            method: target.method ?? "POST",
            path: target.path,
            setupRequest: (request) => {
              sequence += 1;
              return { ...request, ...target.request(sequence) };
            },
          },
        ],
      }),
    ),
  );
  return {
    perSecond: results.reduce((sum, result) => sum + result["2xx"] / seconds, 0),
    p50: Math.max(...results.map((result) => result.latency.p50)),
    p99: Math.max(...results.map((result) => result.latency.p99)),
    ok: results.reduce((sum, result) => sum + result["2xx"], 0),
    refused: results.reduce((sum, result) => sum + result.non2xx, 0),
    errors: results.reduce((sum, result) => sum + result.errors + result.timeouts, 0),
  };
}
