import { type ChildProcess, spawn } from "node:child_process";

/** A real redis-server of the test's own on `port`, so a test can stop and restart one node. */
export async function startRedis(port: number): Promise<ChildProcess> {
  const redis = spawn("redis-server", ["--port", String(port), "--save", "", "--appendonly", "no"], {
    stdio: "ignore",
  });
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const answered = await fetch(`http://127.0.0.1:${port}`).then(
      () => true,
      (error: Error) => !String((error.cause as Error | undefined)?.message).includes("ECONNREFUSED"),
    );
    if (answered) return redis;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`redis-server on ${port} did not start`);
}

/** Kills the node at once (no shutdown save), as a crashed machine would go. */
export async function stopRedis(redis: ChildProcess): Promise<void> {
  // A process killed by a signal keeps exitCode null: signalCode says it is gone.
  if (redis.exitCode !== null || redis.signalCode !== null) return;
  const exited = new Promise((resolve) => redis.once("exit", resolve));
  redis.kill("SIGKILL");
  await exited;
}
