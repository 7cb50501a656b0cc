import { STATUS_CODES } from "node:http";
import type { Socket } from "node:net";

/** What Node's HTTP parser refuses before any route runs, worded for the client that sent it. */
const parserRefusals: Readonly<Record<string, { status: number; message: string }>> = {
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, message: "The request took too long to arrive; send it again." },
  HPE_HEADER_OVERFLOW: {
    status: 431,
    message: "The request line and headers are too large; shorten the query string or the headers.",
  },
};

const malformed = { status: 400, message: "The request is not valid HTTP." };

/**
 * Fastify's `clientErrorHandler`: requests the HTTP parser refuses (headers or query string beyond
 * Node's 16 KiB, broken framing, slow senders) get the contract's error shape instead of Fastify's
 * own body. The socket is closed afterwards, as Node does, because the parser cannot resync.
 */
export function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === "ECONNRESET" || socket.destroyed) return;
  const refusal = parserRefusals[error.code ?? ""] ?? malformed;
  const body = JSON.stringify({ status: false, message: refusal.message });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${refusal.status} ${STATUS_CODES[refusal.status]}\r\n` +
        `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `X-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}
