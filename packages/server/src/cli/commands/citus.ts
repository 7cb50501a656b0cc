import { distributeOnCitus } from "@purse/engine";
import type { Command } from "commander";
import { describeLocation } from "../../composition/open-database.ts";
import { printProgress, printResult } from "../print-result.ts";
import { withDatabase } from "../with-database.ts";

/** `purse citus distribute`: the distribution step on a Citus coordinator (docs/sharding.md). */
export function registerCitus(program: Command): void {
  const citus = program.command("citus").description("run Purse on a Citus cluster (docs/sharding.md)");
  citus
    .command("distribute")
    .description(
      "on a Citus coordinator, after `purse migrate`: make the shared tables reference tables and distribute every owned table by its owner, in one step (idempotent; docs/sharding.md)",
    )
    .action(() =>
      withDatabase(async (db) => {
        // One line per table as Citus takes it: on a large ledger the copy runs for minutes.
        const result = await distributeOnCitus(db, (step) =>
          printProgress(
            `  ${step.table}: ${step.made === "reference" ? "reference table" : "distributed by owner"}, ${step.rows} rows copied in ${(step.ms / 1000).toFixed(1)} s`,
          ),
        );
        const list = (tables: readonly string[]) => (tables.length === 0 ? "none" : tables.join(", "));
        const already = result.already.length === 0 ? "" : ` Already distributed: ${list(result.already)}.`;
        printResult(
          result,
          `On ${describeLocation(db)}: reference tables made: ${list(result.referenced)}. Distributed by owner: ${list(result.distributed)}.${already}`,
        );
      }),
    );
}
