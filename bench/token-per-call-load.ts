import pg from "pg";

/**
 * The load of issue 37 item 3: an integration that asks `/token` for a new token before every call
 * it makes (as a commercial exchanger's modules do on the wire), at a steady rate, against one or
 * more Purse processes behind a round-robin balancer; meanwhile another address hammers `/token`
 * with wrong secrets for the same client id. Run by `bench/token-per-call.ts` for ten minutes and
 * by `test/performance/token-per-call.test.ts` for twenty seconds.
 */
export interface TokenPerCallOptions {
  /** The Purse processes; calls go to each in turn, so tokens are issued by all of them at once. */
  readonly urls: readonly string[];
  readonly seconds: number;
  /** Calls the integration makes a second, each after a token of its own. */
  readonly callsPerSecond: number;
  readonly client: { readonly id: string; readonly secret: string };
  /** The integration's address (Purse must trust loopback's X-Forwarded-For). */
  readonly address: string;
  /** Every `every`-th call is a transfer with this body (the rest read the wallets). */
  readonly payout: { readonly every: number; body(sequence: number): Record<string, unknown> };
  /** The hammering address and its wrong-secret calls per second. */
  readonly hammer: { readonly address: string; readonly perSecond: number };
  /** The database Purse serves, read every `sampleEverySeconds` for the token table's size. */
  readonly databaseUrl: string;
  readonly sampleEverySeconds?: number;
}

/** How a run went, as counted by the client and read from the database. */
export interface TokenPerCallReport {
  readonly tokenStatuses: Readonly<Record<string, number>>;
  readonly callStatuses: Readonly<Record<string, number>>;
  readonly hammerStatuses: Readonly<Record<string, number>>;
  /** The first answer's body of each refusal seen by the integration, to say why. */
  readonly refusalBodies: Readonly<Record<string, string>>;
  readonly tokenMs: Percentiles;
  readonly callMs: Percentiles;
  /** The most live tokens the client held, and the most rows it had in access_tokens, at any sample. */
  readonly maxLiveTokens: number;
  readonly maxClientRows: number;
  readonly maxTableRows: number;
  readonly samples: number;
  /** Calls the integration made (each after a token of its own). */
  readonly cyclesStarted: number;
}

export interface Percentiles {
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
}

export async function runTokenPerCall(options: TokenPerCallOptions): Promise<TokenPerCallReport> {
  const tokenStatuses: Record<string, number> = {};
  const callStatuses: Record<string, number> = {};
  const hammerStatuses: Record<string, number> = {};
  const refusalBodies: Record<string, string> = {};
  const tokenTimes: number[] = [];
  const callTimes: number[] = [];
  const count = (tally: Record<string, number>, status: number | string) => {
    tally[status] = (tally[status] ?? 0) + 1;
  };
  const database = new pg.Client({ connectionString: options.databaseUrl });
  await database.connect();
  const table = { maxLive: 0, maxClientRows: 0, maxTableRows: 0, samples: 0 };
  const sample = async () => {
    const { rows } = await database.query<{ live: string; client_rows: string; table_rows: string }>(
      `select count(*) filter (where t.client_id = c.id and t.revoked_at is null and t.expires_at > now()) as live,
         count(*) filter (where t.client_id = c.id) as client_rows, count(*) as table_rows
       from access_tokens t, (select id from clients where client_id = $1) c`,
      [options.client.id],
    );
    const [row] = rows;
    table.maxLive = Math.max(table.maxLive, Number(row?.live ?? 0));
    table.maxClientRows = Math.max(table.maxClientRows, Number(row?.client_rows ?? 0));
    table.maxTableRows = Math.max(table.maxTableRows, Number(row?.table_rows ?? 0));
    table.samples += 1;
  };

  const cycle = async (sequence: number) => {
    const base = options.urls[sequence % options.urls.length] as string;
    const headers = { "content-type": "application/json", "x-forwarded-for": options.address };
    let started = performance.now();
    const token = await fetch(`${base}/token`, {
      method: "POST",
      headers,
      body: JSON.stringify({
        grant_type: "client_credentials",
        client_id: options.client.id,
        client_secret: options.client.secret,
      }),
    }).then(
      async (response) => {
        const text = await response.text();
        if (response.status !== 200) refusalBodies[`token ${response.status}`] ??= text.slice(0, 200);
        return { status: response.status, body: JSON.parse(text) as { access_token?: string } };
      },
      () => ({ status: "network error", body: {} as { access_token?: string } }),
    );
    tokenTimes.push(performance.now() - started);
    count(tokenStatuses, token.status);
    // The modules carry on without a token when refused: the call then fails with 401, as here.
    const authorization = `Bearer ${token.body.access_token ?? ""}`;
    const payout = sequence % options.payout.every === 0;
    started = performance.now();
    const status = await fetch(`${base}${payout ? "/api/transaction/transfer" : "/api/wallets"}`, {
      method: payout ? "POST" : "GET",
      headers: { ...headers, authorization },
      ...(payout ? { body: JSON.stringify(options.payout.body(sequence)) } : {}),
    }).then(
      async (response) => {
        const text = await response.text();
        if (response.status !== 200) refusalBodies[`call ${response.status}`] ??= text.slice(0, 200);
        return response.status;
      },
      () => "network error",
    );
    callTimes.push(performance.now() - started);
    count(callStatuses, payout ? `transfer ${status}` : `wallets ${status}`);
  };

  const guess = async (sequence: number) => {
    const base = options.urls[sequence % options.urls.length] as string;
    const status = await fetch(`${base}/token`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-for": options.hammer.address },
      body: JSON.stringify({
        grant_type: "client_credentials",
        client_id: options.client.id,
        client_secret: `guess-${sequence}`,
      }),
    }).then(
      async (response) => {
        await response.arrayBuffer();
        return response.status;
      },
      () => "network error",
    );
    count(hammerStatuses, status);
  };

  const running = new Set<Promise<void>>();
  const track = (work: Promise<void>) => {
    running.add(work);
    void work.finally(() => running.delete(work));
  };
  const startedAt = performance.now();
  const until = startedAt + options.seconds * 1000;
  // Each stream on a fixed schedule (the n-th at start + n × interval), whatever the answers take,
  // as a client with a timer does: slow answers pile up instead of slowing the client down.
  const stream = async (perSecond: number, run: (sequence: number) => Promise<void>) => {
    for (let sequence = 0; ; sequence += 1) {
      const due = startedAt + (sequence * 1000) / perSecond;
      if (due >= until) return sequence;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      track(run(sequence));
    }
  };
  const sampler = setInterval(
    () => {
      void sample().catch(() => undefined);
    },
    (options.sampleEverySeconds ?? 5) * 1000,
  );
  try {
    const [cyclesStarted] = await Promise.all([
      stream(options.callsPerSecond, cycle),
      stream(options.hammer.perSecond, guess),
    ]);
    while (running.size > 0) await Promise.all([...running]);
    await sample();
    return {
      tokenStatuses,
      callStatuses,
      hammerStatuses,
      refusalBodies,
      tokenMs: percentiles(tokenTimes),
      callMs: percentiles(callTimes),
      maxLiveTokens: table.maxLive,
      maxClientRows: table.maxClientRows,
      maxTableRows: table.maxTableRows,
      samples: table.samples,
      cyclesStarted,
    };
  } finally {
    clearInterval(sampler);
    await database.end();
  }
}

function percentiles(times: number[]): Percentiles {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (share: number) =>
    Math.round(sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))] ?? 0);
  return { p50: at(0.5), p99: at(0.99), max: Math.round(sorted.at(-1) ?? 0) };
}
