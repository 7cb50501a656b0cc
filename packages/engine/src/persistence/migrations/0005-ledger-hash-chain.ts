import { Migration } from "@mikro-orm/migrations";

/*
 * Frozen: the hash format as it was shipped ("purse-ledger-v1"), written out here rather than
 * imported from ledger/ledger-hash.ts, so that a later format never changes what this migration
 * did to a database that ran it, nor what it does to one that runs it now.
 */
const chainGenesisSql = `'\\x${"00".repeat(32)}'::bytea`;
const transactionHashSql = `sha256(convert_to(jsonb_build_array('purse-ledger-v1', t.id, t.user_id, t.type,
    t.status, t.label, t.wallet_from_id, t.wallet_to_id, t.currency_id, t.amount_minor, t.commission_minor,
    t.amount_from_minor, t.amount_to_minor, t.external_id, t.idempotency_key, t.description, t.additional,
    t.operator, t.reverses_transaction_id,
    to_char(t.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US'),
    (select coalesce(jsonb_agg(jsonb_build_array(p.account, p.wallet_id, p.currency_id, p.amount_minor)
      order by p.account collate "C", p.wallet_id nulls first, p.amount_minor), '[]'::jsonb)
    from postings p where p.transaction_id = t.id))::text, 'UTF8'))`;

/**
 * The ledger seals its past (the format is ledger/ledger-hash.ts's v1): a hash per transaction, a hash chain per
 * wallet with its head on the wallet row, and what operator verbs need: the operator who moved the
 * money, the transaction a reversal compensates (at most one reversal per transaction), and
 * operator idempotency keys unique across all users.
 *
 * History written before this migration is sealed as it stands now, in id order: it cannot vouch
 * for edits made before today, but any edit from now on breaks a link. The backfill walks each
 * wallet's postings once (a loop, because each link needs the one before it).
 */
export class Migration0005LedgerHashChain extends Migration {
  override name = "0005-ledger-hash-chain";

  override up(): void {
    this.addSql("alter table transactions add column hash bytea");
    this.addSql("alter table transactions add column operator text");
    this.addSql(
      "alter table transactions add column reverses_transaction_id bigint references transactions (id)",
    );
    this.addSql(
      "create unique index transactions_reverses_uq on transactions (reverses_transaction_id) where reverses_transaction_id is not null",
    );
    this.addSql(
      "create unique index transactions_operator_key_uq on transactions (idempotency_key) where operator is not null and idempotency_key is not null",
    );
    this.addSql("alter table postings add column chain_hash bytea");
    this.addSql(`alter table wallets add column chain_head bytea not null default ${chainGenesisSql}`);
    this.addSql(`update transactions t set hash = ${transactionHashSql}`);
    this.addSql(`do $$
      declare
        step record;
        link bytea;
        current_wallet bigint := null;
      begin
        for step in
          select p.wallet_id, p.transaction_id, t.hash
          from postings p join transactions t on t.id = p.transaction_id
          where p.wallet_id is not null
          group by p.wallet_id, p.transaction_id, t.hash
          order by p.wallet_id, p.transaction_id
        loop
          if current_wallet is distinct from step.wallet_id then
            current_wallet := step.wallet_id;
            link := ${chainGenesisSql};
          end if;
          link := sha256(link || step.hash);
          update postings set chain_hash = link
            where transaction_id = step.transaction_id and wallet_id = step.wallet_id;
        end loop;
      end $$`);
    this.addSql(`update wallets w set chain_head = last.chain_hash
      from (select distinct on (wallet_id) wallet_id, chain_hash from postings
            where wallet_id is not null order by wallet_id, transaction_id desc) as last
      where last.wallet_id = w.id`);
  }
}
