import { afterAll, vi } from "vitest";

/**
 * Test files share their worker process with the files run before and after them in it
 * (`isolate: false`, vitest.config.ts): the packages' modules are loaded once per worker, not once
 * per file. What a file changes of the process would then reach the next file, so a file that
 * leaves an environment variable changed or fake timers installed fails here, naming what it left.
 * Taken when the file starts (setup files run again before every file, isolated or not).
 */
const environment = { ...process.env };

afterAll(() => {
  const names = new Set([...Object.keys(environment), ...Object.keys(process.env)]);
  const changed = [...names].filter((name) => environment[name] !== process.env[name]);
  if (changed.length > 0)
    throw new Error(
      `this file left the environment changed (${changed.join(", ")}): the next file in its worker would see it; restore it in afterAll (vi.unstubAllEnvs())`,
    );
  if (vi.isFakeTimers())
    throw new Error(
      "this file left fake timers installed: the next file in its worker would run on them; restore real ones (vi.useRealTimers())",
    );
});
