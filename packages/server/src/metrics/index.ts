export { createPurseMetrics, type PurseMetrics } from "./purse-metrics.ts";
