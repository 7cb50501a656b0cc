import { Migration } from "@mikro-orm/migrations";

/**
 * Dashboard sessions (`signIn`) are access tokens a user got with their login and password rather
 * than an API client's credentials: same table, hashed the same way, expired, revoked and pruned
 * the same way, and verified by the same token cache with its revocation broadcast. A session has
 * no API client, so `client_id` becomes nullable: null marks a session.
 */
export class Migration0010DashboardSessions extends Migration {
  override name = "0010-dashboard-sessions";

  override up(): void {
    this.addSql("alter table access_tokens alter column client_id drop not null");
  }
}
