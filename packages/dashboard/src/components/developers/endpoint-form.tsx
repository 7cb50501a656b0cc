import { useState } from "preact/hooks";
import { type EndpointInput, eventCatalogue, type WebhookEndpoint } from "../../api/developer-documents.ts";

// Bounds the API enforces too: checked here first so a mistake is named before anything is sent.
const maxUrl = 2048;
const maxDescription = 255;

/** What the form can say before sending: null when it may be sent. */
function check(input: EndpointInput): string | null {
  if (input.url.trim() === "") return "Enter the URL that should receive the events.";
  if (input.url.length > maxUrl) return "The URL is too long: at most 2,048 characters.";
  if (!/^https?:\/\//i.test(input.url.trim())) return "The URL must start with https://.";
  if (input.events.length === 0) return "Choose at least one event type, or all events.";
  if (input.description.length > maxDescription)
    return "The description is too long: at most 255 characters.";
  return null;
}

/**
 * Adds an endpoint or changes one: URL, the events it receives (all of the catalogue or chosen
 * ones), a description, and whether it is enabled. `error` is the server's refusal, in words.
 */
export function EndpointForm({
  endpoint,
  busy,
  error,
  onSubmit,
  onCancel,
}: {
  endpoint?: WebhookEndpoint;
  busy: boolean;
  error: string | undefined;
  onSubmit(input: EndpointInput): void;
  onCancel(): void;
}) {
  const [url, setUrl] = useState(endpoint?.url ?? "");
  const [description, setDescription] = useState(endpoint?.description ?? "");
  const [enabled, setEnabled] = useState(endpoint?.enabled ?? true);
  const [all, setAll] = useState(endpoint ? endpoint.events.includes("*") : true);
  const [chosen, setChosen] = useState<readonly string[]>(
    endpoint?.events.filter((event) => event !== "*") ?? [],
  );
  const [problem, setProblem] = useState<string>();
  const title = endpoint ? `Edit endpoint ${endpoint.id}` : "Add an endpoint";

  const submit = (event: Event) => {
    event.preventDefault();
    const input = { url: url.trim(), description, enabled, events: all ? ["*"] : chosen };
    const found = check(input);
    setProblem(found ?? undefined);
    if (!found) onSubmit(input);
  };
  const toggle = (type: string, on: boolean) =>
    setChosen((previous) => (on ? [...previous, type] : previous.filter((item) => item !== type)));
  const shown = problem ?? error;

  return (
    <form class="endpoint-form" aria-label={title} onSubmit={submit} noValidate>
      <h3>{title}</h3>
      <label>
        Endpoint URL
        <input
          type="url"
          value={url}
          maxLength={maxUrl}
          required
          placeholder="https://example.com/webhooks/purse"
          onInput={(event) => setUrl(event.currentTarget.value)}
        />
      </label>
      <label>
        Description
        <input
          type="text"
          value={description}
          maxLength={maxDescription}
          onInput={(event) => setDescription(event.currentTarget.value)}
        />
      </label>
      <fieldset class="event-choice">
        <legend>Events to send</legend>
        <label class="check">
          <input type="checkbox" checked={all} onChange={(event) => setAll(event.currentTarget.checked)} />
          All events, present and future
        </label>
        {all
          ? null
          : eventCatalogue.map((type) => (
              <label class="check" key={type}>
                <input
                  type="checkbox"
                  checked={chosen.includes(type)}
                  onChange={(event) => toggle(type, event.currentTarget.checked)}
                />
                <span class="mono">{type}</span>
              </label>
            ))}
      </fieldset>
      <label class="check">
        <input
          type="checkbox"
          checked={enabled}
          onChange={(event) => setEnabled(event.currentTarget.checked)}
        />
        Enabled (deliver events to it)
      </label>
      {shown ? (
        <p class="form-error" role="alert">
          {shown}
        </p>
      ) : null}
      <div class="form-actions">
        <button type="submit" disabled={busy}>
          {endpoint ? "Save endpoint" : "Add endpoint"}
        </button>
        <button type="button" class="secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
