import { type TraceExportSettings, TraceSettingError, traceExportSettings } from "./trace-export-settings.ts";

/**
 * Whether this run is to be traced: `purse serve` with an OTLP endpoint set (operator verbs are
 * not traced). A bad OTEL_* value stops the start here, with one line naming the variable, as
 * every other bad setting does (cli/main.ts). bin/purse.js asks this before it loads anything
 * else, to choose the build to run; nothing of OpenTelemetry is loaded by it.
 */
export function tracesAsked(
  argv: readonly string[] = process.argv,
  env: NodeJS.ProcessEnv = process.env,
): TraceExportSettings | null {
  if (argv.slice(2).find((word) => !word.startsWith("-")) !== "serve") return null;
  try {
    return traceExportSettings(env);
  } catch (error) {
    if (!(error instanceof TraceSettingError)) throw error;
    console.error(`purse: cannot start: ${error.message}`);
    process.exit(1);
  }
}
