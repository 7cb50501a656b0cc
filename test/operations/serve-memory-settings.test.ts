import { readFile } from "node:fs/promises";
import { dropDatabase } from "@purse/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawnPurseServe } from "../support/spawned-server.ts";
import { createSeededDatabase, type SeededDatabase } from "../support/test-server.ts";

/**
 * `purse serve` started as the README starts it, without the Dockerfile's memory settings, runs
 * with them all the same (packages/server/bin/purse.js; docs/deploy.md, "Memory"): the process the
 * caller started (same pid) serves with glibc's mmap threshold at 1 MiB and V8's old generation
 * at 256 MB; settings the caller gave are kept as given.
 */
describe("purse serve's memory settings", () => {
  let database: SeededDatabase;

  beforeAll(async () => {
    database = await createSeededDatabase();
  }, 60_000);
  afterAll(() => dropDatabase(database.name));

  const settingsOf = async (pid: number | undefined) => {
    const environ = (await readFile(`/proc/${pid}/environ`, "utf8")).split("\0");
    const cmdline = (await readFile(`/proc/${pid}/cmdline`, "utf8")).split("\0");
    return {
      mmapThreshold: environ.find((entry) => entry.startsWith("MALLOC_MMAP_THRESHOLD_=")),
      heapFlags: cmdline.filter((argument) => argument.startsWith("--max-old-space-size")),
    };
  };

  it.runIf(process.platform === "linux")(
    "serves with both when started without them",
    async () => {
      expect(process.env["MALLOC_MMAP_THRESHOLD_"]).toBeUndefined();
      const server = await spawnPurseServe(database, { PURSE_WEBHOOK_WORKER: "off" });
      try {
        expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
        expect(await settingsOf(server.process.pid)).toEqual({
          mmapThreshold: "MALLOC_MMAP_THRESHOLD_=1048576",
          heapFlags: ["--max-old-space-size=256"],
        });
      } finally {
        await server.stop();
      }
    },
    60_000,
  );

  it.runIf(process.platform === "linux")(
    "keeps the caller's own",
    async () => {
      const server = await spawnPurseServe(database, {
        PURSE_WEBHOOK_WORKER: "off",
        MALLOC_MMAP_THRESHOLD_: "4194304",
        NODE_OPTIONS: "--max-old-space-size=512",
      });
      try {
        expect(await settingsOf(server.process.pid)).toEqual({
          mmapThreshold: "MALLOC_MMAP_THRESHOLD_=4194304",
          heapFlags: [],
        });
      } finally {
        await server.stop();
      }
    },
    60_000,
  );
});
