import type { Command } from "commander";
import { describeLocation } from "../../composition/open-database.ts";
import { printResult } from "../print-result.ts";
import { withDatabase } from "../with-database.ts";

export function registerMigrate(program: Command): void {
  program
    .command("migrate")
    .description("apply pending database migrations (idempotent; safe to run from several processes at once)")
    .action(() =>
      withDatabase(
        async (db) => {
          const applied = await db.migrate();
          printResult(
            { applied },
            applied.length === 0
              ? `${describeLocation(db)} is up to date.`
              : `Applied ${applied.length} migration(s) to ${describeLocation(db)}: ${applied.join(", ")}`,
          );
        },
        { requireMigrated: false },
      ),
    );
}
