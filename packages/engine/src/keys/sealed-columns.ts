import type { SealBinding } from "./secret-keyring.ts";

/**
 * Every column that holds a sealed value, so `purse keys rotate` finds them all. A new sealed column
 * (e.g. voucher codes) is added here with the same binding its writer uses, and rotation covers it.
 */
export interface SealedColumn {
  readonly table: string;
  readonly column: string;
  /** The column whose value is the binding's `row` (stable, unique, set at insert). */
  readonly rowKey: string;
  /** The binding's `field`: the logical secret, shared by columns that hold the same secret. */
  readonly field: string;
  /**
   * The row's owner, for a table Citus distributes by it (docs/sharding.md): the rewrite names it,
   * so it goes to the owner's shard alone.
   */
  readonly owner?: string;
}

export const sealedColumns: readonly SealedColumn[] = [
  { table: "clients", column: "form_token_sealed", rowKey: "client_id", field: "form_token" },
  // Still accepted until previous_form_token_until (purse clients rotate-form-token).
  { table: "clients", column: "previous_form_token_sealed", rowKey: "client_id", field: "form_token" },
  { table: "clients", column: "webhook_secret_sealed", rowKey: "client_id", field: "webhook_secret" },
  {
    table: "clients",
    column: "previous_webhook_secret_sealed",
    rowKey: "client_id",
    field: "webhook_secret",
  },
  // A webhook endpoint's own secrets, bound to its public id (webhooks/endpoints/).
  {
    table: "webhook_endpoints",
    column: "secret_sealed",
    rowKey: "public_id",
    field: "webhook_secret",
    owner: "user_id",
  },
  {
    table: "webhook_endpoints",
    column: "previous_secret_sealed",
    rowKey: "public_id",
    field: "webhook_secret",
    owner: "user_id",
  },
  // Bound to the voucher number, as `voucher/voucher-code.ts` seals it.
  {
    table: "vouchers",
    column: "code_sealed",
    rowKey: "number",
    field: "voucher_code",
    owner: "creator_user_id",
  },
  // A checkout's payment link token (migration 0018), bound to the row's token hash.
  {
    table: "checkouts",
    column: "link_sealed",
    rowKey: "token_hash",
    field: "checkout_link",
    owner: "merchant_user_id",
  },
];

/** A client's form token: it signs checkouts and the spec's webhook `signature`. */
export function formTokenBinding(clientId: string): SealBinding {
  return { table: "clients", field: "form_token", row: clientId };
}

/** A client's Standard Webhooks secret, current or previous (the same binding for both). */
export function webhookSecretBinding(clientId: string): SealBinding {
  return { table: "clients", field: "webhook_secret", row: clientId };
}

/** A webhook endpoint's Standard Webhooks secret, current or previous. */
export function endpointSecretBinding(endpointId: string): SealBinding {
  return { table: "webhook_endpoints", field: "webhook_secret", row: endpointId };
}

/** A checkout's payment link token, bound to its hash (the row's `token_hash`). */
export function checkoutLinkBinding(tokenHash: string): SealBinding {
  return { table: "checkouts", field: "checkout_link", row: tokenHash };
}
