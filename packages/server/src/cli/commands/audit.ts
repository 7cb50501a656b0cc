import { auditLedger } from "@purse/engine";
import type { Command } from "commander";
import { describeLocation } from "../../composition/open-database.ts";
import { printResult } from "../print-result.ts";
import { withDatabase } from "../with-database.ts";

export function registerAudit(program: Command): void {
  program
    .command("audit")
    .description("verify the ledger's invariants; exits 1 with a report on any breach")
    .action(() =>
      withDatabase(async (db) => {
        const report = await auditLedger(db);
        const lines = [
          `Audit of ${describeLocation(db)}: ${report.transactions} transactions, ${report.postings} postings`,
        ];
        for (const check of report.checks) {
          lines.push(`${check.breaches.length === 0 ? "ok  " : "FAIL"} ${check.name}`);
          for (const breach of check.breaches) lines.push(`       ${breach}`);
        }
        if (report.firstBrokenLink !== null) {
          lines.push(
            `First broken link: transaction ${report.firstBrokenLink} (the hash chain holds before it).`,
          );
        }
        lines.push(
          report.ok
            ? "The ledger is balanced."
            : "The ledger has breaches (above). Stop money movements and investigate before going on.",
        );
        printResult(report, lines);
        if (!report.ok) process.exitCode = 1;
      }),
    );
}
