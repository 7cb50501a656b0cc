import { spawnSync } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runPurse, type ServeProcess, startServe, waitUntil } from "./purse-process.ts";

/**
 * The embedded database (no DATABASE_URL) is one PGlite directory. Before this lock, a CLI verb
 * run while `npm start` served opened its own copy, printed "Credited", and the credit vanished.
 */
describe("one process at a time on the embedded database", () => {
  let dataDir: string;
  let env: Record<string, string>;
  let serve: ServeProcess;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), "purse-single-writer-"));
    env = { PURSE_DATA_DIR: dataDir };
    serve = await startServe(env);
    await waitUntil(serve, "/readyz");
  }, 120_000);
  afterAll(async () => {
    await serve?.stop("SIGKILL");
    await rm(dataDir, { recursive: true, force: true });
  });

  it("refuses an operator verb while purse serve holds it, naming the owner and what to do", async () => {
    for (const verb of [
      ["wallets", "credit", "U100000010", "25.00"],
      ["webhooks", "resend", "1"],
    ]) {
      const run = await runPurse(verb, env);
      expect(run.code).toBe(1);
      expect(run.output).toContain(`is in use by \`purse serve\` (pid ${serve.child.pid}`);
      expect(run.output).toContain("stop that process and run this again");
      expect(run.output).toContain("DATABASE_URL");
      expect(run.output).not.toContain("Credited");
      expect(run.output).not.toContain("    at ");
    }
  });

  it("refuses a second purse serve on the same directory; the first keeps serving", async () => {
    const second = await startServe(env);
    expect(await second.exited).toBe(1);
    expect(second.output()).toContain(`is in use by \`purse serve\` (pid ${serve.child.pid}`);
    expect((await fetch(`${serve.url}/readyz`)).status).toBe(200);
  });

  it("releases the directory on shutdown; the verb then works and its change stays", async () => {
    expect(await serve.stop("SIGTERM"), serve.output()).toBe(0);
    await expect(readFile(join(dataDir, "purse.lock"))).rejects.toThrow(/ENOENT/);
    const credit = await runPurse(["wallets", "credit", "U100000010", "25.00", "--json"], env);
    expect(credit.code, credit.output).toBe(0);
    const { transaction_id: id } = JSON.parse(credit.stdout) as { transaction_id: number };
    const audit = await runPurse(["audit", "--json"], env);
    expect(JSON.parse(audit.stdout)).toMatchObject({ ok: true });
    // The next serve sees the credit: the demo's 500.00 plus 25.00.
    serve = await startServe(env);
    await waitUntil(serve, "/readyz");
    const token = await fetch(`${serve.url}/token`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        grant_type: "client_credentials",
        client_id: "acme",
        client_secret: "acme-secret",
        scope: "api",
      }),
    }).then((response) => response.json() as Promise<{ access_token: string }>);
    const wallets = (await fetch(`${serve.url}/api/wallets`, {
      headers: { authorization: `Bearer ${token.access_token}` },
    }).then((response) => response.json())) as { data: { number: string; amount: number }[] };
    expect(wallets.data.find((wallet) => wallet.number === "U100000010")?.amount).toBe(525);
    expect(id).toBeGreaterThan(0);
    await serve.stop("SIGTERM");
  }, 120_000);

  it("takes over a stale lock left by a process that died", async () => {
    const dead = spawnSync(process.execPath, ["-e", ""]).pid;
    await writeFile(
      join(dataDir, "purse.lock"),
      JSON.stringify({ pid: dead, host: hostname(), command: "purse serve", since: "2020-01-01T00:00:00Z" }),
    );
    const run = await runPurse(["audit"], env);
    expect(run.code, run.output).toBe(0);
    expect(run.output).toContain("The ledger is balanced.");
  });
});
