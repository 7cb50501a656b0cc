import { execFile } from "node:child_process";
import { copyFile, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";

/**
 * A shipped migration holds its SQL and functions as they were: it may import MikroORM's
 * Migration class and other migrations, never application code (the ledger's hashing, an entity),
 * or changing that code would change what an old migration does. dependency-cruiser's
 * `migrations-are-frozen` rule says so (`.dependency-cruiser.cjs`, run by `npm run cycles`); this
 * test shows the rule refuses such an import and that every shipped migration keeps it.
 */
const root = fileURLToPath(new URL("../..", import.meta.url));
const depcruise = join(root, "node_modules/dependency-cruiser/bin/dependency-cruiser.mjs");
const run = promisify(execFile);

/** dependency-cruiser's text report and exit code for `paths` under `cwd`, with Purse's rules. */
async function cruise(cwd: string, paths: string[]): Promise<{ code: number; report: string }> {
  const args = [
    depcruise,
    ...paths,
    "--config",
    join(root, ".dependency-cruiser.cjs"),
    "--output-type",
    "err",
  ];
  try {
    const { stdout } = await run(process.execPath, args, { cwd });
    return { code: 0, report: stdout };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string };
    return { code: failed.code ?? -1, report: failed.stdout ?? "" };
  }
}

describe("shipped migrations are frozen", () => {
  const made: string[] = [];
  afterAll(async () => {
    for (const dir of made) await rm(dir, { recursive: true, force: true });
  });

  it("refuses a migration that imports application code, and not one that holds its own SQL", async () => {
    const probe = await mkdtemp(join(tmpdir(), "purse-frozen-"));
    made.push(probe);
    const file = async (path: string, text: string) => {
      await mkdir(dirname(join(probe, path)), { recursive: true });
      await writeFile(join(probe, path), text);
    };
    await copyFile(join(root, "tsconfig.base.json"), join(probe, "tsconfig.base.json"));
    await file("packages/engine/src/ledger/ledger-hash.ts", "export const hash = (text: string) => text;\n");
    await file(
      "packages/engine/src/persistence/migrations/0098-own-sql.ts",
      'export const up = () => "create table t (id int)";\n',
    );
    await file(
      "packages/engine/src/persistence/migrations/0099-live-code.ts",
      'import { hash } from "../../ledger/ledger-hash.ts";\nexport const up = () => hash("x");\n',
    );
    const { code, report } = await cruise(probe, ["packages"]);
    expect(code).not.toBe(0);
    expect(report).toContain(
      "migrations-are-frozen: packages/engine/src/persistence/migrations/0099-live-code.ts → packages/engine/src/ledger/ledger-hash.ts",
    );
    expect(report).not.toContain("0098-own-sql.ts");
  }, 60_000);

  it("holds for every shipped migration", async () => {
    const { code, report } = await cruise(root, ["packages/engine/src/persistence/migrations"]);
    expect(report).not.toContain("migrations-are-frozen");
    expect(code).toBe(0);
  }, 60_000);
});
