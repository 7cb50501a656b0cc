import { randomBytes } from "node:crypto";
import { fileURLToPath } from "node:url";
import { createPurseProgram } from "@purse/server";
import { createEmptyDatabase, databaseUrl, dropDatabase, freePort } from "@purse/testing";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runPurse, startServe } from "./purse-process.ts";

const demoFixture = fileURLToPath(new URL("../../fixtures/demo.json", import.meta.url));

const admin = async <T>(sql: string, params: unknown[] = []): Promise<T[]> => {
  const client = new pg.Client({ connectionString: databaseUrl("postgres") });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows as T[];
  } finally {
    await client.end();
  }
};

/** One line, no stack trace, no driver text. */
function expectOneLine(output: string): void {
  expect(output.trim().split("\n")).toHaveLength(1);
  expect(output).not.toMatch(/^\s+at /m);
}

describe("clear errors at the edges, through the real purse command", () => {
  let empty: { name: string; url: string };
  beforeAll(async () => {
    empty = await createEmptyDatabase();
  });
  afterAll(() => dropDatabase(empty.name));

  it("refuses a mistyped database name instead of creating it (migrate and serve)", async () => {
    const name = `purse_typo_${randomBytes(4).toString("hex")}`;
    const env = { DATABASE_URL: databaseUrl(name) };
    const migrate = await runPurse(["migrate"], env);
    expect(migrate.code).toBe(1);
    expect(migrate.output).toContain(
      `database "${name}" does not exist (Purse never creates one): check DATABASE_URL`,
    );
    expectOneLine(migrate.output);
    const serve = await startServe({ ...env, REDIS_URL: "redis://127.0.0.1:6379" });
    expect(await serve.exited).toBe(1);
    expect(serve.output()).toContain("check DATABASE_URL");
    expectOneLine(serve.output());
    expect(await admin("select 1 from pg_database where datname = $1", [name])).toEqual([]);
  }, 60_000);

  it("says run purse migrate when the schema is missing, for verbs other than migrate", async () => {
    for (const verb of [["audit"], ["wallets", "credit", "U1", "1.00"]]) {
      const run = await runPurse(verb, { DATABASE_URL: empty.url });
      expect(run.code).toBe(1);
      expect(run.output).toMatch(/lacks \d+ migration\(s\) \(0001-ledger, .*\): run purse migrate/);
      expect(run.output).not.toContain("relation");
      expectOneLine(run.output);
    }
  }, 60_000);

  it("names DATABASE_URL when PostgreSQL refuses the connection (CLI and serve)", async () => {
    const env = { DATABASE_URL: `postgresql://postgres@127.0.0.1:${await freePort()}/purse` };
    const audit = await runPurse(["audit"], env);
    expect(audit.code).toBe(1);
    expect(audit.output).toMatch(/cannot reach PostgreSQL at .* \(ECONNREFUSED\): check DATABASE_URL/);
    expectOneLine(audit.output);
    const serve = await startServe(env);
    expect(await serve.exited).toBe(1);
    expect(serve.output()).toContain("(ECONNREFUSED): check DATABASE_URL");
    expectOneLine(serve.output());
  }, 60_000);

  it("says what to do when the database refuses connections (ALLOW_CONNECTIONS false)", async () => {
    const closed = await createEmptyDatabase();
    await admin(`alter database "${closed.name}" allow_connections false`);
    try {
      const run = await runPurse(["migrate"], { DATABASE_URL: closed.url });
      expect(run.code).toBe(1);
      expect(run.output).toContain("does not accept connections to this database now (55000): allow them");
      expectOneLine(run.output);
    } finally {
      await admin(`alter database "${closed.name}" allow_connections true`);
      await dropDatabase(closed.name);
    }
  }, 60_000);

  it("turns a unique violation into the operator's words, in text and in --json", async () => {
    const env = { DATABASE_URL: empty.url };
    const migrated = await runPurse(["migrate", "--json"], env);
    expect(JSON.parse(migrated.stdout).applied).toEqual(expect.arrayContaining(["0001-ledger"]));
    expect((await runPurse(["seed", demoFixture], env)).code).toBe(0);
    const user = await runPurse(
      ["users", "create", "--login", "ops", "--password-stdin", "--name", "Ops", "--json"],
      env,
      "pw-ops-1\n",
    );
    expect(JSON.parse(user.stdout)).toMatchObject({ login: "ops", role: "merchant" });
    const wallet = ["wallets", "create", "--user", "ops", "--currency", "USD", "--number", "N-OPS-1"];
    const first = await runPurse([...wallet, "--json"], env);
    expect(JSON.parse(first.stdout)).toEqual({ number: "N-OPS-1", currency: "USD", user: "ops" });
    const credit = await runPurse(["wallets", "credit", "N-OPS-1", "12.50", "--json"], env);
    expect(JSON.parse(credit.stdout)).toMatchObject({ wallet: "N-OPS-1", amount: "12.50" });
    const again = await runPurse(wallet, env);
    expect(again.code).toBe(1);
    expect(again.output.trim()).toBe('purse: --number "N-OPS-1": a wallet with this number exists');
    const againJson = await runPurse([...wallet, "--json"], env);
    expect(againJson.code).toBe(1);
    expect(againJson.stdout).toBe("");
    expect(JSON.parse(againJson.stderr)).toEqual({
      error: 'purse: --number "N-OPS-1": a wallet with this number exists',
    });
  }, 120_000);
});

describe("purse --help", () => {
  /** Entries of one help section ("Options:", "Commands:", "Arguments:"): the term and its text. */
  function entries(help: string, section: string): { term: string; text: string }[] {
    const start = help.indexOf(`\n${section}\n`);
    if (start < 0) return [];
    const body = help.slice(start + section.length + 2).split("\n\n")[0] ?? "";
    return body
      .split("\n")
      .filter((line) => /^ {2}\S/.test(line))
      .map((line) => {
        const [term = "", text = ""] = line.trim().split(/\s{2,}/);
        return { term, text };
      });
  }

  /** The help `purse <path> --help` prints, read from the program itself (createPurseProgram). */
  const program = createPurseProgram();
  function help(path: readonly string[]): string {
    let command: ReturnType<typeof createPurseProgram> = program;
    for (const name of path) {
      const next = command.commands.find((sub) => sub.name() === name);
      if (!next) throw new Error(`purse ${path.join(" ")}: no such command`);
      command = next;
    }
    return command.helpInformation();
  }

  it("is what the real purse command prints, at the top and for a verb", async () => {
    for (const path of [[], ["wallets", "credit"]]) {
      const run = await runPurse([...path, "--help"], {});
      expect(run.code).toBe(0);
      expect(run.stdout).toBe(help(path));
    }
  }, 60_000);

  it("describes every command, argument and option, --json included", () => {
    const top = help([]);
    const groups = entries(top, "Commands:").filter((entry) => !entry.term.startsWith("help"));
    expect(groups.map((group) => group.term.split(" ")[0])).toEqual(
      expect.arrayContaining(["serve", "migrate", "seed", "audit", "webhooks", "users", "wallets"]),
    );
    const leaves: string[][] = [];
    for (const group of groups) {
      const name = group.term.split(" ")[0] ?? "";
      expect(group.text, `purse ${name}`).not.toBe("");
      const subcommands = entries(help([name]), "Commands:").filter(
        (entry) => !entry.term.startsWith("help"),
      );
      if (subcommands.length === 0) leaves.push([name]);
      for (const sub of subcommands) {
        expect(sub.text, `purse ${name} ${sub.term}`).not.toBe("");
        leaves.push([name, sub.term.split(" ")[0] ?? ""]);
      }
    }
    for (const leaf of leaves) {
      const text = help(leaf);
      const options = [...entries(text, "Options:"), ...entries(text, "Global Options:")];
      expect(options.map((option) => option.term)).toContain("--json");
      for (const option of options)
        expect(option.text, `purse ${leaf.join(" ")} ${option.term}`).not.toBe("");
      const usage = text.split("\n")[0] ?? "";
      const declared = usage.match(/<[^>]+>|\[(?!options\]|command\])[a-z_]+\]/g) ?? [];
      const described = entries(text, "Arguments:");
      expect(described, `purse ${leaf.join(" ")} arguments`).toHaveLength(declared.length);
      for (const argument of described) expect(argument.text).not.toBe("");
    }
  });
});
