export { isPublicAddress } from "@purse/engine";
export { createPurseProgram } from "./cli/purse-program.ts";
export { openRuntime, type Runtime } from "./composition/runtime.ts";
export { type PurseConfig, readConfig } from "./config/config.ts";
export { buildServer } from "./http/build-server.ts";
export { type RunningServer, startServer } from "./serve/start-server.ts";
export { httpTransport, type ResolvedAddress, type Resolver } from "./webhooks/http-transport.ts";
