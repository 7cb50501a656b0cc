import { STATUS_CODES } from "node:http";
import type { Socket } from "node:net";
import type { RequestRefusal } from "@purse/http-kernel";
import { errorBody } from "./error-body.ts";

/** What Node's HTTP parser refuses before any route runs, worded for the client that sent it. */
const parserRefusals: Readonly<Record<string, RequestRefusal>> = {
  ERR_HTTP_REQUEST_TIMEOUT: {
    status: 408,
    message: "The request took too long to arrive; send it again.",
    code: "TIMEOUT",
  },
  HPE_HEADER_OVERFLOW: {
    status: 431,
    message: "The request line and headers are too large; shorten the query string or the headers.",
    code: "REQUEST_HEADER_FIELDS_TOO_LARGE",
  },
};

const malformed: RequestRefusal = {
  status: 400,
  message: "The request is not valid HTTP.",
  code: "BAD_REQUEST",
};

/**
 * Fastify's `clientErrorHandler`: requests the HTTP parser refuses (headers or query string beyond
 * Node's 16 KiB, broken framing, slow senders) get the contract's error shape instead of Fastify's
 * own body. The socket is closed afterwards, as Node does, because the parser cannot resync.
 */
export function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === "ECONNRESET" || socket.destroyed) return;
  const refusal = parserRefusals[error.code ?? ""] ?? malformed;
  const body = JSON.stringify(errorBody(refusal.code, refusal.message));
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${refusal.status} ${STATUS_CODES[refusal.status]}\r\n` +
        `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `X-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}
