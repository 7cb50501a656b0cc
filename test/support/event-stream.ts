/**
 * Server-Sent Events as a browser's EventSource reads them, for the subscription tests of both
 * doors (tRPC's `transactionUpdated` over SSE, GraphQL's subscriptions over SSE).
 */

/** Opens an SSE stream (`accept: text/event-stream`); the caller checks its status and type. */
export function openEventStream(url: string, init: RequestInit = {}): Promise<Response> {
  return fetch(url, { ...init, headers: { ...init.headers, accept: "text/event-stream" } });
}

/** A GraphQL subscription over SSE at `${baseUrl}/graphql`, with a bearer token. */
export function graphqlSubscription(baseUrl: string, token: string, query: string): Promise<Response> {
  return openEventStream(`${baseUrl}/graphql`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({ query }),
  });
}

/**
 * The first event whose `data:` (JSON) `pick` makes something of, read from the wire; null if the
 * stream ends or `timeoutMs` passes first. The stream is cancelled either way.
 */
export async function firstEvent<T>(
  response: Response,
  pick: (data: unknown) => T | undefined,
  timeoutMs = 10_000,
): Promise<T | null> {
  const reader = response.body?.getReader();
  if (!reader) throw new Error("no event stream");
  const decoder = new TextDecoder();
  const deadline = setTimeout(() => reader.cancel(), timeoutMs);
  let buffer = "";
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return null;
      buffer += decoder.decode(value, { stream: true });
      const lines = buffer.split("\n");
      // The last piece may be half a line: it waits for the rest.
      buffer = lines.pop() ?? "";
      for (const line of lines) {
        if (!line.startsWith("data:")) continue;
        const picked = pick(JSON.parse(line.slice(5)));
        if (picked !== undefined) return picked;
      }
    }
  } finally {
    clearTimeout(deadline);
    await reader.cancel().catch(() => undefined);
  }
}
