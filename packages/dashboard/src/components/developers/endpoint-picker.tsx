import type { WebhookEndpoint } from "../../api/developer-documents.ts";

/** A select of the user's endpoints, labelled beside it so its options stay out of its name. */
export function EndpointPicker({
  id,
  label,
  endpoints,
  value,
  onChange,
}: {
  id: string;
  label: string;
  endpoints: readonly WebhookEndpoint[];
  value: string;
  onChange(id: string): void;
}) {
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <select id={id} value={value} onChange={(event) => onChange(event.currentTarget.value)}>
        {endpoints.map((endpoint) => (
          <option key={endpoint.id} value={endpoint.id}>
            {endpoint.id} · {endpoint.url}
          </option>
        ))}
      </select>
    </div>
  );
}
