import { eventOutbox, WebhookDispatcher } from "@purse/engine";
import type { FastifyInstance } from "fastify";
import { OperatorError } from "../composition/explain-failure.ts";
import { openRuntime, type Runtime } from "../composition/runtime.ts";
import type { PurseConfig } from "../config/config.ts";
import { buildServer } from "../http/build-server.ts";
import { activeTracing } from "../tracing/active-tracing.ts";
import { httpTransport } from "../webhooks/http-transport.ts";
import { startBackgroundJobs } from "./background-jobs.ts";
import { seedDemoIfEmpty, welcomeText } from "./demo-data.ts";

export interface RunningServer {
  readonly app: FastifyInstance;
  readonly runtime: Runtime;
  /** The address it listens on, e.g. http://127.0.0.1:3000. */
  readonly url: string;
  stop(): Promise<void>;
}

/** Migrates, (in embedded mode) seeds the demo on first start, and listens. */
export async function startServer(
  config: PurseConfig,
  log: (line: string) => void = () => {},
): Promise<RunningServer> {
  const runtime = await openRuntime(config);
  try {
    await warnAboutRedisNodesDown(runtime, log);
    // Demo data (with its published credentials) only on the embedded database, never in production.
    const demo =
      runtime.db.location.kind === "embedded" && !config.production ? await seedDemoIfEmpty(runtime) : null;
    const app = await buildServer(runtime);
    await app.listen({ port: config.port, host: config.host }).catch((error: unknown) => {
      throw listenFailure(error, config);
    });
    const port = (app.server.address() as { port: number }).port;
    const url = `http://127.0.0.1:${port}`;
    const baseUrl = config.port === 0 ? url : config.baseUrl;
    const tracing = activeTracing();
    const transport = runtime.metrics.timeWebhooks(
      httpTransport({ allowPrivate: config.webhookAllowPrivate }),
    );
    const worker = {
      db: runtime.db,
      secretBox: runtime.deps.secretBox,
      transport: tracing?.webhookTransport(transport) ?? transport,
      concurrency: config.webhookConcurrency,
      perReceiver: config.webhookPerReceiver,
      onError: (error: unknown) => app.log.error({ err: error }, "webhook delivery round failed"),
    };
    const dispatcher = new WebhookDispatcher(worker);
    // Endpoint events have a worker of their own: a backlog of events never takes the slots of the
    // status_url notifications, nor the reverse; each endpoint counts as one receiver.
    const events = new WebhookDispatcher({ ...worker, outbox: eventOutbox(runtime.deps.secretBox) });
    // Test mode's deliveries from its own schema, in workers of their own: an integrator's test
    // endpoints never take a live delivery's slot.
    const testDb = runtime.deps.testMode?.db;
    const testWorkers = testDb
      ? [
          new WebhookDispatcher({ ...worker, db: testDb }),
          new WebhookDispatcher({ ...worker, db: testDb, outbox: eventOutbox(runtime.deps.secretBox) }),
        ]
      : [];
    const dispatchers = [dispatcher, events, ...testWorkers];
    if (config.webhookWorker) for (const each of dispatchers) each.start();
    const stopJobs = startBackgroundJobs(runtime, app.log);
    if (runtime.db.location.kind === "embedded") log(welcomeText(baseUrl, demo));
    else log(`Purse is serving on ${baseUrl} (PostgreSQL, ${runtime.coordination.mode} locks).`);
    let stopping: Promise<void> | null = null;
    return {
      app,
      runtime,
      url,
      stop: () => {
        stopping ??= closeGracefully(app)
          .then(() => Promise.all([stopJobs(), ...dispatchers.map((each) => each.stop())]))
          .then(() => runtime.close())
          // The spans of the last requests, still in the batch, before the process exits.
          .then(() => tracing?.shutdown());
        return stopping;
      },
    };
  } catch (error) {
    await runtime.close();
    throw error;
  }
}

/** Why the server could not listen, naming the variable to change (not DATABASE_URL's fault). */
function listenFailure(error: unknown, config: PurseConfig): Error {
  const code = (error as { code?: unknown }).code;
  const where = `${config.host}:${config.port}`;
  if (code === "EADDRINUSE")
    return new OperatorError(`cannot listen on ${where}: the port is in use; set PORT to a free one`);
  if (code === "EACCES")
    return new OperatorError(`cannot listen on ${where} (EACCES): set PORT to one above 1023`);
  if (typeof code === "string")
    return new OperatorError(
      `cannot listen on ${where} (${code}): set HOST to an address of this machine (0.0.0.0 for all)`,
    );
  return error instanceof Error ? error : new Error(String(error));
}

/**
 * One line per Redis node that does not answer at start, instead of ioredis's stack traces. Purse
 * serves anyway (a node may come back); /readyz says whether a majority answers.
 */
async function warnAboutRedisNodesDown(runtime: Runtime, log: (line: string) => void): Promise<void> {
  const nodes = await runtime.coordination.nodes();
  const down = nodes.filter((node) => !node.up);
  for (const node of down) {
    log(
      `Redis node ${node.node} does not answer (${node.error ?? "no reply"}): check REDIS_URL; ` +
        `${nodes.length - down.length} of ${nodes.length} node(s) answer, locks need a majority (see /readyz).`,
    );
  }
}

/** How long requests in flight may take to finish before their connections are cut. */
const shutdownDeadlineMs = 10_000;

/**
 * Stops accepting connections and lets requests in flight finish. Keep-alive connections are
 * closed as soon as they go idle (a client's pool would otherwise hold the process open), and
 * whatever is still open at the deadline is cut.
 */
async function closeGracefully(app: FastifyInstance): Promise<void> {
  const idleSweep = setInterval(() => app.server.closeIdleConnections(), 100);
  const deadline = setTimeout(() => app.server.closeAllConnections(), shutdownDeadlineMs);
  try {
    await app.close();
  } finally {
    clearInterval(idleSweep);
    clearTimeout(deadline);
  }
}
