import { Migration } from "@mikro-orm/migrations";

/**
 * What the merchant dashboard needs from the schema.
 *
 * Sessions (`signIn`) are access tokens a user got with their login and password rather than an API
 * client's credentials: same table, hashed the same way, expired, revoked and pruned the same way,
 * and verified by the same token cache with its revocation broadcast. A session has no API client,
 * so `client_id` becomes nullable: null marks a session.
 *
 * The balance history sums a wallet's postings by time from a day on (wallet/balance-history-store.ts):
 * an index on (wallet_id, created_at) reads only those, where `postings_wallet_idx` read all of the
 * wallet's postings.
 */
export class Migration0010Dashboard extends Migration {
  override name = "0010-dashboard";

  override up(): void {
    this.addSql("alter table access_tokens alter column client_id drop not null");
    this.addSql(
      "create index postings_wallet_created_idx on postings (wallet_id, created_at) where wallet_id is not null",
    );
  }
}
