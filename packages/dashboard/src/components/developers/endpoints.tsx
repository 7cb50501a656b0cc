import { useState } from "preact/hooks";
import {
  createEndpoint,
  deleteEndpoint,
  type EndpointInput,
  rotateSecret,
  updateEndpoint,
  type WebhookEndpoint,
} from "../../api/developer-documents.ts";
import { EndpointForm } from "./endpoint-form.tsx";
import { refusalWords } from "./refusal-words.ts";
import { SecretOnce } from "./secret-once.tsx";

type Editing =
  | { readonly kind: "none" }
  | { readonly kind: "new" }
  | { readonly kind: "edit"; readonly id: string };
type Secret = { readonly title: string; readonly value: string };

const eventsText = (events: readonly string[]) => (events.includes("*") ? "All events" : events.join(", "));

/**
 * The signed-in user's webhook endpoints: add, edit, enable or disable, rotate the secret (the
 * old one keeps signing during the overlap) and delete after a confirmation. A new secret is
 * shown once. `onChanged` reloads the list the whole section shares.
 */
export function WebhookEndpoints({
  endpoints,
  loadError,
  onChanged,
  onShowDeliveries,
}: {
  endpoints: readonly WebhookEndpoint[] | undefined;
  loadError: string | undefined;
  onChanged(): void;
  onShowDeliveries(id: string): void;
}) {
  const [editing, setEditing] = useState<Editing>({ kind: "none" });
  const [confirming, setConfirming] = useState<string>();
  const [secret, setSecret] = useState<Secret>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const [said, setSaid] = useState("");

  /** Runs one change; a refusal becomes words in the panel, a success reloads the list. */
  const run = async (fallback: string, change: () => Promise<string | undefined>) => {
    setBusy(true);
    setError(undefined);
    try {
      const done = await change();
      if (done) setSaid(done);
      onChanged();
      return true;
    } catch (failure) {
      setError(refusalWords(failure, fallback));
      return false;
    } finally {
      setBusy(false);
    }
  };

  const save = async (input: EndpointInput) => {
    const current = editing;
    const ok = await run("The endpoint could not be saved. Check the fields and try again.", async () => {
      if (current.kind === "edit") {
        await updateEndpoint(current.id, input);
        return `Endpoint ${current.id} saved.`;
      }
      const created = await createEndpoint(input);
      setSecret({ title: `Endpoint ${created.id} added: its signing secret`, value: created.secret });
      return `Endpoint ${created.id} added.`;
    });
    if (ok) setEditing({ kind: "none" });
  };
  const editingEndpoint =
    editing.kind === "edit" ? endpoints?.find((item) => item.id === editing.id) : undefined;

  return (
    <section class="panel developers-endpoints" aria-labelledby="endpoints-title">
      <div class="panel-head">
        <h2 id="endpoints-title">Webhook endpoints</h2>
        {editing.kind === "none" ? (
          <button type="button" onClick={() => setEditing({ kind: "new" })}>
            Add endpoint
          </button>
        ) : null}
      </div>
      <p class="muted">
        Purse signs each event with the endpoint's own secret (Standard Webhooks headers) and retries a failed
        delivery for about three days.
      </p>
      {secret ? (
        <SecretOnce title={secret.title} secret={secret.value} onDone={() => setSecret(undefined)} />
      ) : null}
      {editing.kind !== "none" && (editing.kind === "new" || editingEndpoint) ? (
        <EndpointForm
          key={editing.kind === "edit" ? editing.id : "new"}
          {...(editingEndpoint ? { endpoint: editingEndpoint } : {})}
          busy={busy}
          error={error}
          onSubmit={(input) => void save(input)}
          onCancel={() => {
            setEditing({ kind: "none" });
            setError(undefined);
          }}
        />
      ) : error ? (
        <p class="form-error" role="alert">
          {error}
        </p>
      ) : null}
      {loadError ? <p role="alert">{loadError}</p> : null}
      <p class="visually-hidden" role="status">
        {said}
      </p>
      {endpoints && endpoints.length === 0 ? (
        <p class="muted">No webhook endpoints yet. Add one to receive events.</p>
      ) : (
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scroll region must be reachable by keyboard
        <section class="table-scroll" tabIndex={0} aria-label="Webhook endpoints, scrollable">
          <table class="cards" aria-label="Webhook endpoints" aria-busy={endpoints === undefined}>
            <thead>
              <tr>
                <th scope="col">Endpoint</th>
                <th scope="col">Events</th>
                <th scope="col">Status</th>
                <th scope="col">Secret</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {(endpoints ?? []).map((endpoint) => (
                <tr key={endpoint.id} data-id={endpoint.id}>
                  <td data-label="Endpoint">
                    <span class="cell-stack">
                      <span class="url mono">{endpoint.url}</span>
                      <span class="muted">
                        <span class="mono">{endpoint.id}</span>
                        {endpoint.description ? ` · ${endpoint.description}` : ""}
                      </span>
                    </span>
                  </td>
                  <td data-label="Events">{eventsText(endpoint.events)}</td>
                  <td data-label="Status">
                    <span class={endpoint.enabled ? "badge badge-success" : "badge"}>
                      {endpoint.enabled ? "Enabled" : "Disabled"}
                    </span>
                  </td>
                  <td data-label="Secret">
                    {endpoint.previousSecretUntil
                      ? `Rotated: the old one signs too until ${endpoint.previousSecretUntil} UTC`
                      : "One secret"}
                  </td>
                  <td data-label="Actions">
                    {confirming === endpoint.id ? (
                      <span class="actions">
                        <span>Delete it and its delivery log?</span>
                        <button
                          type="button"
                          class="danger small"
                          disabled={busy}
                          onClick={() =>
                            void run("The endpoint could not be deleted. Try again.", async () => {
                              await deleteEndpoint(endpoint.id);
                              setConfirming(undefined);
                              return `Endpoint ${endpoint.id} deleted.`;
                            })
                          }
                        >
                          Yes, delete {endpoint.id}
                        </button>
                        <button
                          type="button"
                          class="secondary small"
                          onClick={() => setConfirming(undefined)}
                        >
                          Keep it
                        </button>
                      </span>
                    ) : (
                      <span class="actions">
                        <button
                          type="button"
                          class="secondary small"
                          aria-label={`Edit ${endpoint.id}`}
                          onClick={() => {
                            setError(undefined);
                            setEditing({ kind: "edit", id: endpoint.id });
                          }}
                        >
                          Edit
                        </button>
                        <button
                          type="button"
                          class="secondary small"
                          aria-label={`${endpoint.enabled ? "Disable" : "Enable"} ${endpoint.id}`}
                          disabled={busy}
                          onClick={() =>
                            void run("The endpoint could not be changed. Try again.", async () => {
                              await updateEndpoint(endpoint.id, { enabled: !endpoint.enabled });
                              return `Endpoint ${endpoint.id} ${endpoint.enabled ? "disabled" : "enabled"}.`;
                            })
                          }
                        >
                          {endpoint.enabled ? "Disable" : "Enable"}
                        </button>
                        <button
                          type="button"
                          class="secondary small"
                          aria-label={`Rotate secret of ${endpoint.id}`}
                          disabled={busy}
                          onClick={() =>
                            void run("The secret could not be rotated. Try again.", async () => {
                              const rotated = await rotateSecret(endpoint.id);
                              const until = rotated.previousSecretUntil
                                ? ` (the old one signs too until ${rotated.previousSecretUntil} UTC)`
                                : "";
                              setSecret({
                                title: `New signing secret of ${endpoint.id}${until}`,
                                value: rotated.secret,
                              });
                              return `Secret of ${endpoint.id} rotated.`;
                            })
                          }
                        >
                          Rotate secret
                        </button>
                        <button
                          type="button"
                          class="secondary small"
                          aria-label={`Deliveries of ${endpoint.id}`}
                          onClick={() => onShowDeliveries(endpoint.id)}
                        >
                          Deliveries
                        </button>
                        <button
                          type="button"
                          class="secondary small"
                          aria-label={`Delete ${endpoint.id}`}
                          onClick={() => setConfirming(endpoint.id)}
                        >
                          Delete
                        </button>
                      </span>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      )}
    </section>
  );
}
