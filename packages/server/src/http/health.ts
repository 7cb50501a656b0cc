import type { FastifyInstance } from "fastify";
import { quorumOf } from "../composition/coordination.ts";
import type { Runtime } from "../composition/runtime.ts";

/**
 * `/healthz`: the process is up. `/readyz`: it can serve payments: the database answers and a
 * majority of the Redis nodes do (Redlock takes its locks with a majority, so one node down out of
 * three is degraded, not down). The body names whatever does not answer.
 */
export function registerHealth(app: FastifyInstance, runtime: Runtime): void {
  app.get("/healthz", { schema: { hide: true } }, async () => ({ status: "ok" }));
  app.get("/readyz", { schema: { hide: true } }, async (_request, reply) => {
    const [database, nodes] = await Promise.all([runtime.db.ping(), runtime.coordination.nodes()]);
    const up = nodes.filter((node) => node.up).length;
    const redisReady = nodes.length === 0 || up >= quorumOf(nodes.length);
    const ready = database && redisReady;
    const redis =
      runtime.coordination.mode === "in-process"
        ? "not used"
        : up === nodes.length
          ? "ok"
          : redisReady
            ? "degraded"
            : "down";
    const down = [
      ...(database ? [] : ["database"]),
      ...nodes
        .filter((node) => !node.up)
        .map((node) => `redis ${node.node}${node.error ? ` (${node.error})` : ""}`),
    ];
    return reply.code(ready ? 200 : 503).send({
      status: ready ? "ready" : "not ready",
      checks: { database: database ? "ok" : "down", redis },
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
