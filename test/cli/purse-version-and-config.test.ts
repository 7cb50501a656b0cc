import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runPurse } from "../operations/purse-process.ts";

const serverManifest = fileURLToPath(new URL("../../packages/server/package.json", import.meta.url));

describe("purse --version", () => {
  it("prints the version of the Purse it is, as text or with --json", async () => {
    const { version } = JSON.parse(await readFile(serverManifest, "utf8")) as { version: string };
    expect(version).toMatch(/^\d+\.\d+\.\d+/);
    for (const flag of ["--version", "-V"]) {
      const run = await runPurse([flag], {});
      expect(run.code, flag).toBe(0);
      expect(run.stdout).toBe(`${version}\n`);
      expect(run.stderr).toBe("");
    }
    const json = await runPurse(["--json", "--version"], {});
    expect(JSON.parse(json.stdout)).toEqual({ version });
    expect((await runPurse(["--help"], {})).stdout).toMatch(/-V, --version\s+print Purse's version/);
  });
});

/** One line on stderr, `purse: cannot start: VARIABLE="value": problem`, and nothing else. */
function expectOneLineNaming(run: { code: number; stdout: string; stderr: string }, line: RegExp): void {
  expect(run.code).toBe(1);
  expect(run.stdout).toBe("");
  expect(run.stderr.trim().split("\n")).toEqual([expect.stringMatching(line)]);
}

describe("a bad BASE_URL or PAY_URL stops the command with one line naming the variable", () => {
  it.each([
    ["BASE_URL", "notaurl"],
    ["PAY_URL", "notaurl"],
    ["BASE_URL", "http://a b"],
    ["PAY_URL", "ftp://pay.example.com"],
  ])("%s=%s", async (variable, value) => {
    const run = await runPurse(["audit"], { [variable]: value });
    expectOneLineNaming(
      run,
      new RegExp(
        `^purse: cannot start: ${variable}=${JSON.stringify(value)}: must be an http:// or https:// URL`,
      ),
    );
    expect(run.stderr).not.toContain("Invalid URL");
  });
});

describe("a bad PURSE_DATA_DIR stops the command with one line naming the variable", () => {
  let scratch: string;
  beforeAll(async () => {
    scratch = await mkdtemp(join(tmpdir(), "purse-data-dir-"));
  });
  afterAll(() => rm(scratch, { recursive: true, force: true }));

  it("a file, or a directory under a file", async () => {
    const file = join(scratch, "a-file");
    await writeFile(file, "not a directory");
    expectOneLineNaming(
      await runPurse(["audit"], { PURSE_DATA_DIR: file }),
      new RegExp(`^purse: cannot start: PURSE_DATA_DIR="${file}": is a file, not a directory$`),
    );
    // purse serve too: it opens the same directory before it listens.
    expectOneLineNaming(
      await runPurse(["serve"], { PURSE_DATA_DIR: file, PORT: "0" }),
      new RegExp(`^purse: cannot start: PURSE_DATA_DIR="${file}": is a file, not a directory$`),
    );
    expectOneLineNaming(
      await runPurse(["audit"], { PURSE_DATA_DIR: join(file, "data") }),
      new RegExp(`^purse: cannot start: PURSE_DATA_DIR="${file}/data": ${file} is a file, not a directory$`),
    );
  });

  it("a directory that cannot be created: refused at once (Node's recursive mkdir never returned here)", async () => {
    const started = Date.now();
    const run = await runPurse(["audit"], { PURSE_DATA_DIR: "/proc/purse-data" });
    expectOneLineNaming(
      run,
      /^purse: cannot start: PURSE_DATA_DIR="\/proc\/purse-data": cannot create \/proc\/purse-data \(E[A-Z]+\)$/,
    );
    expect(Date.now() - started).toBeLessThan(30_000);
  });

  it("a directory holding something that is not an embedded database", async () => {
    const junk = join(scratch, "junk");
    await rm(junk, { recursive: true, force: true });
    await mkdir(junk);
    await writeFile(join(junk, "PG_VERSION"), "not a version\n");
    const run = await runPurse(["audit"], { PURSE_DATA_DIR: junk });
    expectOneLineNaming(
      run,
      new RegExp(
        `^purse: cannot start: PURSE_DATA_DIR="${junk}": the embedded database there cannot be opened \\(.+\\): use an empty directory or one Purse created$`,
      ),
    );
    // The lock is released: the directory is refused for what it holds, not for being in use.
    expect((await runPurse(["audit"], { PURSE_DATA_DIR: junk })).stderr).not.toContain("in use");
  }, 120_000);
});
