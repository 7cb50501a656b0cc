import { type AnyOperation, errorCatalogue, operations } from "@purse/engine";
import type { FastifyRequest } from "fastify";
import { actorOf, bearerAuth } from "../http/bearer.ts";
import type { RegisterRoute } from "../http/route-context.ts";
import { bearerErrors, bearerSecurity, envelope, errorSchema, notFound, ok } from "../schemas/common.ts";
import { toNumber } from "../schemas/currency.ts";
import { restShapes } from "./declared-wire.ts";

// Built when this module loads, as a route's `.schemas.ts` module is: the OpenAPI document lists
// its components in the order their schemas were made.
const declared = (operations as readonly AnyOperation[]).map(
  (operation) => [operation, restShapes(operation)] as const,
);

/**
 * Every declared operation (`@purse/engine`'s `operations`) as a REST route: its path and
 * method, the bearer token and scope, its input read from the path and query under REST's names
 * and validated by its contract (a refusal is the spec's 422 on the field), its answer in
 * `{status, data}` under REST's names with the declared numbers as JSON numbers, and its
 * declared refusals in the OpenAPI document.
 */
export const registerDeclaredOperations: RegisterRoute = (app, deps) => {
  for (const [operation, shapes] of declared) {
    const { rest, scope } = operation;
    app.route({
      method: rest.method,
      url: rest.path,
      // The declared scope, before the body or any work: 401 without a token, 403 without the scope.
      onRequest: bearerAuth(deps, scope),
      schema: {
        operationId: rest.operationId,
        tags: [...rest.tags],
        summary: rest.summary,
        security: bearerSecurity,
        ...(shapes.params ? { params: shapes.params } : {}),
        ...(shapes.querystring ? { querystring: shapes.querystring } : {}),
        response: {
          200: envelope(shapes.output).describe(operation.description),
          ...bearerErrors,
          ...declaredRefusals(operation),
        },
      },
      handler: async (request: FastifyRequest) => {
        const output = await operation.run(deps, actorOf(request), shapes.input(request) as never);
        return ok(shapes.toWire(output, toNumber));
      },
    });
  }
};

/** The declared refusals REST's bearer answers do not already document, by status. */
function declaredRefusals(operation: AnyOperation) {
  const refusals: Record<number, typeof errorSchema> = {};
  for (const code of operation.errors) {
    const { status, message } = errorCatalogue[code];
    if (code === "NOT_FOUND") Object.assign(refusals, notFound);
    else if (!(status in bearerErrors)) refusals[status] = errorSchema.describe(message);
  }
  return refusals;
}
