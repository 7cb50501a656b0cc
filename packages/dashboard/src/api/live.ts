import { print } from "@0no-co/graphql.web";
import { graphqlUrl, sessionHeaders } from "./client.ts";
import { liveSubscription } from "./documents.ts";
import { modeHeaders, testModeRequests } from "./mode.ts";

export interface LiveHandlers {
  /** A committed change to one of the caller's transactions. */
  onChange(transactionId: number): void;
  /** The server refused the session (expired, revoked, signed out elsewhere). */
  onSessionEnded(): void;
  /** Connected (true) or waiting to reconnect (false). */
  onConnection(connected: boolean): void;
}

const longestWaitMs = 30_000;

/**
 * `transactionUpdated` over Server-Sent Events on a plain fetch: EventSource cannot send the
 * `x-purse-csrf` header cookie-authenticated requests need, and no token ever goes into a URL.
 * Reconnects with a growing wait when the stream ends or fails; stops for good on a refused
 * session or when the returned function is called.
 */
export function watchTransactions(handlers: LiveHandlers): () => void {
  const stop = new AbortController();
  let failures = 0;

  async function connect(): Promise<void> {
    while (!stop.signal.aborted) {
      const outcome = await streamOnce(handlers, stop.signal, () => {
        failures = 0;
      }).catch(() => "retry" as const);
      handlers.onConnection(false);
      if (outcome === "session-ended") return handlers.onSessionEnded();
      if (stop.signal.aborted) return;
      failures += 1;
      await wait(Math.min(longestWaitMs, 1000 * 2 ** Math.min(failures, 5)), stop.signal);
    }
  }
  void connect();
  return () => stop.abort();
}

async function streamOnce(
  handlers: LiveHandlers,
  signal: AbortSignal,
  connected: () => void,
): Promise<"ended" | "session-ended" | "retry"> {
  const response = await fetch(graphqlUrl, {
    method: "POST",
    credentials: "same-origin",
    // In test mode the stream carries the same switch: it tells of test transactions only.
    headers: {
      ...sessionHeaders,
      ...modeHeaders(testModeRequests()),
      "content-type": "application/json",
      accept: "text/event-stream",
    },
    body: JSON.stringify({ query: print(liveSubscription) }),
    signal,
  });
  if (response.status === 401) return "session-ended";
  if (!response.ok || !response.body) return "retry";
  handlers.onConnection(true);
  connected();
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return "ended";
    // Bounded: an event larger than this is not one of ours; drop what cannot be parsed.
    buffer = (buffer + value).slice(-65_536).replaceAll("\r\n", "\n");
    let end = buffer.indexOf("\n\n");
    while (end >= 0) {
      const outcome = handleEvent(buffer.slice(0, end), handlers);
      if (outcome) return outcome;
      buffer = buffer.slice(end + 2);
      end = buffer.indexOf("\n\n");
    }
  }
}

/** One SSE event (`event: next|complete`, `data: {...}`); comments (`:`) keep the line alive. */
function handleEvent(block: string, handlers: LiveHandlers): "ended" | "session-ended" | undefined {
  let kind = "message";
  let data = "";
  for (const line of block.split("\n")) {
    if (line.startsWith("event:")) kind = line.slice(6).trim();
    else if (line.startsWith("data:")) data += line.slice(5).trim();
  }
  if (kind === "complete") return "ended";
  if (!data) return undefined;
  let payload: {
    data?: { transactionUpdated?: { transactionId?: unknown } };
    errors?: { extensions?: { code?: unknown } }[];
  };
  try {
    payload = JSON.parse(data);
  } catch {
    return undefined;
  }
  if (payload.errors?.some((error) => error.extensions?.code === "UNAUTHORIZED")) return "session-ended";
  const id = payload.data?.transactionUpdated?.transactionId;
  if (typeof id === "number") handlers.onChange(id);
  return undefined;
}

function wait(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}
