import { useState } from "preact/hooks";
import { request } from "../../api/client.ts";
import {
  eventCatalogue,
  type Replay,
  replayEvents,
  type WebhookEndpoint,
  webhookEventsQuery,
} from "../../api/developer-documents.ts";
import { useQuery } from "../../api/use-query.ts";
import { OlderPager } from "../older-pager.tsx";
import { EndpointPicker } from "./endpoint-picker.tsx";
import { refusalWords } from "./refusal-words.ts";

const perPage = 25;

/** The body as the receiver gets it, indented for reading (it is JSON the API produced). */
function pretty(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}

/** A `datetime-local` value read as UTC (the page shows every time in UTC), as ISO 8601. */
function utcInstant(value: string): string | null {
  return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(value) ? `${value}:00Z` : null;
}

/**
 * The user's recent events, newest first, filtered by type; an event's body; and replay, of one
 * event or of every event of a period, to a chosen endpoint.
 */
export function Events({
  endpoints,
  revision,
  onReplayed,
}: {
  endpoints: readonly WebhookEndpoint[];
  revision: number;
  onReplayed(endpoint: string): void;
}) {
  const [type, setType] = useState("");
  const [before, setBefore] = useState<readonly string[]>([]);
  const [open, setOpen] = useState<string>();
  const [picked, setPicked] = useState("");
  const [from, setFrom] = useState("");
  const [to, setTo] = useState("");
  const [said, setSaid] = useState("");
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const cursor = before.at(-1);
  const {
    data,
    error: loadError,
    loading,
  } = useQuery(
    (signal) =>
      request(webhookEventsQuery, { type: type || null, before: cursor ?? null, limit: perPage }, signal),
    [type, cursor, cursor === undefined ? revision : 0],
  );
  const rows = data?.webhookEvents ?? [];
  const last = rows.at(-1);
  const endpoint = endpoints.some((item) => item.id === picked) ? picked : (endpoints[0]?.id ?? "");

  const replay = async (what: Replay) => {
    setBusy(true);
    setError(undefined);
    setSaid("Replaying…");
    try {
      const queued = await replayEvents(endpoint, what);
      setSaid(
        queued.length === 0
          ? "No event of yours falls in that period: nothing was sent."
          : `${queued.length} event${queued.length === 1 ? "" : "s"} queued for delivery again to ${endpoint}.`,
      );
      onReplayed(endpoint);
    } catch (failure) {
      setSaid("");
      setError(refusalWords(failure, "The events could not be replayed. Try again."));
    } finally {
      setBusy(false);
    }
  };
  const replayRange = (event: Event) => {
    event.preventDefault();
    const start = utcInstant(from);
    const end = utcInstant(to);
    if (!start || !end) return setError("Give the start and the end of the period (UTC).");
    if (start >= end) return setError("The start of the period must be before its end.");
    void replay({ from: start, to: end });
  };

  return (
    <section class="panel developers-events" aria-labelledby="events-title">
      <h2 id="events-title">Events</h2>
      <div class="filters">
        <div class="field">
          <label for="events-type">Event type</label>
          <select
            id="events-type"
            value={type}
            onChange={(event) => {
              setType(event.currentTarget.value);
              setBefore([]);
            }}
          >
            <option value="">All types</option>
            {eventCatalogue.map((item) => (
              <option key={item} value={item}>
                {item}
              </option>
            ))}
          </select>
        </div>
        {endpoints.length > 0 ? (
          <EndpointPicker
            id="replay-endpoint"
            label="Replay to endpoint"
            endpoints={endpoints}
            value={endpoint}
            onChange={setPicked}
          />
        ) : null}
      </div>
      {error ? (
        <p class="form-error" role="alert">
          {error}
        </p>
      ) : null}
      <p class="replay-outcome" role="status">
        {said}
      </p>
      {loadError ? <p role="alert">{loadError}</p> : null}
      {data && rows.length === 0 ? (
        <p class="muted">{cursor ? "No older events." : type ? `No ${type} events.` : "No events yet."}</p>
      ) : (
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scroll region must be reachable by keyboard
        <section class="table-scroll" tabIndex={0} aria-label="Events, scrollable">
          <table class="cards" aria-label="Events" aria-busy={loading}>
            <thead>
              <tr>
                <th scope="col">Type</th>
                <th scope="col">Time (UTC)</th>
                <th scope="col">Event id</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((event) => (
                <tr key={event.id} data-id={event.id}>
                  <td data-label="Type" class="mono">
                    {event.type}
                    {event.livemode ? "" : " (test)"}
                  </td>
                  <td data-label="Time (UTC)">{event.createdAt}</td>
                  <td data-label="Event id" class="mono">
                    {event.id}
                  </td>
                  <td data-label="Actions">
                    <span class="actions">
                      <button
                        type="button"
                        class="secondary small"
                        aria-expanded={open === event.id}
                        aria-label={`Body of ${event.id}`}
                        onClick={() => setOpen(open === event.id ? undefined : event.id)}
                      >
                        Body
                      </button>
                      <button
                        type="button"
                        class="secondary small"
                        aria-label={`Replay ${event.id}`}
                        disabled={busy || endpoint === ""}
                        onClick={() => void replay({ events: [event.id] })}
                      >
                        Replay
                      </button>
                    </span>
                    {open === event.id ? (
                      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scroll box must be reachable by keyboard
                      <pre class="event-body mono" tabIndex={0}>
                        {pretty(event.body)}
                      </pre>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      )}
      <OlderPager
        before={before}
        lastId={last?.id}
        full={rows.length === perPage}
        noun="events"
        onPage={setBefore}
      />
      {endpoints.length > 0 ? (
        <form class="filters replay-range" aria-label="Replay a period" onSubmit={replayRange}>
          <label>
            Replay from (UTC)
            <input
              type="datetime-local"
              value={from}
              onInput={(event) => setFrom(event.currentTarget.value)}
            />
          </label>
          <label>
            Until (UTC)
            <input type="datetime-local" value={to} onInput={(event) => setTo(event.currentTarget.value)} />
          </label>
          <div class="filter-actions">
            <button type="submit" class="secondary" disabled={busy}>
              Replay the period
            </button>
          </div>
        </form>
      ) : null}
    </section>
  );
}
