import { PurseError } from "../errors/index.ts";
import { isDatabaseUnavailable } from "./database-unavailable.ts";
import { isTransientConflict } from "./sql.ts";

/**
 * What a door tells its client about an error: an engine error as it is; the database away, or a
 * transaction PostgreSQL rolled back to break a deadlock, as the retryable refusals they are (503);
 * anything else is null, a bug, for the door's generic 500.
 */
export function asPurseError(error: unknown): PurseError | null {
  if (PurseError.is(error)) return error;
  if (isTransientConflict(error)) return new PurseError("SERVICE_BUSY");
  if (isDatabaseUnavailable(error)) return new PurseError("DATABASE_UNAVAILABLE");
  return null;
}
