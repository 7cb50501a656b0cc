import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { dropDatabase } from "@purse/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyPassword } from "../../packages/engine/src/secrets/password-hash.ts";
import { purseCli } from "../support/purse-cli.ts";
import { queryDatabase } from "../support/query-database.ts";
import { createSeededDatabase, type SeededDatabase, testSecretKey } from "../support/test-server.ts";

const bin = fileURLToPath(new URL("../../packages/server/bin/purse.js", import.meta.url));

/** Single-quoted for sh: the command `script` runs in its terminal. */
const shellQuote = (word: string) => `'${word.replaceAll("'", "'\\''")}'`;

/**
 * Runs `purse` in a pseudo-terminal (util-linux `script`), as a person at a terminal would, and
 * types `lines` once it has asked for each. Returns everything the terminal showed.
 */
function purseInTerminal(database: SeededDatabase, args: string[], lines: string[]): Promise<string> {
  const { BASE_URL: _vite, ...inherited } = process.env;
  const command = [process.execPath, bin, ...args].map(shellQuote).join(" ");
  const child = spawn("script", ["-qfec", command, "/dev/null"], {
    env: { ...inherited, DATABASE_URL: database.url, PURSE_SECRET_KEY: testSecretKey, LOG_LEVEL: "silent" },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let shown = "";
  let typed = 0;
  child.stdout.on("data", (chunk: Buffer) => {
    shown += chunk.toString();
    // Type the next line only once its prompt is on screen: typed ahead, the terminal would echo it.
    const prompts = shown.match(/Password( again)?: /g)?.length ?? 0;
    while (typed < prompts && typed < lines.length) child.stdin.write(`${lines[typed++]}\r`);
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`no answer from purse in a terminal; it showed: ${shown}`));
    }, 60_000);
    child.on("close", () => {
      clearTimeout(timer);
      resolve(shown);
    });
  });
}

describe("passwords for purse users create never on the command line", { timeout: 120_000 }, () => {
  let database: SeededDatabase;
  const storedHash = async (login: string) =>
    (
      await queryDatabase<{ password_hash: string }>(
        database.url,
        "select password_hash from users where login = $1",
        [login],
      )
    )[0]?.password_hash;
  beforeAll(async () => {
    database = await createSeededDatabase();
  });
  afterAll(() => dropDatabase(database.name));

  it("--password-stdin reads it from standard input, without the line break echo adds", async () => {
    const run = await purseCli(
      database,
      ["users", "create", "--login", "piped", "--name", "Piped", "--password-stdin"],
      {},
      "s3cret piped pass\n",
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Created merchant piped \(user \d+\)\.\n$/);
    expect(run.stderr).toBe("");
    const hash = (await storedHash("piped")) ?? "";
    expect(await verifyPassword("s3cret piped pass", hash)).toBe(true);
    expect(await verifyPassword("s3cret piped pass\n", hash)).toBe(false);
  });

  it("without a terminal or --password-stdin it refuses, says how, and creates nobody", async () => {
    const run = await purseCli(
      database,
      ["users", "create", "--login", "nopass", "--name", "No Pass"],
      {},
      "ignored\n",
    );
    expect(run.code).toBe(1);
    expect(run.stderr.trim()).toBe(
      "purse: no password: pipe it in with --password-stdin (e.g. printf '%s' \"$PASSWORD\" | purse users create ... --password-stdin), or run this in a terminal to be asked",
    );
    expect(await storedHash("nopass")).toBeUndefined();
  });

  it("refuses an empty or oversized password from standard input", async () => {
    const create = ["users", "create", "--login", "empty", "--name", "Empty", "--password-stdin"];
    const empty = await purseCli(database, create, {}, "\n");
    expect(empty.stderr.trim()).toBe("purse: --password-stdin: the password is empty");
    const huge = await purseCli(database, create, {}, "x".repeat(100_000));
    expect(huge.stderr.trim()).toBe("purse: --password-stdin: the password is longer than 1024 bytes");
    expect(await storedHash("empty")).toBeUndefined();
  });

  it("asks twice in a terminal without echoing what is typed", async () => {
    const shown = await purseInTerminal(
      database,
      ["users", "create", "--login", "typed", "--name", "Typed", "--role", "PARTNER"],
      ["typed-pass-1", "typed-pass-1"],
    );
    expect(shown).toContain("Password: ");
    expect(shown).toContain("Password again: ");
    expect(shown).toMatch(/Created partner typed \(user \d+\)\./);
    expect(shown).not.toContain("typed-pass-1");
    expect(await verifyPassword("typed-pass-1", (await storedHash("typed")) ?? "")).toBe(true);
  });

  it("in a terminal, two different answers create nobody", async () => {
    const shown = await purseInTerminal(
      database,
      ["users", "create", "--login", "mistyped", "--name", "Mistyped"],
      ["first-answer", "second-answer"],
    );
    expect(shown).toContain("purse: the two passwords differ; nothing was created");
    expect(await storedHash("mistyped")).toBeUndefined();
  });

  it("--password still works for old scripts, with a one-line deprecation warning", async () => {
    const run = await purseCli(database, [
      "--json",
      "users",
      "create",
      "--login",
      "legacy",
      "--name",
      "Legacy",
      "--password",
      "legacy-pass",
    ]);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ login: "legacy", role: "merchant" });
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
    expect(JSON.parse(run.stderr)).toEqual({
      warning: expect.stringMatching(/^purse: warning: --password is deprecated .*use --password-stdin/),
    });
    expect(await verifyPassword("legacy-pass", (await storedHash("legacy")) ?? "")).toBe(true);
    const both = await purseCli(
      database,
      ["users", "create", "--login", "both", "--name", "Both", "--password", "a", "--password-stdin"],
      {},
      "b\n",
    );
    expect(both.stderr.trim()).toBe("purse: give --password-stdin or --password, not both");
    // And --help no longer offers it.
    const help = await purseCli(database, ["users", "create", "--help"]);
    expect(help.stdout).toContain("--password-stdin");
    expect(help.stdout).not.toMatch(/--password </);
  });
});
