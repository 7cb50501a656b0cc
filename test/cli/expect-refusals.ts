import { expect } from "vitest";
import type { CliRun } from "../support/purse-cli.ts";

/**
 * Runs each command and expects it to exit 1 with exactly its message on stderr. Four at a time:
 * each is a process of its own, and none of them changes what another reads.
 */
export async function expectRefusals(
  purse: (...args: string[]) => Promise<CliRun>,
  refusals: readonly (readonly [string[], string])[],
): Promise<void> {
  for (let start = 0; start < refusals.length; start += 4) {
    const batch = refusals.slice(start, start + 4);
    const runs = await Promise.all(batch.map(([args]) => purse(...args)));
    for (const [index, [args, message]] of batch.entries()) {
      expect(runs[index]?.code, args.join(" ")).toBe(1);
      expect(runs[index]?.stderr.trim(), args.join(" ")).toBe(message);
    }
  }
}
