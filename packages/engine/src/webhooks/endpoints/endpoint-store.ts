import { isDistributed } from "../../persistence/citus-routing.ts";
import { firstRow, rows, type SqlRunner, sql } from "../../persistence/sql.ts";

/** An endpoint row as its owner's use cases read it (secrets stay sealed). */
export interface EndpointRow {
  readonly public_id: string;
  readonly url: string;
  readonly events: string[];
  readonly enabled: boolean;
  readonly description: string;
  readonly livemode: boolean;
  readonly created_at: Date | string;
  readonly updated_at: Date | string;
  readonly previous_secret_until: Date | string | null;
}

const columns = sql`public_id, url, events, enabled, description, livemode, created_at, updated_at,
  previous_secret_until`;

export async function insertEndpoint(
  em: SqlRunner,
  endpoint: {
    publicId: string;
    userId: number;
    url: string;
    events: readonly string[];
    enabled: boolean;
    description: string;
    livemode: boolean;
    secretSealed: string;
  },
): Promise<EndpointRow> {
  const [row] = await rows(
    em,
    sql<EndpointRow>`insert into webhook_endpoints
        (public_id, user_id, url, events, enabled, description, livemode, secret_sealed)
      values (${endpoint.publicId}, ${endpoint.userId}, ${endpoint.url}, ${[...endpoint.events]}::text[],
        ${endpoint.enabled}, ${endpoint.description}, ${endpoint.livemode}, ${endpoint.secretSealed})
      returning ${columns}`,
  );
  if (!row) throw new Error("the endpoint insert returned no row");
  return row;
}

/** How many endpoints the owner has, its user row locked so two creations count one after the other. */
export async function countEndpoints(
  em: SqlRunner,
  userId: number,
): Promise<{ count: string | number } | undefined> {
  if (isDistributed(em)) {
    // Citus locks no row in a statement that also reads a distributed table (here every shard's
    // endpoints of the owner): the user row (a reference table's) is locked first, then counted.
    const user = await firstRow(
      em,
      sql<{ id: string }>`select id from users where id = ${userId} for no key update`,
    );
    if (!user) return undefined;
    return firstRow(
      em,
      sql<{
        count: string | number;
      }>`select count(*) as count from webhook_endpoints where user_id = ${userId}`,
    );
  }
  return firstRow(
    em,
    sql<{
      count: string | number;
    }>`select (select count(*) from webhook_endpoints where user_id = u.id) as count
      from users u where u.id = ${userId} for no key update`,
  );
}

/** The owner's endpoints, oldest first. */
export function findEndpoints(em: SqlRunner, userId: number): Promise<EndpointRow[]> {
  return rows(
    em,
    sql<EndpointRow>`select ${columns} from webhook_endpoints where user_id = ${userId} order by id`,
  );
}

/** One endpoint, only if `userId` owns it: another owner's id finds nothing. */
export function findEndpoint(
  em: SqlRunner,
  userId: number,
  publicId: string,
): Promise<EndpointRow | undefined> {
  return firstRow(
    em,
    sql<EndpointRow>`select ${columns} from webhook_endpoints
      where user_id = ${userId} and public_id = ${publicId}`,
  );
}

/** The internal id of an owner's endpoint, for the event tables; its row locked when `forUpdate`. */
export async function endpointKey(
  em: SqlRunner,
  userId: number,
  publicId: string,
  { forUpdate = false } = {},
): Promise<string | undefined> {
  const row = await firstRow(
    em,
    sql<{ id: string }>`select id from webhook_endpoints where user_id = ${userId} and public_id = ${publicId}
      ${forUpdate ? sql`for update` : sql``}`,
  );
  return row?.id;
}

/** Changes what is given (null: unchanged); undefined when the owner has no such endpoint. */
export function updateEndpoint(
  em: SqlRunner,
  userId: number,
  publicId: string,
  change: {
    url: string | null;
    events: readonly string[] | null;
    enabled: boolean | null;
    description: string | null;
  },
): Promise<EndpointRow | undefined> {
  return firstRow(
    em,
    sql<EndpointRow>`update webhook_endpoints set
        url = coalesce(${change.url}::text, url),
        events = coalesce(${change.events === null ? null : [...change.events]}::text[], events),
        enabled = coalesce(${change.enabled}::boolean, enabled),
        description = coalesce(${change.description}::text, description),
        updated_at = now()
      where user_id = ${userId} and public_id = ${publicId}
      returning ${columns}`,
  );
}

/**
 * Deletes the endpoint with its deliveries and their attempts; false when the owner has none such.
 * On Citus, where `purse citus distribute` dropped the foreign keys that cascaded, the deliveries and
 * attempts are deleted first, each statement on the owner's shard, the endpoint's row locked before
 * them: the fan-out takes a share lock on the endpoints it queues deliveries to (as the key did), so
 * none is queued to this one between the deliveries' delete and its own.
 */
export async function deleteEndpoint(em: SqlRunner, userId: number, publicId: string): Promise<boolean> {
  if (isDistributed(em)) {
    const key = await endpointKey(em, userId, publicId, { forUpdate: true });
    if (key === undefined) return false;
    for (const table of ["event_attempts", "event_deliveries"])
      await rows(em, sql`delete from ${sql.table(table)} where user_id = ${userId} and endpoint_id = ${key}`);
  }
  const deleted = await rows(
    em,
    sql<{ id: string }>`delete from webhook_endpoints where user_id = ${userId} and public_id = ${publicId}
      returning id`,
  );
  return deleted.length > 0;
}

/** The new secret signs from now on; the current one keeps signing until `overlapMs` from now. */
export function replaceEndpointSecret(
  em: SqlRunner,
  userId: number,
  publicId: string,
  sealed: string,
  overlapMs: number,
): Promise<EndpointRow | undefined> {
  return firstRow(
    em,
    // Whether the old secret overlaps is chosen here rather than by a CASE in SQL: Citus refuses
    // now() inside one ("non-IMMUTABLE functions are not allowed in CASE or COALESCE statements").
    sql<EndpointRow>`update webhook_endpoints set
        previous_secret_sealed = ${overlapMs > 0 ? sql`secret_sealed` : sql`null`},
        previous_secret_until = ${overlapMs > 0 ? sql`now() + make_interval(secs => ${overlapMs / 1000})` : sql`null`},
        secret_sealed = ${sealed}, updated_at = now()
      where user_id = ${userId} and public_id = ${publicId}
      returning ${columns}`,
  );
}

/** An endpoint's sealed secrets, for signing a delivery. */
export interface EndpointSecrets {
  readonly public_id: string;
  readonly url: string;
  readonly secret_sealed: string;
  readonly previous_secret_sealed: string | null;
  readonly previous_secret_until: Date | string | null;
}

/** Named by its owner too, so that Citus reads the owner's shard alone. */
export function findEndpointSecrets(
  em: SqlRunner,
  id: string,
  userId: string,
): Promise<EndpointSecrets | undefined> {
  return firstRow(
    em,
    sql<EndpointSecrets>`select public_id, url, secret_sealed, previous_secret_sealed, previous_secret_until
      from webhook_endpoints where id = ${id} and user_id = ${userId}`,
  );
}

/** The owner of an endpoint, whoever asks (operators only: the CLI acts as the owner). */
export function findEndpointOwner(em: SqlRunner, publicId: string): Promise<{ user_id: string } | undefined> {
  return firstRow(
    em,
    sql<{ user_id: string }>`select user_id from webhook_endpoints where public_id = ${publicId}`,
  );
}
