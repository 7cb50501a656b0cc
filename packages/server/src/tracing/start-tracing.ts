import { setActiveTracing } from "./active-tracing.ts";
import { tracesAsked } from "./traces-asked.ts";

/**
 * What bin/purse.js runs before it loads the app when traces are asked for: the OpenTelemetry SDK
 * starts with its module hooks in place before pg and ioredis load (they are patched as they
 * load, never afterwards). The SDK is a dynamic import, so a run without traces that comes here
 * (the unbundled layouts always do) loads nothing of it.
 */
export async function startTracingIfAsked(
  argv: readonly string[] = process.argv,
  env: NodeJS.ProcessEnv = process.env,
): Promise<boolean> {
  const settings = tracesAsked(argv, env);
  if (settings === null) return false;
  const { startTracing } = await import("./tracing-sdk.ts");
  setActiveTracing(await startTracing(settings));
  return true;
}
