import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sampleFixture } from "@purse/testing";
import type { CitusCluster } from "./citus-cluster.ts";
import { purseCli } from "./purse-cli.ts";
import { startTestServer, type TestServer } from "./test-server.ts";

/** A Purse serving a database of a Citus cluster whose tables are distributed by owner. */
export interface DistributedPurse {
  readonly database: { readonly name: string; readonly url: string };
  readonly api: TestServer;
}

/**
 * As an operator sets one up (docs/sharding.md): a database on every node of `cluster`, then
 * `purse migrate`, `purse citus distribute` and `purse seed` with the sample world through the real
 * command, then `purse serve`'s stack on it (webhooks to 127.0.0.1 allowed, as on a developer's
 * machine). A step that fails throws with what the command printed.
 */
export async function distributedPurse(
  cluster: CitusCluster,
  name: string,
  env: Record<string, string> = {},
): Promise<DistributedPurse> {
  const database = { name, url: await cluster.createDatabase(name) };
  const dir = await mkdtemp(join(tmpdir(), "purse-citus-fixture-"));
  try {
    const fixture = join(dir, "sample.json");
    await writeFile(fixture, JSON.stringify(sampleFixture()));
    for (const args of [["migrate"], ["citus", "distribute"], ["seed", fixture]]) {
      const run = await purseCli(database, args);
      if (run.code !== 0) throw new Error(`purse ${args.join(" ")}: ${run.stderr || run.stdout}`);
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  const api = await startTestServer({ database, env: { PURSE_WEBHOOK_ALLOW_PRIVATE: "on", ...env } });
  return { database, api };
}
