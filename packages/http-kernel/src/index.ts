export { isForbiddenJsonKey, parseExactJson } from "./exact-json.ts";
export { admitLiveSockets, liveSocketLimits, registerLiveSockets } from "./live-sockets.ts";
export {
  forbiddenJsonKeyCode,
  forbiddenJsonKeyError,
  knownRequestRefusal,
  type RequestRefusal,
  type RequestRefusalCode,
  requestRefusal,
} from "./request-refusals.ts";
