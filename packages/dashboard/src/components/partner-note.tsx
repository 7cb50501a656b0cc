/**
 * What a partner account sees instead of the history: Purse's API keeps the transaction history,
 * its totals and the CSV export for merchant accounts (a partner's token is refused with the
 * specification's "Sorry scope missed"), so the page never offers them to a partner, and says why
 * in words rather than showing a control that cannot work or the API's raw refusal.
 */
export function PartnerNote() {
  return (
    <section class="panel partner-note" aria-labelledby="partner-title">
      <h2 id="partner-title">Transactions</h2>
      <p>
        This is a partner account. The transaction history, its totals and the CSV export are for merchant
        accounts, so they are not shown here. You can see your balances, their chart, your checkout links and
        a statement of each wallet, and find one of your transactions by its id or order id.
      </p>
    </section>
  );
}
