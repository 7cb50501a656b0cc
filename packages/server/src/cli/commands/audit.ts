import { type AuditReport, auditLedger } from "@purse/engine";
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
        // Each mode's ledger on its own (contract: "Test mode": audit holds for each).
        const live = await auditLedger(db);
        const test = db.testMode && !(await db.testModeUnavailable()) ? await auditLedger(db.testMode) : null;
        const lines = [
          ...auditLines(`${describeLocation(db)}`, live),
          ...(test ? auditLines("test mode", test) : []),
        ];
        const ok = live.ok && (test?.ok ?? true);
        lines.push(
          ok
            ? "The ledger is balanced."
            : "The ledger has breaches (above). Stop money movements and investigate before going on.",
        );
        printResult(test ? { ...live, ok, testMode: test } : live, lines);
        if (!ok) process.exitCode = 1;
      }),
    );
}

function auditLines(name: string, report: AuditReport): string[] {
  const lines = [`Audit of ${name}: ${report.transactions} transactions, ${report.postings} postings`];
  for (const check of report.checks) {
    lines.push(`${check.breaches.length === 0 ? "ok  " : "FAIL"} ${check.name}`);
    for (const breach of check.breaches) lines.push(`       ${breach}`);
  }
  if (report.firstBrokenLink !== null) {
    lines.push(`First broken link: transaction ${report.firstBrokenLink} (the hash chain holds before it).`);
  }
  return lines;
}
