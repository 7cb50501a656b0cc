import { distributeOnCitus } from "@purse/engine";
import type { Command } from "commander";
import { describeLocation } from "../../composition/open-database.ts";
import { printResult } from "../print-result.ts";
import { withDatabase } from "../with-database.ts";

/** `purse citus distribute`: the distribution step on a Citus coordinator (docs/sharding.md). */
export function registerCitus(program: Command): void {
  const citus = program.command("citus").description("run Purse on a Citus cluster (docs/sharding.md)");
  citus
    .command("distribute")
    .description(
      "on a Citus coordinator, after `purse migrate`: make the tables Citus can take today reference tables (idempotent; docs/sharding.md lists what Citus still refuses)",
    )
    .action(() =>
      withDatabase(async (db) => {
        const result = await distributeOnCitus(db);
        const made = result.distributed.length === 0 ? "none" : result.distributed.join(", ");
        const kept =
          result.already.length === 0 ? "" : ` Already reference tables: ${result.already.join(", ")}.`;
        printResult(result, `Reference tables made on ${describeLocation(db)}: ${made}.${kept}`);
      }),
    );
}
