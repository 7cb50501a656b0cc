import { Migration } from "@mikro-orm/migrations";

/**
 * A checkout keeps its payment link, sealed (issue 36: "an open checkout shows its link to copy").
 * The link's token was kept only as its hash (`token_hash`, which finds the checkout when the payer
 * opens the link), so a merchant who lost the link from `POST /api/processing/checkout`'s answer could
 * not send it again. `link_sealed` holds the token sealed with the secret key (bound to the row's
 * `token_hash`, rotated by `purse keys rotate` like every sealed column: keys/sealed-columns.ts); the
 * checkouts list answers the link while the checkout is open. Closing a checkout (paid, cancelled,
 * expired: checkout-store.ts `closeCheckout`) sets it to null, so the column holds the open
 * checkouts' links only: a bounded set to re-seal at rotation, and no secret kept longer than it is
 * of use. Null for checkouts created before: their links cannot be recovered, and the list says none.
 *
 * Adding a nullable column without a default rewrites nothing: instant whatever the table's size.
 */
export class Migration0018CheckoutLinkSealed extends Migration {
  override name = "0018-checkout-link-sealed";

  override up(): void {
    this.addSql("alter table checkouts add column link_sealed text");
  }
}
