/**
 * What the standard OTEL_* variables ask of Purse (contract, row "Traces"): with an OTLP endpoint
 * set, traces go out over OTLP/HTTP; without one, nothing is loaded and nothing is traced. A value
 * Purse cannot honour stops the start with one line naming the variable, as every other setting does.
 */
export interface TraceExportSettings {
  /** OTLP/HTTP's two encodings; gRPC is not offered (the contract says OTLP/HTTP). */
  readonly protocol: "http/protobuf" | "http/json";
}

export class TraceSettingError extends Error {
  override readonly name = "TraceSettingError";
}

export function traceExportSettings(env: NodeJS.ProcessEnv): TraceExportSettings | null {
  const endpoint = firstSet(env, ["OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "OTEL_EXPORTER_OTLP_ENDPOINT"]);
  if (endpoint === undefined) return null;
  if (env["OTEL_SDK_DISABLED"]?.trim().toLowerCase() === "true") return null;
  const exporters = (env["OTEL_TRACES_EXPORTER"] ?? "").split(",").map((name) => name.trim());
  if (exporters.includes("none")) return null;
  const others = exporters.filter((name) => name !== "" && name !== "otlp");
  if (others.length > 0)
    throw new TraceSettingError(
      `OTEL_TRACES_EXPORTER: Purse exports traces over OTLP only (otlp, or none to turn them off), not ${others.join(", ")}`,
    );
  const target = env[endpoint.name] ?? "";
  if (!URL.canParse(target) || !/^https?:$/.test(new URL(target).protocol))
    throw new TraceSettingError(
      `${endpoint.name}: must be the http:// or https:// URL of an OTLP/HTTP receiver (e.g. http://collector:4318)`,
    );
  const protocol = firstSet(env, ["OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", "OTEL_EXPORTER_OTLP_PROTOCOL"]);
  const chosen = protocol === undefined ? "http/protobuf" : (env[protocol.name] ?? "").trim();
  if (chosen !== "http/protobuf" && chosen !== "http/json")
    throw new TraceSettingError(
      `${protocol?.name}: must be http/protobuf or http/json (Purse exports traces over OTLP/HTTP), not ${chosen}`,
    );
  return { protocol: chosen };
}

function firstSet(env: NodeJS.ProcessEnv, names: readonly string[]): { name: string } | undefined {
  const name = names.find((candidate) => (env[candidate] ?? "").trim() !== "");
  return name === undefined ? undefined : { name };
}
