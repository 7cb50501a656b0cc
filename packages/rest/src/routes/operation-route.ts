import {
  type AnyOperation,
  engineOfPublicCall,
  errorCatalogue,
  PurseError,
  runOperation,
  scopesOf,
} from "@purse/engine";
import { refusedFieldName } from "@purse/http-kernel";
import type { FastifyRequest } from "fastify";
import { z } from "zod";
import { actorOf, bearerAuth, engineOf } from "../http/bearer.ts";
import { callContextOf } from "../http/call-context.ts";
import type { RegisterRoute } from "../http/route-context.ts";
import {
  bearerErrors,
  bearerSecurity,
  bodyErrors,
  envelope,
  errorSchema,
  livemodeField,
  notFound,
  ok,
  serverErrors,
  testModeMark,
} from "../schemas/common.ts";

/** A part of the request a route reads (path, query string, body, headers): an object schema, or none. */
type WirePart = z.ZodObject | undefined;

/** What a part's schema read, or nothing for a part the route does not read. */
type Read<Part extends WirePart> = Part extends z.ZodObject ? z.output<Part> : undefined;

/** The operation's input fields, by the contract's names. */
type InputField<Operation extends AnyOperation> = Operation["input"] extends z.ZodType
  ? keyof NonNullable<z.input<Operation["input"]>> & string
  : never;

/**
 * What a route hands the operation: every input field by the contract's name (none missing, none
 * unknown), each value as the wire carried it, which the contract then reads and refuses (a page
 * that is no number: its own 422); nothing for an operation that takes no input.
 */
type SentInput<Operation extends AnyOperation> = Operation["input"] extends z.ZodType
  ? { readonly [Field in InputField<Operation>]: unknown }
  : undefined;

/** What a route read of one request, each part as its schema parsed it. */
export interface WireRequest<
  Params extends WirePart,
  Query extends WirePart,
  Body extends WirePart,
  Headers extends WirePart,
> {
  readonly params: Read<Params>;
  readonly query: Read<Query>;
  readonly body: Read<Body>;
  readonly headers: Read<Headers>;
}

/** Another path the same route answers under, with an OpenAPI entry of its own (older clients' names). */
export interface RouteAlias {
  readonly url: string;
  readonly operationId: string;
  readonly summary: string;
}

/**
 * One REST route of an engine operation, stated whole: where it is, what it reads under the
 * specification's names (each part a zod schema, which is also its OpenAPI entry), what it answers,
 * and the two typed translations between the wire and the operation's contract. Nothing is
 * derived from field names at run time: a field the contract renames or drops no longer compiles.
 */
export interface RouteContract<
  Operation extends AnyOperation,
  Params extends WirePart,
  Query extends WirePart,
  Body extends WirePart,
  Headers extends WirePart,
  Answer extends z.ZodType,
> {
  readonly method: "GET" | "POST";
  /** Fastify's form: `:name` is a path parameter of `params`. */
  readonly url: string;
  readonly operationId: string;
  readonly tags: readonly string[];
  readonly summary: string;
  readonly aliases?: readonly RouteAlias[];
  readonly params?: Params;
  readonly query?: Query;
  readonly body?: Body;
  /**
   * A body that works as is against a fresh `npm start` (the demo fixture's values: `demoValues`),
   * the document's example on every media type the route reads; typed as the body schema takes it.
   * The OpenAPI drift test asks one of every route with a body.
   */
  readonly example?: Body extends z.ZodType ? z.input<Body> : never;
  readonly headers?: Headers;
  /** The answer's data: sent in `{status: true, data}` unless `bare`. */
  readonly answer: Answer;
  /** True where the specification shows the answer bare (`{"message": ...}`), with no envelope. */
  readonly bare?: true;
  /**
   * A fixed message the envelope carries beside `data` (`{status, message, data}`), where the
   * contract shows one.
   */
  readonly message?: string;
  /** The 200 answer's description, where the operation's own does not say what REST sends. */
  readonly answerDescription?: string;
  /** REST's own description of a refusal status, where one catalogue message would not say all it answers. */
  readonly refusals?: Readonly<Record<number, string>>;
  /** The operation's input, by the contract's names, from what the wire carried. */
  readonly input: (request: WireRequest<Params, Query, Body, Headers>) => SentInput<Operation>;
  /** The answer's data, by the wire's names, from the operation's result. */
  readonly output: (result: z.input<Operation["output"]>) => z.input<Answer>;
  /** The wire's name of each input field, which a refusal names (`walletFrom`: `wallet_from`). */
  readonly fields: { readonly [Field in InputField<Operation>]: string };
}

/** A route, ready to be registered where the OpenAPI document lists it. */
export interface RestRoute {
  /** Its OpenAPI operation ids: its own, then its aliases'. */
  readonly operationIds: readonly string[];
  /** Its path (`/api/processing/refund`), by which the list orders the document's paths. */
  readonly url: string;
  /** The engine operation it publishes (its refusals and idempotency say which headers it answers). */
  readonly operation: AnyOperation;
  /** Its request body's example (`RouteContract.example`), under each of its operation ids. */
  readonly example?: Readonly<Record<string, unknown>>;
  readonly register: RegisterRoute;
}

/**
 * The route of `operation` as `contract` states it: the operation's scopes checked first (401
 * without a token, 403 without a scope; none for a public operation), the parts validated by
 * their schemas (a refusal is the specification's 422 on the field), the operation run on the
 * translated input (its contract is the rest of the validation), the answer translated back, and
 * every answer it can give in the OpenAPI document: its own, the scope's and the declared refusals.
 */
export function operationRoute<
  Operation extends AnyOperation,
  Params extends WirePart = undefined,
  Query extends WirePart = undefined,
  Body extends WirePart = undefined,
  Headers extends WirePart = undefined,
  Answer extends z.ZodType = z.ZodType,
>(operation: Operation, contract: RouteContract<Operation, Params, Query, Body, Headers, Answer>): RestRoute {
  const scopes = scopesOf(operation.scope);
  const wireNames: Readonly<Record<string, string>> = contract.fields;
  // A refused field that is no input field of the route (a use case's own, `walletTo` of a pair):
  // the specification's snake_case, as every door spells it.
  const wireField = (field: string) => wireNames[field] ?? refusedFieldName(field);
  const response = {
    200: answerSchema(contract).describe(contract.answerDescription ?? operation.description),
    ...(contract.method === "POST" ? bodyErrors : {}),
    ...(scopes ? bearerErrors : publicErrors(operation)),
    ...declaredRefusals(operation),
    ...Object.fromEntries(
      Object.entries(contract.refusals ?? {}).map(([status, text]) => [status, errorSchema.describe(text)]),
    ),
  };
  const register: RegisterRoute = (app, deps) => {
    for (const { url, operationId, summary } of [contract, ...(contract.aliases ?? [])]) {
      app.route({
        method: contract.method,
        url,
        // Before the body or any work: 401 without a token, 403 without any of the scopes.
        ...(scopes ? { onRequest: bearerAuth(deps, scopes) } : {}),
        schema: {
          operationId,
          tags: [...contract.tags],
          summary,
          ...(scopes ? { security: bearerSecurity } : {}),
          ...(contract.headers ? { headers: contract.headers } : {}),
          ...(contract.params ? { params: contract.params } : {}),
          ...(contract.query ? { querystring: contract.query } : {}),
          ...(contract.body ? { body: contract.body } : {}),
          response,
        },
        handler: async (request: FastifyRequest) => {
          const actor = scopes ? actorOf(request) : null;
          const input = contract.input({
            params: request.params,
            query: request.query,
            body: request.body,
            headers: request.headers,
          } as WireRequest<Params, Query, Body, Headers>);
          const engine = scopes ? engineOf(request) : engineOfPublicCall(deps, operation, input);
          const result = await runOperation(operation, engine, actor, input, callContextOf(request)).catch(
            (error: unknown) => {
              // The engine names the contract's field; REST's answer names its own.
              if (!PurseError.is(error) || error.field === undefined) throw error;
              throw new PurseError(error.code, wireField(error.field), error.params, error.retry);
            },
          );
          const data = contract.output(result as z.input<Operation["output"]>);
          if (contract.bare) return data;
          // Test mode's answers say so (contract: "Test mode"); live ones stay as the spec shows them.
          const mode = engine.db.mode === "test" ? testModeMark : null;
          return contract.message === undefined
            ? { ...ok(data), ...mode }
            : { status: true, message: contract.message, data, ...mode };
        },
      });
    }
  };
  return {
    operationIds: [contract.operationId, ...(contract.aliases ?? []).map((alias) => alias.operationId)],
    url: contract.url,
    operation,
    ...(contract.example === undefined ? {} : { example: contract.example }),
    register,
  };
}

/** The 200 answer's schema: the data bare, in `{status, data}`, or in `{status, message, data}`. */
function answerSchema(contract: { answer: z.ZodType; bare?: true; message?: string }): z.ZodType {
  if (contract.bare) return contract.answer;
  if (contract.message === undefined) return envelope(contract.answer);
  return z.object({
    status: z.literal(true),
    message: z.literal(contract.message),
    data: contract.answer,
    livemode: livemodeField,
  });
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
