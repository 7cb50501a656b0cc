import { useEffect, useState } from "preact/hooks";
import { request } from "../../api/client.ts";
import { deliveryAttemptsQuery, type WebhookEndpoint } from "../../api/developer-documents.ts";
import { useQuery } from "../../api/use-query.ts";
import { EndpointPicker } from "./endpoint-picker.tsx";

/** What an attempt came to, in words: the HTTP status, or why there was none. */
export function outcome(attempt: { statusCode?: number | null; error?: string | null }): string {
  if (attempt.statusCode === null || attempt.statusCode === undefined)
    return `No answer${attempt.error ? ` (${attempt.error})` : ""}`;
  const ok = attempt.statusCode >= 200 && attempt.statusCode < 300;
  return `HTTP ${attempt.statusCode} ${ok ? "delivered" : "refused, will retry"}`;
}

// Retries and replays land after the action that caused them: the log reloads itself this often.
const refreshMs = 5_000;

/**
 * An endpoint's delivery attempts, newest first: time, HTTP status, duration, the answer's first
 * 1 KiB. Reloaded every few seconds while shown, and on **Refresh**.
 */
export function Deliveries({
  endpoints,
  endpoint,
  revision,
  onPick,
}: {
  endpoints: readonly WebhookEndpoint[];
  endpoint: string;
  revision: number;
  onPick(id: string): void;
}) {
  const [tick, setTick] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => setTick((value) => value + 1), refreshMs);
    return () => clearInterval(timer);
  }, []);
  const { data, error, loading } = useQuery(
    (signal) =>
      endpoint === ""
        ? Promise.resolve({ webhookDeliveryAttempts: [] })
        : request(deliveryAttemptsQuery, { endpoint, limit: 50 }, signal),
    [endpoint, revision, tick],
  );
  const rows = data?.webhookDeliveryAttempts ?? [];
  return (
    <section class="panel developers-deliveries" aria-labelledby="deliveries-title">
      <div class="panel-head">
        <h2 id="deliveries-title">Deliveries</h2>
        <button type="button" class="secondary" onClick={() => setTick((value) => value + 1)}>
          Refresh
        </button>
      </div>
      {endpoints.length === 0 ? (
        <p class="muted">Add an endpoint to see its deliveries.</p>
      ) : (
        <>
          <EndpointPicker
            id="deliveries-endpoint"
            label="Deliveries of"
            endpoints={endpoints}
            value={endpoint}
            onChange={onPick}
          />
          {error ? <p role="alert">{error}</p> : null}
          {data && rows.length === 0 ? (
            <p class="muted">No delivery attempts to this endpoint yet.</p>
          ) : (
            // biome-ignore lint/a11y/noNoninteractiveTabindex: a scroll region must be reachable by keyboard
            <section class="table-scroll" tabIndex={0} aria-label="Delivery attempts, scrollable">
              <table class="cards" aria-label="Delivery attempts" aria-busy={loading}>
                <thead>
                  <tr>
                    <th scope="col">Time (UTC)</th>
                    <th scope="col">Event</th>
                    <th scope="col">Outcome</th>
                    <th scope="col">Duration</th>
                    <th scope="col">Answer (first 1 KiB)</th>
                  </tr>
                </thead>
                <tbody>
                  {rows.map((attempt) => (
                    <tr key={attempt.id} data-event={attempt.eventId}>
                      <td data-label="Time (UTC)">{attempt.attemptedAt}</td>
                      <td data-label="Event">
                        <span class="cell-stack">
                          <span class="mono">{attempt.type}</span>
                          <span class="mono muted">{attempt.eventId}</span>
                        </span>
                      </td>
                      <td data-label="Outcome">{outcome(attempt)}</td>
                      <td data-label="Duration" class="num">
                        {attempt.durationMs} ms
                      </td>
                      <td data-label="Answer (first 1 KiB)">
                        <code class="mono answer">{attempt.answer ?? "—"}</code>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </section>
          )}
        </>
      )}
    </section>
  );
}
