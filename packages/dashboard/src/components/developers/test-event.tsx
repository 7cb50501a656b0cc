import { useState } from "preact/hooks";
import { request } from "../../api/client.ts";
import {
  deliveryAttemptsQuery,
  eventCatalogue,
  sendTestEvent,
  type WebhookEndpoint,
} from "../../api/developer-documents.ts";
import { outcome } from "./deliveries.tsx";
import { EndpointPicker } from "./endpoint-picker.tsx";
import { refusalWords } from "./refusal-words.ts";

// How long the page waits for the first attempt of a test event: delivery runs from the outbox.
const waitMs = 20_000;
const pollMs = 500;

/** Waits for the test event's first attempt in the endpoint's delivery log. */
async function firstAttempt(endpoint: string, eventId: string): Promise<string | null> {
  const deadline = Date.now() + waitMs;
  while (Date.now() < deadline) {
    const { webhookDeliveryAttempts } = await request(deliveryAttemptsQuery, { endpoint, limit: 20 });
    const attempt = webhookDeliveryAttempts.find((item) => item.eventId === eventId);
    if (attempt) return `${outcome(attempt)} in ${attempt.durationMs} ms.`;
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
  return null;
}

/** Sends a signed sample of one event type (livemode false) to one endpoint and says how it went. */
export function SendTestEvent({
  endpoints,
  onSent,
}: {
  endpoints: readonly WebhookEndpoint[];
  onSent(endpoint: string): void;
}) {
  const [type, setType] = useState<string>(eventCatalogue[0]);
  const [picked, setPicked] = useState("");
  const [busy, setBusy] = useState(false);
  const [said, setSaid] = useState("");
  const [error, setError] = useState<string>();
  const endpoint = endpoints.some((item) => item.id === picked) ? picked : (endpoints[0]?.id ?? "");

  const send = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    setSaid("Sending…");
    try {
      const eventId = await sendTestEvent(endpoint, type);
      setSaid(`Test event ${eventId} sent; waiting for the endpoint's answer…`);
      const disabled = endpoints.find((item) => item.id === endpoint)?.enabled === false;
      const result = disabled ? null : await firstAttempt(endpoint, eventId);
      setSaid(
        result
          ? `Test event ${eventId}: ${result}`
          : disabled
            ? `Test event ${eventId} is queued: the endpoint is disabled and gets it once enabled.`
            : `Test event ${eventId} is queued; its attempts will appear under Deliveries.`,
      );
      onSent(endpoint);
    } catch (failure) {
      setSaid("");
      setError(refusalWords(failure, "The test event could not be sent. Try again."));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section class="panel developers-test" aria-labelledby="test-event-title">
      <h2 id="test-event-title">Send test event</h2>
      {endpoints.length === 0 ? (
        <p class="muted">Add an endpoint to send it a test event.</p>
      ) : (
        <form class="filters" aria-label="Send test event" onSubmit={(event) => void send(event)}>
          <div class="field">
            <label for="test-event-type">Event type</label>
            <select
              id="test-event-type"
              value={type}
              onChange={(event) => setType(event.currentTarget.value)}
            >
              {eventCatalogue.map((item) => (
                <option key={item} value={item}>
                  {item}
                </option>
              ))}
            </select>
          </div>
          <EndpointPicker
            id="test-event-endpoint"
            label="To endpoint"
            endpoints={endpoints}
            value={endpoint}
            onChange={setPicked}
          />
          <div class="filter-actions">
            <button type="submit" disabled={busy}>
              Send test event
            </button>
          </div>
          {error ? (
            <p class="form-error" role="alert">
              {error}
            </p>
          ) : null}
        </form>
      )}
      <p class="test-outcome" role="status">
        {said}
      </p>
      <p class="muted">
        A sample body of that type, signed with the endpoint's secret, with "livemode": false.
      </p>
    </section>
  );
}
