export { isForbiddenJsonKey, parseExactJson } from "./exact-json.ts";
export { admitLiveSockets, liveSocketLimits, registerLiveSockets } from "./live-sockets.ts";
export {
  forbiddenJsonKeyCode,
  forbiddenJsonKeyError,
  knownRequestRefusal,
  requestRefusal,
} from "./request-refusals.ts";
