import {
  type AnyOperation,
  errorCatalogue,
  operations,
  PurseError,
  runOperation,
  scopesOf,
} from "@purse/engine";
import type { FastifyRequest } from "fastify";
import { z } from "zod";
import { actorOf, bearerAuth } from "../http/bearer.ts";
import { callContextOf } from "../http/call-context.ts";
import type { RegisterRoute } from "../http/route-context.ts";
import {
  bearerErrors,
  bearerSecurity,
  bodyErrors,
  envelope,
  errorSchema,
  notFound,
  ok,
  serverErrors,
} from "../schemas/common.ts";
import { toNumber } from "../schemas/currency.ts";
import { restShapes } from "./declared-wire.ts";

// Built when this module loads, as a route's `.schemas.ts` module is: the OpenAPI document lists
// its components in the order their schemas were made.
const declared = (operations as readonly AnyOperation[]).flatMap((operation) => {
  const { rest } = operation;
  // An operation REST does not publish (`rest: null`) has no route here.
  return rest ? [[{ ...operation, rest }, restShapes(operation, rest)] as const] : [];
});

/** Where the declared operations' routes go among the hand-written ones. */
export interface DeclaredRoutes {
  /** The placed operation with this REST operation id, registered here. */
  at(operationId: string): RegisterRoute;
  /** Every declaration not placed, registered here: a new declaration needs no edit of the list. */
  readonly others: RegisterRoute;
}

/**
 * The declared operations (`@purse/engine`'s `operations`) as REST routes, the `placed` ones
 * (by operation id) each where the caller puts it with `at`: the OpenAPI document lists paths in
 * registration order, and these keep the places their hand-written routes had.
 */
export function declaredRoutes(placed: readonly string[]): DeclaredRoutes {
  const idOf = ([operation]: (typeof declared)[number]) => operation.rest.operationId;
  for (const id of placed) {
    if (!declared.some((entry) => idOf(entry) === id)) throw new Error(`No declared operation is ${id}`);
  }
  return {
    at(operationId) {
      if (!placed.includes(operationId)) throw new Error(`${operationId} is not placed`);
      const chosen = declared.filter((entry) => idOf(entry) === operationId);
      return (app, deps) => registerOperations(app, deps, chosen);
    },
    others: (app, deps) =>
      registerOperations(
        app,
        deps,
        declared.filter((entry) => !placed.includes(idOf(entry))),
      ),
  };
}

/**
 * Each operation as a REST route (and one more per alias): its path and method, the bearer token
 * and scopes (none for a public operation), its input read from the path and the query (a read) or the body and the
 * `Idempotency-Key` header (a write) under REST's names and validated by its contract (a refusal
 * is the spec's 422 on the field), its answer in `{status, data}` under REST's names with the
 * declared numbers as JSON numbers, and its declared refusals in the OpenAPI document.
 */
function registerOperations(
  app: Parameters<RegisterRoute>[0],
  deps: Parameters<RegisterRoute>[1],
  chosen: typeof declared,
): void {
  for (const [operation, shapes] of chosen) {
    const { rest } = operation;
    const write = rest.method === "POST";
    const scopes = scopesOf(operation.scope);
    for (const { path, operationId, summary } of [rest, ...(rest.aliases ?? [])]) {
      app.route({
        method: rest.method,
        url: path,
        // The declared scopes, before the body or any work: 401 without a token, 403 without any
        // of them. A public operation asks for no token, and its document says none.
        ...(scopes ? { onRequest: bearerAuth(deps, scopes) } : {}),
        schema: {
          operationId,
          tags: [...rest.tags],
          summary,
          ...(scopes ? { security: bearerSecurity } : {}),
          ...(shapes.headers ? { headers: shapes.headers } : {}),
          ...(shapes.params ? { params: shapes.params } : {}),
          ...(shapes.querystring ? { querystring: shapes.querystring } : {}),
          ...(shapes.body ? { body: shapes.body } : {}),
          response: {
            200: answerSchema(rest, shapes.output).describe(rest.answer ?? operation.description),
            ...(write ? bodyErrors : {}),
            ...(scopes ? bearerErrors : publicErrors(operation)),
            ...declaredRefusals(operation),
            ...Object.fromEntries(
              Object.entries(rest.refusals ?? {}).map(([status, text]) => [
                status,
                errorSchema.describe(text),
              ]),
            ),
          },
        },
        handler: async (request: FastifyRequest) => {
          const actor = scopes ? actorOf(request) : null;
          const call = callContextOf(request);
          const input = shapes.input(request);
          missWithoutId(rest.operationId, input);
          const output = await runOperation(operation, deps, actor, input, call).catch((error: unknown) => {
            // The engine names the contract's field; REST's answer names its own.
            if (!PurseError.is(error) || error.field === undefined) throw error;
            throw new PurseError(error.code, shapes.wireField(error.field), error.params, error.retry);
          });
          const body = shapes.toWire(output, toNumber);
          if (rest.envelope === false) return body;
          return rest.message === undefined ? ok(body) : { status: true, message: rest.message, data: body };
        },
      });
    }
  }
}

/**
 * The 200 answer's schema: the output bare, in `{status, data}`, or in `{status, message, data}`
 * where the declaration fixes a message (the refund's).
 */
function answerSchema(rest: { envelope?: false; message?: string }, output: z.ZodType): z.ZodType {
  if (rest.envelope === false) return output;
  if (rest.message === undefined) return envelope(output);
  return z.object({ status: z.literal(true), message: z.literal(rest.message), data: output });
}

/**
 * REST's lookups by id read the id from the query string, which is text: a text that is no id
 * (`abc`, `0`, `-1`, `1.5`) can match nothing, so it is the lookup's miss, 404 Not found
 * (docs/rest.md), where GraphQL and tRPC, whose ids are typed, refuse it as input.
 */
const lookupIds: Readonly<Record<string, string>> = { showTransaction: "id" };

function missWithoutId(operationId: string, input: Record<string, unknown> | undefined): void {
  const field = lookupIds[operationId];
  const id = field === undefined ? undefined : input?.[field];
  if (id !== undefined && !(typeof id === "number" && Number.isSafeInteger(id) && id > 0))
    throw new PurseError("NOT_FOUND");
}

/** What a public route may answer besides its own refusals: no 401 or 403, a 422 only on an input. */
function publicErrors(operation: Pick<AnyOperation, "input">) {
  return operation.input ? { 422: bearerErrors[422], ...serverErrors } : serverErrors;
}

/** The declared refusals REST's bearer answers do not already document, by status. */
function declaredRefusals(operation: Pick<AnyOperation, "errors">) {
  const refusals: Record<number, typeof errorSchema> = {};
  for (const code of operation.errors) {
    const { status, message } = errorCatalogue[code];
    if (code === "NOT_FOUND") Object.assign(refusals, notFound);
    else if (!(status in bearerErrors)) refusals[status] = errorSchema.describe(message);
  }
  return refusals;
}
