import { describe, expect, it } from "vitest";
import { traceExportSettings } from "./trace-export-settings.ts";

const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318" };

describe("which OTEL_* settings turn traces on", () => {
  it("is off without an OTLP endpoint, or when the SDK or the traces exporter is turned off", () => {
    expect(traceExportSettings({})).toBeNull();
    expect(traceExportSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: " " })).toBeNull();
    expect(traceExportSettings({ ...endpoint, OTEL_SDK_DISABLED: "TRUE" })).toBeNull();
    expect(traceExportSettings({ ...endpoint, OTEL_TRACES_EXPORTER: "none" })).toBeNull();
  });

  it("is on with the general or the traces endpoint, over OTLP/HTTP protobuf unless JSON is asked for", () => {
    expect(traceExportSettings(endpoint)).toEqual({ protocol: "http/protobuf" });
    expect(
      traceExportSettings({
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "https://collector/v1/traces",
        OTEL_TRACES_EXPORTER: "otlp",
      }),
    ).toEqual({ protocol: "http/protobuf" });
    expect(traceExportSettings({ ...endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: "http/json" })).toEqual({
      protocol: "http/json",
    });
    // The signal's own variable wins over the general one, as the specification orders them.
    expect(
      traceExportSettings({
        ...endpoint,
        OTEL_EXPORTER_OTLP_PROTOCOL: "grpc",
        OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: "http/json",
      }),
    ).toEqual({ protocol: "http/json" });
  });

  it("refuses what it cannot honour, naming the variable", () => {
    expect(() => traceExportSettings({ ...endpoint, OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: "grpc" })).toThrow(
      /^OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: must be http\/protobuf or http\/json/,
    );
    expect(() => traceExportSettings({ ...endpoint, OTEL_TRACES_EXPORTER: "zipkin" })).toThrow(
      /^OTEL_TRACES_EXPORTER: Purse exports traces over OTLP only .*not zipkin$/,
    );
    expect(() => traceExportSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: "collector:4318" })).toThrow(
      /^OTEL_EXPORTER_OTLP_ENDPOINT: must be the http:\/\/ or https:\/\/ URL/,
    );
  });
});
