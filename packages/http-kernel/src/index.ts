export { isForbiddenJsonKey, parseExactJson } from "./exact-json.ts";
export { admitLiveSockets, liveSocketLimits, registerLiveSockets } from "./live-sockets.ts";
export { refusedFieldName } from "./refused-field.ts";
export {
  forbiddenJsonKeyCode,
  forbiddenJsonKeyError,
  knownRequestRefusal,
  type RequestRefusal,
  type RequestRefusalCode,
  requestRefusal,
} from "./request-refusals.ts";
