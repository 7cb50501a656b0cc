/**
 * Recognises "PostgreSQL cannot be reached right now" among the errors the pg driver, its pool and
 * MikroORM raise, so every door answers it as a retryable 503 instead of a 500. One list, here:
 * MikroORM copies the driver's `code` onto its own exceptions and keeps the original as `cause`.
 */

/** Socket-level failures (Node system errors, also inside an AggregateError). */
const socketCodes = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ECONNABORTED",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
]);

/**
 * SQLSTATEs of a server going away or refusing connections: class 08 (connection exception),
 * 57P01 admin_shutdown (pg_terminate_backend, a fast shutdown), 57P02 crash_shutdown,
 * 57P03 cannot_connect_now (starting up, recovering), 53300 too_many_connections, and 25006
 * read_only_sql_transaction: a write on a read-only node, which for Purse means the connection
 * reached a standby (an old primary during a failover) instead of the primary; Purse opens no
 * read-only transaction that writes (primary-only-client.ts discards such connections).
 */
const sqlStates = new Set(["57P01", "57P02", "57P03", "53300", "25006"]);

/** What pg and pg-pool say when a connection dies or none can be had in time. */
const driverMessages = [
  /^Connection terminated/i,
  /timeout exceeded when trying to connect/i,
  /Client has encountered a connection error and is not queryable/i,
  /Client was closed and is not queryable/i,
  /Cannot use a pool after calling end on the pool/i,
  /^Query read timeout/i,
  // 55000, raised for other things too, so recognised by its text: ALLOW_CONNECTIONS false.
  /is not currently accepting connections/i,
];

export function isDatabaseUnavailable(error: unknown): boolean {
  return causesOf(error).some(isConnectionFailure);
}

function isConnectionFailure(error: object): boolean {
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string" && (socketCodes.has(code) || sqlStates.has(code) || /^08/.test(code))) {
    return true;
  }
  if ((error as { name?: unknown }).name === "ConnectionException") return true;
  const message = (error as { message?: unknown }).message;
  return typeof message === "string" && driverMessages.some((pattern) => pattern.test(message));
}

/** The error, its `cause` chain and an AggregateError's members, bounded against cycles. */
function causesOf(error: unknown): object[] {
  const found: object[] = [];
  const pending: unknown[] = [error];
  while (pending.length > 0 && found.length < 16) {
    const next = pending.shift();
    if (typeof next !== "object" || next === null || found.includes(next)) continue;
    found.push(next);
    pending.push((next as { cause?: unknown }).cause);
    const members = (next as { errors?: unknown }).errors;
    if (Array.isArray(members)) pending.push(...members.slice(0, 8));
  }
  return found;
}
