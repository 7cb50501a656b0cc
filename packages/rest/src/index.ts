export { errorBody, purseErrorBody } from "./http/error-body.ts";
export { installErrorHandling } from "./http/error-handling.ts";
export { buildRestApp, type RestApiOptions, restApi } from "./rest-api.ts";
