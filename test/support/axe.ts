import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import type { Page } from "playwright-core";

const require = createRequire(import.meta.url);

/** A violation as axe-core reports it, reduced to what a failing test should print. */
export interface AxeViolation {
  readonly id: string;
  readonly impact: string | null;
  readonly targets: string[];
}

/**
 * Runs axe-core (the npm package's own build) on the page as it is and answers its serious and
 * critical violations. The script is evaluated through the browser's debugging protocol, which
 * the page's Content-Security-Policy does not apply to, so the page is tested under its real
 * policy, not a relaxed one.
 */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  const source = await readFile(require.resolve("axe-core/axe.min.js"), "utf8");
  await page.evaluate(source);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(context: Document): Promise<AxeResults> } }).axe;
    interface AxeResults {
      violations: { id: string; impact: string | null; nodes: { target: unknown[] }[] }[];
    }
    const results = await axe.run(document);
    return results.violations.map((violation) => ({
      id: violation.id,
      impact: violation.impact,
      targets: violation.nodes.map((node) => node.target.map(String).join(" ")),
    }));
  });
  return violations.filter((violation) => violation.impact === "serious" || violation.impact === "critical");
}
