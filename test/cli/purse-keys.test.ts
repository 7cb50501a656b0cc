import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { formTokenBinding, secretBoxFromKey, webhookSecretBinding } from "@purse/engine";
import { copyTemplateDatabase, dropDatabase } from "@purse/testing";
import { afterEach, describe, expect, inject, it } from "vitest";
import { deriveSecretKey, encryptSecret } from "../../packages/engine/src/secrets/secret-box.ts";
import { queryDatabase as query } from "../support/query-database.ts";

const bin = fileURLToPath(new URL("../../packages/server/bin/purse.js", import.meta.url));
const demoFixture = fileURLToPath(new URL("../../fixtures/demo.json", import.meta.url));
const oldKey = "the-old-key-of-at-least-thirty-two-characters";
const newKey = "the-new-key-of-at-least-thirty-two-characters";

async function purse(args: string[], env: Record<string, string>): Promise<{ code: number; output: string }> {
  const { BASE_URL: _vite, PURSE_SECRET_KEY: _key, ...inherited } = process.env;
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [bin, ...args], {
      env: { ...inherited, ...env },
      timeout: 60_000,
    });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? 1, output: `${failed.stdout ?? ""}${failed.stderr ?? ""}` };
  }
}

interface SealedRow {
  client_id: string;
  form_token_sealed: string;
  webhook_secret_sealed: string;
}

describe("purse keys rotate", () => {
  const created: string[] = [];
  afterEach(async () => {
    for (const name of created.splice(0)) await dropDatabase(name);
  });
  const freshDatabase = async () => {
    const database = await copyTemplateDatabase(inject("templateDatabase"));
    created.push(database.name);
    return database;
  };

  it("re-seals every secret under the new key, old and v1 values included, with progress", async () => {
    const { url } = await freshDatabase();
    expect((await purse(["seed", demoFixture], { DATABASE_URL: url, PURSE_SECRET_KEY: oldKey })).code).toBe(
      0,
    );
    // One value as sealed before key ids existed (v1: no key id, no row binding).
    const legacy = encryptSecret("acme-form-token", deriveSecretKey(oldKey));
    await query(url, "update clients set form_token_sealed = $1 where client_id = 'acme'", [legacy]);

    const rotated = await purse(["keys", "rotate"], {
      DATABASE_URL: url,
      PURSE_SECRET_KEY: newKey,
      PURSE_SECRET_KEY_PREVIOUS: oldKey,
    });
    expect(rotated.code).toBe(0);
    expect(rotated.output).toMatch(/clients\.form_token_sealed: \d+\/\d+/);
    expect(rotated.output).toMatch(/Done: \d+ re-sealed, 0 already under key [0-9a-f]{8}/);

    const box = secretBoxFromKey(newKey);
    const rows = await query<SealedRow>(
      url,
      "select client_id, form_token_sealed, webhook_secret_sealed from clients",
    );
    for (const row of rows) {
      expect(row.form_token_sealed.startsWith(`v2:${box.keyId}:`)).toBe(true);
      expect(box.open(row.webhook_secret_sealed, webhookSecretBinding(row.client_id))).toMatch(/^whsec_/);
    }
    const acme = rows.find((row) => row.client_id === "acme");
    expect(box.open(acme?.form_token_sealed ?? "", formTokenBinding("acme"))).toBe("acme-form-token");

    const again = await purse(["keys", "rotate"], { DATABASE_URL: url, PURSE_SECRET_KEY: newKey });
    expect(again.output).toMatch(/Done: 0 re-sealed, \d+ already under key/);
  });

  it("with --json, answers one JSON document on stdout and its progress on stderr", async () => {
    const { url } = await freshDatabase();
    await purse(["seed", demoFixture], { DATABASE_URL: url, PURSE_SECRET_KEY: oldKey });
    const { BASE_URL: _vite, PURSE_SECRET_KEY: _key, ...inherited } = process.env;
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      [bin, "--json", "keys", "rotate"],
      {
        env: { ...inherited, DATABASE_URL: url, PURSE_SECRET_KEY: newKey, PURSE_SECRET_KEY_PREVIOUS: oldKey },
        timeout: 60_000,
      },
    );
    const answer = JSON.parse(stdout) as { resealed: number; current: number; keyId: string };
    expect(answer.resealed).toBeGreaterThan(0);
    expect(answer.current).toBe(0);
    expect(answer.keyId).toBe(secretBoxFromKey(newKey).keyId);
    const progress = stderr
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { progress: string });
    expect(progress[0]?.progress).toBe(`Re-sealing stored secrets under key ${answer.keyId}...`);
    expect(progress.map((line) => line.progress)).toContainEqual(
      expect.stringMatching(/^clients\.form_token_sealed: \d+\/\d+$/),
    );
  });

  it("moves secrets off a key generated into the database, then deletes that key", async () => {
    const { url } = await freshDatabase();
    expect((await purse(["seed", demoFixture], { DATABASE_URL: url })).code).toBe(0);
    expect(await query(url, "select 1 from settings where key = 'generated_secret_key'")).toHaveLength(1);
    const rotated = await purse(["keys", "rotate"], { DATABASE_URL: url, PURSE_SECRET_KEY: newKey });
    expect(rotated.code).toBe(0);
    expect(rotated.output).toContain("The key stored in the database was deleted.");
    expect(await query(url, "select 1 from settings where key = 'generated_secret_key'")).toHaveLength(0);
    const [acme] = await query<SealedRow>(url, "select * from clients where client_id = 'acme'");
    expect(secretBoxFromKey(newKey).open(acme?.form_token_sealed ?? "", formTokenBinding("acme"))).toBe(
      "acme-form-token",
    );
  });

  it("changes nothing when a value opens with no key it was given", async () => {
    const { url } = await freshDatabase();
    await purse(["seed", demoFixture], { DATABASE_URL: url, PURSE_SECRET_KEY: oldKey });
    const before = await query<SealedRow>(url, "select * from clients order by client_id");
    const refused = await purse(["keys", "rotate"], { DATABASE_URL: url, PURSE_SECRET_KEY: newKey });
    expect(refused.code).toBe(1);
    expect(refused.output).toMatch(/cannot be opened/);
    expect(refused.output).not.toContain(newKey);
    expect(await query<SealedRow>(url, "select * from clients order by client_id")).toEqual(before);
  });

  it("needs PURSE_SECRET_KEY, and generate prints a usable one", async () => {
    const { url } = await freshDatabase();
    const refused = await purse(["keys", "rotate"], { DATABASE_URL: url });
    expect(refused.code).toBe(1);
    expect(refused.output).toContain("set PURSE_SECRET_KEY");
    const generated = await purse(["keys", "generate"], {});
    expect(generated.output.trim()).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });
});
