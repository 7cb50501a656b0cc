import type { Command } from "commander";
import { explainFailure } from "../../composition/explain-failure.ts";
import { redactUrl } from "../../composition/open-database.ts";
import { readConfig } from "../../config/config.ts";

export function registerServe(program: Command): void {
  program
    .command("serve")
    .description(
      "migrate, then serve REST, GraphQL, tRPC and the hosted page on PORT; without DATABASE_URL, on an embedded database with demo data",
    )
    .action(async () => {
      // Loaded here so that the database verbs start without loading the HTTP stack.
      const { startServer } = await import("../../serve/start-server.ts");
      const config = readConfig();
      const server = await startServer(config, (line) => console.log(line)).catch((error: unknown) => {
        throw explainFailure(
          error,
          config.databaseUrl
            ? `PostgreSQL at ${redactUrl(config.databaseUrl)}`
            : `the embedded database in ${config.dataDir}`,
        );
      });
      const shutdown = (signal: string) => {
        server.app.log.info({ signal }, "shutting down: finishing in-flight requests");
        server.stop().then(
          () => process.exit(0),
          (error: unknown) => {
            server.app.log.error({ err: error }, "shutdown failed");
            process.exit(1);
          },
        );
      };
      process.once("SIGTERM", () => shutdown("SIGTERM"));
      process.once("SIGINT", () => shutdown("SIGINT"));
    });
}
