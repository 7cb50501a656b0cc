export {
  type BuildRestAppOptions,
  buildOpenApiDocument,
  buildRestApp,
  openApiDocument,
  type RestApiOptions,
  restApi,
} from "./build-rest-api.ts";
export { type ErrorBody, errorBody, purseErrorBody } from "./http/error-body.ts";
export {
  answerError,
  answerFrameworkError,
  installErrorHandling,
  retryAfterSeconds,
} from "./http/error-handling.ts";
export { docsPath, openApiPath } from "./http/openapi.ts";
export { restServerOptions } from "./http/server-options.ts";
export { registerSecurityHeaders, type SecurityHeadersOptions } from "./security-headers.ts";
