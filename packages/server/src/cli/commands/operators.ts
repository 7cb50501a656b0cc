import { issueOperatorToken } from "@purse/engine";
import type { Command } from "commander";
import { operatorName } from "../operator-engine.ts";
import { printResult } from "../print-result.ts";
import { withDatabase } from "../with-database.ts";

/** `purse operators token`: a short-lived bearer token for the operator fields of GraphQL. */
export function registerOperators(program: Command): void {
  program
    .command("operators")
    .description("operator access over GraphQL (credit, payout, reverse, any wallet's statement)")
    .command("token")
    .requiredOption("--client <client_id>", "an existing API client the token is issued through")
    .option("--operator <name>", "who uses it, recorded on every transaction (default: the OS user)")
    .option("--minutes <minutes>", "lifetime", "60")
    .description("issue an operator token (scope operator:<name>; it cannot pay or transfer); shown once")
    .action((o: { client: string; operator?: string; minutes: string }) =>
      withDatabase(async (db) => {
        const minutes = Number(o.minutes);
        if (!Number.isInteger(minutes) || minutes < 1 || minutes > 1440)
          throw new Error("--minutes is 1 to 1440");
        const issued = await issueOperatorToken(db, {
          clientId: o.client,
          operator: operatorName(o.operator),
          lifetimeSeconds: minutes * 60,
        });
        printResult(
          {
            access_token: issued.accessToken,
            scope: issued.scope,
            expires_at: issued.expiresAt.toISOString(),
          },
          [
            `access_token ${issued.accessToken}`,
            `scope        ${issued.scope}`,
            `expires_at   ${issued.expiresAt.toISOString()}`,
          ],
        );
      }),
    );
}
