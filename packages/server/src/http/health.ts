import type { FastifyInstance } from "fastify";
import type { Runtime } from "../composition/runtime.ts";

/** `/healthz`: the process is up. `/readyz`: it can serve payments (database and Redis answer). */
export function registerHealth(app: FastifyInstance, runtime: Runtime): void {
  app.get("/healthz", { schema: { hide: true } }, async () => ({ status: "ok" }));
  app.get("/readyz", { schema: { hide: true } }, async (_request, reply) => {
    const [database, redis] = await Promise.all([runtime.db.ping(), runtime.coordination.ping()]);
    const ready = database && redis;
    return reply.code(ready ? 200 : 503).send({
      status: ready ? "ready" : "not ready",
      checks: {
        database: database ? "ok" : "down",
        redis: runtime.coordination.mode === "in-process" ? "not used" : redis ? "ok" : "down",
      },
      coordination: runtime.coordination.mode,
    });
  });
}
