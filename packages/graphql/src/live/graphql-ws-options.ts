import { bearerToken, type EngineDependencies, PurseError, resolveCaller } from "@purse/engine";
import { type DocumentNode, GraphQLError, getOperationAST, OperationTypeNode } from "graphql";
import { CloseCode, type Context, type ServerOptions } from "graphql-ws";
import { createContext } from "../context.ts";
import { checkParams } from "../limits/bound-requests.ts";
import type { PurseYoga } from "../yoga.ts";

type SubscribeFunction = ReturnType<PurseYoga["getEnveloped"]>["subscribe"];

/** What the host hands each socket (the shape of graphql-ws's fastify handler's `extra`). */
export interface LiveSocketExtra {
  readonly socket: { close(code: number, reason: string): void };
  /** `ip`: the caller's address as the host resolved it (PURSE_TRUST_PROXY), for the abuse limits. */
  readonly request: { readonly ip: string };
}

export interface LiveSocketBounds {
  /** A socket that has not sent `connection_init` by then is closed (4408). */
  readonly connectionInitTimeoutMs: number;
  /** Subscriptions running at once on one socket; one more is refused in GraphQL's error shape. */
  readonly maxSubscriptions: number;
}

/** Close reasons: what went wrong and what to send instead (a close reason holds 123 bytes). */
export const liveCloseReasons = {
  missingToken: "Send connectionParams {authorization: 'Bearer <token>'} in connection_init.",
  refusedToken: "The token is invalid, expired or revoked.",
} as const;

/**
 * GraphQL over WebSocket (the graphql-ws protocol) for front ends on other origins. The caller
 * authenticates with a bearer token in `connection_init`'s payload (`connectionParams`), never in
 * the URL and never with the session cookie: a browser sends the cookie with any page's
 * WebSocket handshake (no CORS applies to it), so accepting it would let any site that a signed-in
 * merchant visits read their live events (cross-site WebSocket hijacking). Only subscriptions
 * run here; queries and mutations go over HTTP, with its body limits and Idempotency-Key.
 * Every document goes through yoga's own parse, validate and subscribe (the same bounds, depth,
 * cost and error masking as the HTTP path).
 */
export function graphqlWsOptions(
  yoga: PurseYoga,
  deps: EngineDependencies,
  bounds: LiveSocketBounds,
): ServerOptions<Record<string, unknown>, LiveSocketExtra> {
  const tokens = new WeakMap<object, string>();
  // Each operation's own subscribe from yoga's envelope (graphql-ws calls `subscribe` with the
  // arguments onSubscribe returned), found by the operation's context.
  const subscribers = new WeakMap<object, SubscribeFunction>();
  type SocketContext = Context<Record<string, unknown>, LiveSocketExtra>;

  /** The socket's token while it is still good; otherwise the socket is closed (4403). */
  async function stillAuthorized(ctx: SocketContext): Promise<string | null> {
    const token = tokens.get(ctx) ?? null;
    const actor = await resolveCaller(deps, token)
      .then((caller) => caller.actor)
      .catch(() => null);
    if (actor) return token;
    closeSocket(ctx, CloseCode.Forbidden, liveCloseReasons.refusedToken);
    return null;
  }

  return {
    connectionInitWaitTimeout: bounds.connectionInitTimeoutMs,
    async onConnect(ctx) {
      const authorization = ctx.connectionParams?.["authorization"];
      const token = typeof authorization === "string" ? bearerToken(authorization) : null;
      if (token === null) {
        closeSocket(ctx, CloseCode.Unauthorized, liveCloseReasons.missingToken);
        return false;
      }
      try {
        await resolveCaller(deps, token).then((caller) => caller.actor);
      } catch (error) {
        if (!PurseError.is(error)) throw error;
        closeSocket(ctx, CloseCode.Forbidden, liveCloseReasons.refusedToken);
        return false;
      }
      tokens.set(ctx, token);
      return true;
    },
    async onSubscribe(ctx, _id, payload) {
      // The new subscription is already counted in `ctx.subscriptions`.
      if (Object.keys(ctx.subscriptions).length > bounds.maxSubscriptions) {
        return [
          refusal(
            `At most ${bounds.maxSubscriptions} subscriptions run at once on one connection.`,
            "TOO_MANY_SUBSCRIPTIONS",
          ),
        ];
      }
      const token = await stillAuthorized(ctx);
      if (token === null) return [refusal(liveCloseReasons.refusedToken, "UNAUTHORIZED")];
      const { parse, validate, subscribe, schema } = yoga.getEnveloped({});
      let document: DocumentNode;
      try {
        checkParams(payload);
        document = parse(payload.query);
      } catch (error) {
        if (error instanceof GraphQLError) return [error];
        throw error;
      }
      const errors = validate(schema, document);
      if (errors.length > 0) return [...errors];
      const operation = getOperationAST(document, payload.operationName);
      if (operation?.operation !== OperationTypeNode.SUBSCRIPTION) {
        return [refusal("Only subscriptions run over WebSocket; send queries and mutations over HTTP.")];
      }
      // The connection's bearer token only: whatever cookie the handshake carried is ignored.
      const contextValue = createContext(deps, { token, clientAddress: ctx.extra.request.ip });
      subscribers.set(contextValue, subscribe);
      return {
        schema,
        document,
        operationName: payload.operationName,
        variableValues: payload.variables,
        contextValue,
      };
    },
    subscribe: (args) => {
      const subscribe = subscribers.get(args.contextValue as object);
      if (!subscribe) throw new Error("A subscription without its envelope");
      return subscribe(args);
    },
    onComplete(ctx) {
      // A stream that ended because its token was revoked ends the connection too, once the
      // client has had its `complete` (sent right after this hook returns).
      setImmediate(() => void stillAuthorized(ctx));
    },
  };
}

function closeSocket(ctx: { readonly extra: LiveSocketExtra }, code: number, reason: string): void {
  ctx.extra.socket.close(code, reason);
}

function refusal(message: string, code = "BAD_REQUEST"): GraphQLError {
  return new GraphQLError(message, { extensions: { code } });
}
