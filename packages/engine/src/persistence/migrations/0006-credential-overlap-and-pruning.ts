import { Migration } from "@mikro-orm/migrations";
import { splitStatements } from "./0001-ledger.ts";

/**
 * Credential rotation with an overlap (the previous client secret hash and form token stay valid
 * until a time), and the indexes the background jobs use: the expired-checkout sweep, revoking
 * every token of a client, and pruning expired tokens and old delivered webhook attempts.
 */
export class Migration0006CredentialOverlapAndPruning extends Migration {
  override name = "0006-credential-overlap-and-pruning";

  override up(): void {
    for (const statement of splitStatements(schema)) this.addSql(statement);
  }
}

const schema = `
  alter table clients add column previous_secret_hash text;
  alter table clients add column previous_secret_until timestamptz;
  alter table clients add column previous_form_token_sealed text;
  alter table clients add column previous_form_token_until timestamptz;
  create index checkouts_pending_expiry_idx on checkouts (expired_at) where status = 1;
  create index checkouts_merchant_idx on checkouts (merchant_user_id, id desc);
  create index access_tokens_client_idx on access_tokens (client_id) where revoked_at is null;
  create index access_tokens_expires_idx on access_tokens (expires_at);
  create index webhook_deliveries_delivered_idx on webhook_deliveries (delivered_at) where status = 'delivered';
`;
