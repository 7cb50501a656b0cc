import { Migration } from "@mikro-orm/migrations";

/**
 * `postings_wallet_idx (wallet_id)` goes: `postings_wallet_created_idx (wallet_id, created_at)`
 * (migration 0010), under the same condition, begins with the same column and serves every read
 * the first one did, so the first was only written: two index entries per transfer (one per wallet
 * posting) and, at ten million transfers, twenty million entries kept, vacuumed and cached for no
 * read. Runs in both schemas, as every migration does.
 */
export class Migration0024DropPostingsWalletIndex extends Migration {
  override name = "0024-drop-postings-wallet-index";

  override up(): void {
    this.addSql("drop index if exists postings_wallet_idx");
  }
}
