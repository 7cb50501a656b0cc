import { afterAll, describe, expect, it } from "vitest";
import { cruise, type ProbeTree, probeTree, repositoryRoot } from "../support/dependency-cruiser.ts";

/**
 * @purse/testing builds on the packages (an engine over a test database, the REST app's harness),
 * so only a package's tests may import it: neither its production code (`production-imports-no-test-support`)
 * nor the `*.test-support.ts` data kept beside its unit tests (`test-support-imports-no-testing`),
 * or an import would run from a package back up to what is built on it.
 */
describe("only a package's tests import @purse/testing", () => {
  const made: ProbeTree[] = [];
  afterAll(async () => {
    for (const tree of made) await tree.remove();
  });

  it("refuses an engine module and an engine test-support file importing it, not an engine test", async () => {
    const probe = await probeTree("purse-test-support-");
    made.push(probe);
    const importTesting =
      'import { harness } from "../../../testing/src/index.ts";\nexport const used = harness;\n';
    await probe.write("packages/testing/src/index.ts", "export const harness = 1;\n");
    await probe.write("packages/engine/src/transactions/history.ts", importTesting);
    await probe.write("packages/engine/src/transactions/history.test-support.ts", importTesting);
    await probe.write("packages/engine/src/transactions/history.test.ts", importTesting);
    const { code, report } = await cruise(probe.dir, ["packages"]);
    expect(code).not.toBe(0);
    expect(report).toContain(
      "production-imports-no-test-support: packages/engine/src/transactions/history.ts → packages/testing/src/index.ts",
    );
    expect(report).toContain(
      "test-support-imports-no-testing: packages/engine/src/transactions/history.test-support.ts → packages/testing/src/index.ts",
    );
    expect(report).not.toContain("history.test.ts");
  }, 60_000);

  it("holds for the engine", async () => {
    const { code, report } = await cruise(repositoryRoot, ["packages/engine/src"]);
    expect(report).not.toContain("test-support-imports-no-testing");
    expect(report).not.toContain("production-imports-no-test-support");
    expect(code).toBe(0);
  }, 120_000);
});
