import { TRPCError } from "@trpc/server";
import { getHTTPStatusCodeFromError } from "@trpc/server/http";
import { errorShapeOf } from "./trpc.ts";

/** Bounds of the tRPC door, sized to the largest legal request (a full batch of checkouts). */
export const trpcLimits = {
  /** Request body, bytes. */
  maxBodyBytes: 128 * 1024,
  /** Calls in one batch (ten of the largest calls, checkouts with three 2 048-character URLs, fit). */
  maxBatchSize: 10,
} as const;

/**
 * A request refused before tRPC saw it (the body too large, bad JSON, ...), answered in tRPC's
 * own error envelope through the router's error formatter, so clients parse one shape only.
 */
export function refuseRequest(
  code:
    | "BAD_REQUEST"
    | "FORBIDDEN"
    | "TIMEOUT"
    | "TOO_MANY_REQUESTS"
    | "PAYLOAD_TOO_LARGE"
    | "UNSUPPORTED_MEDIA_TYPE"
    | "INTERNAL_SERVER_ERROR",
  message: string,
): { status: number; body: { error: unknown } } {
  const error = new TRPCError({ code, message });
  return { status: getHTTPStatusCodeFromError(error), body: { error: errorShapeOf(error) } };
}
