export * from "./engine-metrics.ts";
export * from "./recorded-movements.ts";
export * from "./refusal-reason.ts";
