import { assertValidSchema, type GraphQLSchema } from "graphql";
import { builder } from "./builder.ts";
import "./schema/errors.ts";
import "./schema/transactions.ts";
import "./schema/checkouts.ts";
import "./schema/subscriptions.ts";
import "./schema/session.ts";
// The operations declared once in the engine (wallets, currencies, profile, vouchers, voucher purchase, ...).
import "./schema/declared-operations.ts";

let built: GraphQLSchema | undefined;

/**
 * The schema, built once per process, and validated as it is built: graphql-js would otherwise
 * validate it on the first request it executes (tens of milliseconds of one core, then), and an
 * invalid schema fails here, at load.
 */
export function purseSchema(): GraphQLSchema {
  if (!built) {
    built = builder.toSchema();
    assertValidSchema(built);
  }
  return built;
}
