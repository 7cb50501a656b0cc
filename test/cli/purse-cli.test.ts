import { execFile } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { createEmptyDatabase, dropDatabase, sampleFixture } from "@purse/testing";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const bin = fileURLToPath(new URL("../../packages/server/bin/purse.js", import.meta.url));
const demoFixture = fileURLToPath(new URL("../../fixtures/demo.json", import.meta.url));

interface Run {
  code: number;
  output: string;
}

/** Runs the real `purse` command, as a user would, and collects what it prints; `input` is its stdin. */
async function purse(args: string[], env: Record<string, string>, input = ""): Promise<Run> {
  try {
    // Vite puts BASE_URL="/" into the test process's environment; a real shell would not have it.
    const { BASE_URL: _viteBaseUrl, ...inherited } = process.env;
    const running = promisify(execFile)(process.execPath, [bin, ...args], {
      env: { ...inherited, ...env },
      timeout: 60_000,
    });
    running.child.stdin?.end(input);
    const { stdout, stderr } = await running;
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? 1, output: `${failed.stdout ?? ""}${failed.stderr ?? ""}` };
  }
}

describe("the purse command", () => {
  let database: { name: string; url: string };
  let env: Record<string, string>;
  const query = async (sql: string) => {
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      return (await client.query(sql)).rows;
    } finally {
      await client.end();
    }
  };
  beforeAll(async () => {
    database = await createEmptyDatabase();
    env = { DATABASE_URL: database.url, PURSE_SECRET_KEY: "cli-test-secret-key-of-32-characters!!" };
  });
  afterAll(() => dropDatabase(database.name));

  it("explains itself and each verb", async () => {
    const help = await purse(["--help"], env);
    expect(help.code).toBe(0);
    for (const verb of ["serve", "migrate", "seed", "audit"]) expect(help.output).toContain(verb);
    const seedHelp = await purse(["seed", "--help"], env);
    expect(seedHelp.output).toContain("<file>");
  });

  it("migrates an empty database, and a second run changes nothing", async () => {
    const first = await purse(["migrate"], env);
    expect(first.code).toBe(0);
    expect(first.output).toMatch(/Applied \d+ migration\(s\).*0001-ledger, 0002-webhook-outbox/);
    const second = await purse(["migrate"], env);
    expect(second.output).toContain("is up to date");
  });

  it("seeds the demo fixture and audits a balanced ledger", async () => {
    const seed = await purse(["seed", demoFixture], env);
    expect(seed.code).toBe(0);
    expect(seed.output).toContain("3 users");
    const audit = await purse(["audit"], env);
    expect(audit.code).toBe(0);
    expect(audit.output).toContain("The ledger is balanced.");
    const secrets = await query(
      "select secret_hash, form_token_sealed from clients where client_id = 'acme'",
    );
    expect(JSON.stringify(secrets)).not.toContain("acme-secret");
    expect(JSON.stringify(secrets)).not.toContain("acme-form-token");
  });

  it("refuses a fixture with one bad record, names it, and changes nothing", async () => {
    const fixture = sampleFixture();
    fixture.currencies = [];
    fixture.users = [{ id: 50, name: "New Co", role: "merchant", login: "newco", password: "pw" }];
    fixture.clients = [];
    fixture.rates = [];
    fixture.vouchers = [];
    fixture.wallets = [
      { id: 500, user_id: 50, number: "N500", currency: "USD", amount: "10.00", amountLimit: "100.00" },
      { id: 501, user_id: 50, number: "N501", currency: "USD", amount: "10.005", amountLimit: "100.00" },
    ];
    const file = join(tmpdir(), `purse-bad-fixture-${process.pid}.json`);
    await writeFile(file, JSON.stringify(fixture));
    const before = await query("select count(*)::int as users from users");
    const seed = await purse(["seed", file], env);
    expect(seed.code).toBe(1);
    expect(seed.output).toContain('wallets[1] (number "N501"): amount has more than 2 decimals');
    expect(seed.output).toContain("nothing was changed");
    expect(await query("select count(*)::int as users from users")).toEqual(before);
  });

  it("says which file is not JSON", async () => {
    const file = join(tmpdir(), `purse-not-json-${process.pid}.json`);
    await writeFile(file, "{ nope");
    const seed = await purse(["seed", file], env);
    expect(seed.code).toBe(1);
    expect(seed.output).toContain(`${file} is not valid JSON`);
  });

  it("fails the audit with a report when a balance disagrees with its postings", async () => {
    await query("update wallets set balance_minor = balance_minor + 1 where number = 'U100000020'");
    const audit = await purse(["audit"], env);
    expect(audit.code).toBe(1);
    expect(audit.output).toContain("FAIL every wallet balance equals the sum of its postings");
    expect(audit.output).toContain("wallet U100000020: balance 25001 but postings sum to 25000");
    await query("update wallets set balance_minor = balance_minor - 1 where number = 'U100000020'");
  });

  it("runs the operator verbs: users, clients, wallets, credit, vouchers, currency switches", async () => {
    expect(
      (
        await purse(
          ["users", "create", "--login", "newco", "--password-stdin", "--name", "New Co"],
          env,
          "pw-1\n",
        )
      ).code,
    ).toBe(0);
    const client = await purse(["clients", "create", "--user", "newco"], env);
    expect(client.output).toMatch(/client_id\s+newco-[0-9a-f]{8}/);
    expect(client.output).toMatch(/webhook_secret whsec_/);
    const wallet = await purse(
      ["wallets", "create", "--user", "newco", "--currency", "USD", "--number", "N777"],
      env,
    );
    expect(wallet.output).toContain("Opened wallet N777 (USD) for newco.");
    expect((await purse(["wallets", "credit", "N777", "125.50"], env)).output).toMatch(
      /Credited 125\.50 to N777/,
    );
    const overLimit = await purse(["wallets", "credit", "N777", "1.001"], env);
    expect(overLimit.code).toBe(1);
    expect(overLimit.output).toContain("This value should have at most 2 decimal places.");
    expect(await query("select balance_minor::text as balance from wallets where number = 'N777'")).toEqual([
      { balance: "12550" },
    ]);
    const voucher = await purse(
      ["vouchers", "issue", "--currency", "USD", "--amount", "20.00", "--creator", "newco"],
      env,
    );
    expect(voucher.output).toMatch(/voucher_number V-[0-9A-F]{8}/);
    expect((await purse(["users", "block", "newco"], env)).output).toContain("newco is blocked.");
    expect(await query("select blocked from users where login = 'newco'")).toEqual([{ blocked: true }]);
    expect((await purse(["currencies", "disable", "EUR", "--direction", "checkout"], env)).code).toBe(0);
    expect(await query("select enabled, checkout_enabled from currencies where code = 'EUR'")).toEqual([
      { enabled: true, checkout_enabled: false },
    ]);
    const missing = await purse(["users", "block", "nobody"], env);
    expect(missing.code).toBe(1);
    expect(missing.output).toContain('<login> "nobody": no such user');
    expect((await purse(["audit"], env)).code).toBe(0);
  }, 180_000);

  it("refuses bad option values and unknown logins in one line, never a database error", async () => {
    const refusals: [string[], string][] = [
      [["webhooks", "list", "--limit", "abc"], '--limit takes a whole number from 1 to 1000 (got "abc")'],
      [["webhooks", "list", "--limit", "-1"], "--limit takes a whole number"],
      [["webhooks", "list", "--status", "bogus"], "--status takes pending, delivered or failed"],
      [["checkouts", "list", "acme", "--limit", "0"], "--limit takes a whole number from 1 to 100"],
      [["checkouts", "list", "nobody"], '<login> "nobody": no such user'],
      [
        [
          "vouchers",
          "issue",
          "--currency",
          "USD",
          "--amount",
          "5.00",
          "--creator",
          "bolt",
          "--valid-for",
          "0",
        ],
        '--valid-for takes a duration from 1h to 3650d (got "0")',
      ],
    ];
    for (const args of [
      ["--json", "users", "create", "--login", "x9"],
      ["--json", "bogus"],
    ]) {
      const usage = await purse(args, env);
      expect(usage.code).toBe(1);
      // One JSON document, the usage error in it, no help text around it.
      expect(JSON.parse(usage.output)).toEqual({ error: expect.any(String) });
    }
    for (const [args, message] of refusals) {
      const run = await purse(args, env);
      expect(run.code, args.join(" ")).toBe(1);
      expect(run.output).toContain(message);
      expect(run.output).not.toContain("SQLSTATE");
    }
    expect(
      (await purse(["wallets", "create", "--user", "bolt", "--currency", "USD", "--number", "D404"], env))
        .code,
    ).toBe(0);
    expect((await purse(["wallets", "status", "D404", "DELETED"], env)).code).toBe(0);
    const credited = await purse(["wallets", "credit", "D404", "1.00"], env);
    expect(credited.code).toBe(1);
    expect(credited.output).toContain('<number> "D404": no such wallet, or it is DELETED');
  }, 120_000);

  it("stops on bad configuration with one line naming each variable", async () => {
    const run = await purse(["migrate"], { ...env, PORT: "eighty", PURSE_RATE_LIMIT_PER_MINUTE: "0" });
    expect(run.code).toBe(1);
    expect(run.output).toContain('PORT="eighty": must be a port number');
    expect(run.output).toContain('PURSE_RATE_LIMIT_PER_MINUTE="0"');
    // Exactly one line per variable, each saying so on its own.
    expect(run.output.trim().split("\n")).toEqual([
      expect.stringMatching(/^purse: cannot start: PORT="eighty"/),
      expect.stringMatching(/^purse: cannot start: PURSE_RATE_LIMIT_PER_MINUTE="0"/),
    ]);
    expect(run.output).not.toContain("    at ");
  });
});
