import { afterAll, describe, expect, it } from "vitest";
import { cruise, type ProbeTree, probeTree, repositoryRoot } from "../support/dependency-cruiser.ts";

/**
 * A shipped migration holds its SQL and functions as they were: it may import MikroORM's
 * Migration class and other migrations, never application code (the ledger's hashing, a store),
 * or changing that code would change what an old migration does. dependency-cruiser's
 * `migrations-are-frozen` rule says so (`.dependency-cruiser.cjs`, run by `npm run cycles`); this
 * test shows the rule refuses such an import and that every shipped migration keeps it.
 */
describe("shipped migrations are frozen", () => {
  const made: ProbeTree[] = [];
  afterAll(async () => {
    for (const tree of made) await tree.remove();
  });

  it("refuses a migration that imports application code, and not one that holds its own SQL", async () => {
    const probe = await probeTree("purse-frozen-");
    made.push(probe);
    await probe.write(
      "packages/engine/src/ledger/ledger-hash.ts",
      "export const hash = (text: string) => text;\n",
    );
    await probe.write(
      "packages/engine/src/persistence/migrations/0098-own-sql.ts",
      'export const up = () => "create table t (id int)";\n',
    );
    await probe.write(
      "packages/engine/src/persistence/migrations/0099-live-code.ts",
      'import { hash } from "../../ledger/ledger-hash.ts";\nexport const up = () => hash("x");\n',
    );
    const { code, report } = await cruise(probe.dir, ["packages"]);
    expect(code).not.toBe(0);
    expect(report).toContain(
      "migrations-are-frozen: packages/engine/src/persistence/migrations/0099-live-code.ts → packages/engine/src/ledger/ledger-hash.ts",
    );
    expect(report).not.toContain("0098-own-sql.ts");
  }, 60_000);

  it("holds for every shipped migration", async () => {
    const { code, report } = await cruise(repositoryRoot, ["packages/engine/src/persistence/migrations"]);
    expect(report).not.toContain("migrations-are-frozen");
    expect(code).toBe(0);
  }, 60_000);
});
