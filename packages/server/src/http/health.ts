import type { FastifyInstance } from "fastify";
import { quorumOf } from "../composition/coordination.ts";
import type { Runtime } from "../composition/runtime.ts";
import { withinMs } from "../metrics/share-sample.ts";

/**
 * `/healthz`: the process is up. `/readyz`: it can serve payments: the database answers and a
 * majority of the Redis nodes do (Redlock takes its locks with a majority, so one node down out of
 * three is degraded, not down). A read replica (DATABASE_READ_URL) that does not answer leaves it
 * ready but `degraded` (still 200): its reads fall back to the primary, so the process serves
 * everything and a load balancer must keep sending it traffic (contract: "Read replica"). The body
 * names whatever does not answer. Readiness also waits for the doors loaded after the start
 * (`loadDoors`: GraphQL's), so no request is sent to a process that would stall loading them.
 */
export function registerHealth(app: FastifyInstance, runtime: Runtime, loadDoors: () => Promise<void>): void {
  app.get("/healthz", { schema: { hide: true } }, async () => ({ status: "ok" }));
  app.get("/readyz", { schema: { hide: true } }, async (_request, reply) => {
    const [doors, database, nodes, replica] = await Promise.all([
      loadDoors().then(
        () => true,
        () => false,
      ),
      runtime.db.ping(),
      runtime.coordination.nodes(),
      runtime.db.replica ? withinMs(2_000, runtime.db.replica.status()).catch(() => ({ up: false })) : null,
    ]);
    const up = nodes.filter((node) => node.up).length;
    const redisReady = nodes.length === 0 || up >= quorumOf(nodes.length);
    const ready = database && redisReady && doors;
    const redis =
      runtime.coordination.mode === "in-process"
        ? "not used"
        : up === nodes.length
          ? "ok"
          : redisReady
            ? "degraded"
            : "down";
    const down = [
      ...(doors ? [] : ["graphql (failed to load: see the log)"]),
      ...(database ? [] : ["database"]),
      ...(replica && !replica.up ? ["database replica"] : []),
      ...nodes
        .filter((node) => !node.up)
        .map((node) => `redis ${node.node}${node.error ? ` (${node.error})` : ""}`),
    ];
    const degraded = replica !== null && !replica.up;
    return reply.code(ready ? 200 : 503).send({
      status: ready ? (degraded ? "degraded" : "ready") : "not ready",
      checks: {
        database: database ? "ok" : "down",
        ...(replica === null ? {} : { databaseReplica: replica.up ? "ok" : "down" }),
        redis,
      },
      ...(nodes.length > 0
        ? {
            redis: {
              quorum: `${quorumOf(nodes.length)} of ${nodes.length}`,
              answering: up,
              nodes: nodes.map((node) => ({ node: node.node, status: node.up ? "ok" : "down" })),
            },
          }
        : {}),
      ...(down.length > 0 ? { down } : {}),
      coordination: runtime.coordination.mode,
    });
  });
}
