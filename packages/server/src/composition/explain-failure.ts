import { MissingDatabaseError, PurseError, violatedUnique } from "@purse/engine";

/**
 * An error meant for the operator: one line that says what is wrong and what to do. The CLI and
 * `purse serve` print it as is, without a stack trace.
 */
export class OperatorError extends Error {
  override readonly name = "OperatorError";
}

/** Texts for unique violations an operator can cause, by PostgreSQL constraint name. */
const duplicateTexts: Record<string, string> = {
  wallets_number_key: "a wallet with this number exists",
  // Who owns a number (migration 0022), written before the row: what refuses a number first.
  wallet_numbers_pkey: "a wallet with this number exists",
  voucher_numbers_pkey: "a voucher with this number exists",
  users_login_key: "a user with this login exists",
  clients_client_id_key: "a client with this client_id exists",
  currencies_code_key: "a currency with this code exists",
  vouchers_number_key: "a voucher with this number exists",
};

const unreachableCodes = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "ETIMEDOUT", "EHOSTUNREACH"]);

/**
 * Turns what the database driver threw into an operator's line. Raw database texts never reach
 * the terminal: they may quote SQL, and they do not say what to do.
 */
export function explainFailure(error: unknown, where: string): Error {
  if (error instanceof OperatorError || error instanceof PurseError) return error;
  if (error instanceof MissingDatabaseError) {
    return new OperatorError(
      `${where}: database "${error.database}" does not exist (Purse never creates one): check DATABASE_URL, or create it (createdb ${error.database})`,
    );
  }
  const driver = driverError(error);
  if (!driver) return error instanceof Error ? error : new Error(String(error));
  const code = driver.code ?? "";
  if (unreachableCodes.has(code)) {
    return new OperatorError(`cannot reach ${where} (${code}): check DATABASE_URL and that PostgreSQL runs`);
  }
  if (code === "3D000") {
    return new OperatorError(`${where}: the database does not exist: check DATABASE_URL`);
  }
  if (code === "28P01" || code === "28000") {
    return new OperatorError(`${where} refused the user or password: check DATABASE_URL`);
  }
  if (code === "42P01" || code === "42703") {
    return new OperatorError(`${where} has no Purse schema or an old one: run purse migrate`);
  }
  if (code === "23505") {
    return new OperatorError(
      duplicateTexts[violatedUnique(error) ?? ""] ?? "a record with these values exists already",
    );
  }
  if (code === "55000" && /not currently accepting connections/i.test(driver.message ?? "")) {
    return new OperatorError(
      `${where} does not accept connections to this database now (55000): allow them (ALTER DATABASE ... ALLOW_CONNECTIONS true) or check DATABASE_URL, then try again`,
    );
  }
  if (code === "57P01" || code === "57P03" || code === "08006" || code === "08001") {
    return new OperatorError(`${where} is shutting down or not accepting connections (${code}): try again`);
  }
  return new OperatorError(
    /^[0-9A-Z]{5}$/.test(code)
      ? `${where} refused the command (SQLSTATE ${code})`
      : `${where} failed (${code || "unknown error"}): check DATABASE_URL`,
  );
}

/**
 * The constraint a unique violation (23505) broke, anywhere in the cause chain (on Citus, read from
 * the message: engine's `violatedUnique`); null for anything else.
 */
export function uniqueViolation(error: unknown): string | null {
  return violatedUnique(error);
}

interface DriverError {
  code?: string;
  constraint?: string;
  message?: string;
}

/** The first error in the cause chain that carries a driver or system error code. */
function driverError(error: unknown): DriverError | null {
  const seen = new Set<unknown>();
  for (let e: unknown = error; e instanceof Error && !seen.has(e); e = e.cause) {
    seen.add(e);
    const candidate = e as Error & DriverError;
    if (typeof candidate.code === "string") return candidate;
    // AggregateError from a connection attempt to several addresses (IPv4 and IPv6).
    if (e instanceof AggregateError) {
      const inner = e.errors.find((item) => typeof (item as DriverError).code === "string");
      if (inner) return inner as DriverError;
    }
  }
  return null;
}
