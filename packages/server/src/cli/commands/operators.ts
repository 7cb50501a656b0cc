import { issueOperatorToken } from "@purse/engine";
import type { Command } from "commander";
import { deprecatedOption, warnDeprecated } from "../deprecated-option.ts";
import { nameArguments } from "../name-arguments.ts";
import { operatorName, operatorNameRule } from "../operator-engine.ts";
import { parseCount } from "../parse-count.ts";
import { parseDuration } from "../parse-duration.ts";
import { printResult } from "../print-result.ts";
import { withDatabase } from "../with-database.ts";

const minute = 60_000;

/** `purse operators token`: a short-lived bearer token for the operator fields of GraphQL. */
export function registerOperators(program: Command): void {
  program
    .command("operators")
    .description("operator access over GraphQL (credit, payout, reverse, any wallet's statement)")
    .command("token")
    .requiredOption("--client <client_id>", "an existing API client the token is issued through")
    .option("--operator <name>", "who uses it, recorded on every transaction (default: the OS user)")
    .option("--lifetime <duration>", "how long the token works, 1m to 24h (e.g. 60m, 8h)", "60m")
    .addOption(deprecatedOption("--minutes <minutes>", "--lifetime 60m"))
    .description("issue an operator token (scope operator:<name>; it cannot pay or transfer); shown once")
    .action((o: { client: string; operator?: string; lifetime: string; minutes?: string }) =>
      withDatabase(async (db) => {
        const operator = operatorName(o.operator);
        const issued = await issueOperatorToken(db, {
          clientId: o.client,
          operator,
          lifetimeSeconds: tokenLifetime(o) / 1000,
          // An operator's token is live, so it runs on real time.
          now: new Date(),
        }).catch(
          nameArguments(
            { name: "--client", value: o.client, field: "client", names: "client" },
            { name: "--operator", value: operator, field: "operator", takes: operatorNameRule },
          ),
        );
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

/** --lifetime, or the deprecated --minutes; milliseconds. */
function tokenLifetime(o: { lifetime: string; minutes?: string }): number {
  if (o.minutes !== undefined) {
    warnDeprecated("--minutes", "--lifetime (e.g. --lifetime 60m)");
    return parseCount(o.minutes, "--minutes", 1, 1_440) * minute;
  }
  const lifetime = parseDuration(o.lifetime, "--lifetime");
  // Whole minutes or more: the token's expiry is kept to the second, and a shorter one is a typo.
  if (lifetime < minute || lifetime > 1_440 * minute)
    throw new Error(`--lifetime takes a duration from 1m to 24h (got "${o.lifetime}")`);
  return Math.floor(lifetime / 1000) * 1000;
}
