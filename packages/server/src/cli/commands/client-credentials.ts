import { openSecretBox, revokeClientTokens, rotateClientSecret, rotateFormToken } from "@purse/engine";
import type { Command } from "commander";
import { openRevocationBroadcast } from "../../composition/revocation-broadcast.ts";
import { readConfig } from "../../config/config.ts";
import { nameArguments } from "../name-arguments.ts";
import { parseDuration } from "../parse-duration.ts";
import { printResult } from "../print-result.ts";
import { withDatabase } from "../with-database.ts";

const noClient = (clientId: string) =>
  nameArguments({ name: "<client_id>", value: clientId, field: "client", names: "client" });

/** `purse clients rotate-secret | rotate-form-token | revoke-tokens`: contain a leaked credential. */
export function registerClientCredentials(clients: Command): void {
  clients
    .command("rotate-secret")
    .argument("<client_id>", "the client whose client_secret to replace")
    .option(
      "--overlap <duration>",
      "how long the old secret still gets tokens (e.g. 24h, 0 to cut it now)",
      "24h",
    )
    .description("issue a new client_secret; the old one keeps working during the overlap")
    .action((clientId: string, options: { overlap: string }) =>
      withDatabase(async (db) => {
        const overlapMs = parseDuration(options.overlap, "--overlap");
        const secret = await rotateClientSecret(db, clientId, overlapMs).catch(noClient(clientId));
        printResult({ client_id: clientId, client_secret: secret, overlap_seconds: overlapMs / 1000 }, [
          `New client_secret for ${clientId} (shown once; store it now):`,
          secret,
          overlapMs === 0
            ? "The old secret no longer gets tokens. Tokens already issued stay valid: purse clients revoke-tokens ends them."
            : `The old secret still gets tokens for ${options.overlap}.`,
        ]);
      }),
    );
  clients
    .command("rotate-form-token")
    .argument("<client_id>", "the client whose form token to replace")
    .option("--overlap <duration>", "how long checkouts signed with the old token are accepted", "24h")
    .description("issue a new form token; checkouts signed with the old one are accepted during the overlap")
    .action((clientId: string, options: { overlap: string }) =>
      withDatabase(async (db) => {
        const overlapMs = parseDuration(options.overlap, "--overlap");
        const secretBox = await openSecretBox(db, readConfig().secretKey, readConfig().previousSecretKeys);
        const token = await rotateFormToken(db, secretBox, clientId, overlapMs).catch(noClient(clientId));
        printResult({ client_id: clientId, form_token: token, overlap_seconds: overlapMs / 1000 }, [
          `New form token for ${clientId} (shown once; store it now):`,
          token,
          overlapMs === 0
            ? "Checkouts signed with the old token are refused from now on."
            : `Checkouts signed with the old token are accepted for ${options.overlap}; webhooks are signed with the new one.`,
        ]);
      }),
    );
  clients
    .command("revoke-tokens")
    .argument("<client_id>", "the client whose access tokens to revoke")
    .description("revoke every access token of a client at once (its secret still gets new ones)")
    .action((clientId: string) =>
      withDatabase(async (db) => {
        const { redisUrl, redisPrefix } = readConfig();
        // With Redis, the serving processes hear it at once; without, their caches (1 s) bound it.
        const broadcast = redisUrl ? await openRevocationBroadcast(redisUrl, redisPrefix) : undefined;
        const revoked = await revokeClientTokens(db, clientId, broadcast ?? {})
          .catch(noClient(clientId))
          .finally(() => broadcast?.close());
        printResult(
          { client_id: clientId, revoked },
          `Revoked ${revoked} live access token(s) of ${clientId}; calls with them now answer 401.`,
        );
      }),
    );
}
