import { forbiddenJsonKeyCode, requestRefusal } from "@purse/http-kernel";
import type { FastifyError, FastifyReply, FastifyRequest } from "fastify";
import { refuseRequest, trpcLimits } from "../refuse-request.ts";

/** Whether a request's URL is the tRPC door's (`/trpc`, `/trpc/<path>`, `//trpc?...`). */
export function isTrpcRequest(request: FastifyRequest): boolean {
  return /^\/+trpc(\/|\?|$)/.test(request.url);
}

/**
 * The router's own refusals (bad percent-encoding, an over-long path) on a tRPC path, which fastify
 * raises before any route exists: the shared words (@purse/http-kernel) in tRPC's envelope, as the
 * rest of its refusals. The host routes them here for the paths `isTrpcRequest` claims.
 */
export function answerTrpcFrameworkError(error: FastifyError, _request: FastifyRequest, reply: FastifyReply) {
  const { status, message } = requestRefusal(error);
  return reply.status(status).send(refuseRequest("BAD_REQUEST", message).body);
}

/** What fastify refused in the tRPC scope (the body's size, media type, keys), in tRPC's envelope. */
export function trpcBodyRefusal(error: FastifyError): ReturnType<typeof refuseRequest> {
  switch (error.code) {
    case "FST_ERR_CTP_BODY_TOO_LARGE":
      return refuseRequest(
        "PAYLOAD_TOO_LARGE",
        `Request body is larger than ${trpcLimits.maxBodyBytes} bytes.`,
      );
    case forbiddenJsonKeyCode:
      // Every door's words for it, in tRPC's envelope.
      return refuseRequest("BAD_REQUEST", requestRefusal(error).message);
    case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
      return refuseRequest("UNSUPPORTED_MEDIA_TYPE", "Send JSON (application/json).");
    default:
      if ((error.statusCode ?? 500) < 500) return refuseRequest("BAD_REQUEST", "Malformed request.");
      return refuseRequest("INTERNAL_SERVER_ERROR", "Internal server error");
  }
}
