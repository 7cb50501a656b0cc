/**
 * The tRPC door's HTTP mount on a fastify host, apart from the router (`@purse/trpc`) so the
 * client package's declarations and the router's callers never load fastify.
 */
export { mountTrpc } from "./http/mount-trpc.ts";
export { answerTrpcFrameworkError, isTrpcRequest } from "./http/trpc-refusals.ts";
