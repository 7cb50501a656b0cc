import type { EngineDependencies } from "@purse/engine";
import type {
  FastifyBaseLogger,
  FastifyInstance,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";

/** The fastify instance routes are declared on: zod schemas validate input and describe OpenAPI. */
export type RestApp = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  ZodTypeProvider
>;

/** One route file's export: declares its route(s) on the app, closing over the engine. */
export type RegisterRoute = (app: RestApp, deps: EngineDependencies) => void;
