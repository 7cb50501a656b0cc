import { defaultEngineOptions, type EngineDependencies } from "@purse/engine";
import Fastify, { type FastifyInstance, type FastifyPluginAsync, type FastifyServerOptions } from "fastify";
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from "fastify-type-provider-zod";
import type { OpenAPIV3_1 } from "openapi-types";
import { limitBodies } from "./http/body-limits.ts";
import { registerBodies } from "./http/body-parsers.ts";
import { announceReplays } from "./http/call-context.ts";
import { answerError, installErrorHandling } from "./http/error-handling.ts";
import { installOAuthErrors } from "./http/oauth-errors.ts";
import { openApiPath, registerOpenApi } from "./http/openapi.ts";
import type { RegisterRoute, RestApp } from "./http/route-context.ts";
import { restServerOptions } from "./http/server-options.ts";
import { rejectNulCharacters } from "./http/text-guard.ts";
import { registerPayPage } from "./pay-page/register-pay-page.ts";
import { registerCaptchaChallenge } from "./routes/captcha-challenge.ts";
import { registerExportTransactions } from "./routes/export-transactions.ts";
import { registerIssueToken } from "./routes/issue-token.ts";
import { operationRoutes } from "./routes/operation-routes.generated.ts";
import { registerRevokeToken } from "./routes/revoke-token.ts";
import { registerPageSecurity, registerSecurityHeaders } from "./security-headers.ts";

/**
 * The API: bearer, signature or no authentication; JSON, form or multipart bodies. An engine
 * operation's route is its own contract (`routes/*.route.ts`, listed by `npm run lists` in
 * `routes/operation-routes.generated.ts`); the export and captcha routes are Fastify's alone.
 */
const jsonRoutes: readonly RegisterRoute[] = [
  ...Object.values(operationRoutes).map((route) => route.register),
  registerCaptchaChallenge,
  registerExportTransactions,
];

/** RFC 6749 and RFC 7009: `{"error": code}` answers. */
const tokenRoutes: readonly RegisterRoute[] = [registerIssueToken, registerRevokeToken];

export interface RestApiOptions {
  readonly deps: EngineDependencies;
  /** The address clients use (BASE_URL): the OpenAPI document's `servers`. */
  readonly publicUrl?: string;
}

/**
 * Every path of the wallet payment API, its OpenAPI document (/openapi.json) and reference page
 * (/docs), and the hosted payment page. Encapsulated: its body parsers, validators and error
 * handler apply to its own routes only; unknown paths are the host's, so give the host
 * `installErrorHandling` too (as `buildRestApp` does) for one error shape everywhere.
 */
export const restApi: FastifyPluginAsync<RestApiOptions> = async (app, { deps, publicUrl }) => {
  app.setErrorHandler(answerError);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  limitBodies(app);
  await registerBodies(app);
  rejectNulCharacters(app);
  announceReplays(app);
  await registerOpenApi(app, publicUrl === undefined ? {} : { publicUrl });
  for (const register of jsonRoutes) register(typed(app), deps);
  await app.register(async (oauth) => {
    installOAuthErrors(oauth);
    for (const register of tokenRoutes) register(typed(oauth), deps);
  });
  await app.register(async (page) => {
    await registerPageSecurity(page, { production: deps.options.requireHttpsUrls });
    registerPayPage(typed(page), deps);
  });
};

function typed(app: FastifyInstance): RestApp {
  return app.withTypeProvider<ZodTypeProvider>();
}

export interface BuildRestAppOptions {
  /** Fastify's logger option (default: off). */
  readonly logger?: FastifyServerOptions["logger"];
}

/** A server with only the REST API: for tests, and a minimal deployment. Call `listen` on it. */
export async function buildRestApp(
  deps: EngineDependencies,
  options: BuildRestAppOptions = {},
): Promise<FastifyInstance> {
  const app = Fastify({ ...restServerOptions, logger: options.logger ?? false });
  installErrorHandling(app);
  registerSecurityHeaders(app, { production: deps.options.requireHttpsUrls });
  await app.register(restApi, { deps });
  return app;
}

/** The OpenAPI 3.1 document of an app that has `restApi` registered (what /openapi.json serves). */
export async function openApiDocument(app: FastifyInstance): Promise<OpenAPIV3_1.Document> {
  const response = await app.inject({ method: "GET", url: openApiPath });
  if (response.statusCode !== 200) throw new Error(`${openApiPath} answered ${response.statusCode}`);
  return response.json<OpenAPIV3_1.Document>();
}

/**
 * The OpenAPI 3.1 document without a running engine (for build steps and client generators):
 * routes are declared but never called, so the engine is a stand-in that refuses to be used.
 */
export async function buildOpenApiDocument(): Promise<OpenAPIV3_1.Document> {
  const app = await buildRestApp(documentOnlyDependencies());
  try {
    return await openApiDocument(app);
  } finally {
    await app.close();
  }
}

function documentOnlyDependencies(): EngineDependencies {
  const options = { ...defaultEngineOptions, payUrl: "http://localhost/pay" };
  const stand = { options } as Partial<EngineDependencies> as EngineDependencies;
  return new Proxy(stand, {
    get(target, key, receiver) {
      if (key === "options") return Reflect.get(target, key, receiver);
      throw new Error(`The OpenAPI document builder has no engine (asked for ${String(key)}).`);
    },
  });
}
