import type { GraphQLSchema } from "graphql";
import { builder } from "./builder.ts";
import "./schema/errors.ts";
import "./schema/transactions.ts";
import "./schema/checkouts.ts";
import "./schema/subscriptions.ts";
import "./schema/session.ts";
// The operations declared once in the engine (wallets, currencies, profile, vouchers, voucher purchase, ...).
import "./schema/declared-operations.ts";

let built: GraphQLSchema | undefined;

/** The schema, built once per process. */
export function purseSchema(): GraphQLSchema {
  built ??= builder.toSchema();
  return built;
}
