import type { SqlEntityManager } from "@mikro-orm/sql";
import { checkFixtureReferences, type ExistingKeys } from "../fixture/check-references.ts";
import { FixtureError } from "../fixture/fixture-error.ts";
import type { Fixture } from "../fixture/fixture-schema.ts";
import { parseFixture } from "../fixture/parse-fixture.ts";
import { formTokenBinding, webhookSecretBinding } from "../keys/sealed-columns.ts";
import type { SecretBox } from "../keys/secret-keyring.ts";
import { recordMovement } from "../ledger/record-movement.ts";
import {
  TransactionStatus,
  type TransactionStatusCode,
  TransactionType,
} from "../ledger/transaction-codes.ts";
import { decimalTextToMinor } from "../money/index.ts";
import type { Database } from "../persistence/database.ts";
import { rows, sql, toId } from "../persistence/sql.ts";
import { generateWebhookSecret, hashPassword, hashSecret } from "../secrets/index.ts";
import { recordVoucher } from "../voucher-activation/record-voucher.ts";
import { sealVoucherCode } from "../voucher-activation/voucher-code.ts";
import { WalletStatus } from "../wallet/wallet-status.ts";

export interface SeedSummary {
  currencies: number;
  rates: number;
  users: number;
  clients: number;
  wallets: number;
  vouchers: number;
}

/**
 * Loads a fixture in one database transaction: either every record goes in, with opening
 * balances posted from the equity account so the ledger balances from the first second, or
 * nothing does and a FixtureError names each bad record.
 */
export async function seedFixture(db: Database, secretBox: SecretBox, input: unknown): Promise<SeedSummary> {
  const fixture = parseFixture(input);
  // Slow hashes are computed before the transaction opens, so it holds its locks briefly.
  const hashed = await hashFixtureSecrets(fixture);
  await db.em().transactional(async (em) => {
    const problems = checkFixtureReferences(fixture, await loadExistingKeys(em));
    if (problems.length > 0) throw new FixtureError(problems);
    await insertFixture(em, fixture, hashed, secretBox);
  });
  return {
    currencies: fixture.currencies.length,
    rates: fixture.rates.length,
    users: fixture.users.length,
    clients: fixture.clients.length,
    wallets: fixture.wallets.length,
    vouchers: fixture.vouchers.length,
  };
}

interface HashedSecrets {
  passwords: string[];
  clientSecrets: string[];
}

async function hashFixtureSecrets(fixture: Fixture): Promise<HashedSecrets> {
  return {
    passwords: await Promise.all(fixture.users.map((user) => hashPassword(user.password))),
    clientSecrets: await Promise.all(fixture.clients.map((client) => hashSecret(client.client_secret))),
  };
}

async function loadExistingKeys(em: SqlEntityManager): Promise<ExistingKeys> {
  const [currencies, users, clients, wallets, vouchers, rates] = await Promise.all([
    rows(
      em,
      sql<{ id: number; code: string; precession: number }>`select id, code, precession from currencies`,
    ),
    rows(em, sql<{ id: string; login: string }>`select id, login from users`),
    rows(em, sql<{ client_id: string }>`select client_id from clients`),
    rows(em, sql<{ id: string; number: string }>`select id, number from wallets`),
    rows(em, sql<{ number: string }>`select number from vouchers`),
    rows(em, sql<{ name: string }>`select name from rates`),
  ]);
  return {
    currencies: new Map(
      currencies.map((c) => [c.code, { id: Number(c.id), precession: Number(c.precession) }]),
    ),
    currencyIds: new Set(currencies.map((c) => Number(c.id))),
    userIds: new Set(users.map((u) => toId(u.id))),
    logins: new Set(users.map((u) => u.login)),
    clientIds: new Set(clients.map((c) => c.client_id)),
    walletIds: new Set(wallets.map((w) => toId(w.id))),
    walletNumbers: new Set(wallets.map((w) => w.number)),
    voucherNumbers: new Set(vouchers.map((v) => v.number)),
    rateNames: new Set(rates.map((r) => r.name)),
  };
}

async function insertFixture(em: SqlEntityManager, fixture: Fixture, hashed: HashedSecrets, box: SecretBox) {
  if (fixture.settings) {
    await sql`insert into settings (key, value) values ('voucher_activation_enabled', ${JSON.stringify(
      fixture.settings.voucher_activation_enabled,
    )}::jsonb) on conflict (key) do update set value = excluded.value`.execute(em.getKysely());
  }
  for (const c of fixture.currencies) {
    const minor = (text: string) => decimalTextToMinor(text, c.precession).toString();
    await sql`insert into currencies (id, code, name, rate, icon, precession, prefix, min_amount_minor,
        max_amount_minor, enabled, checkout_enabled, transfer_enabled, checkout_percent, checkout_fixed_minor,
        transfer_percent, transfer_fixed_minor, voucher_percent, voucher_fixed_minor)
      values (${c.id}, ${c.code}, ${c.name}, ${c.rate}, ${c.icon}, ${c.precession}, ${c.prefix},
        ${minor(c.min_amount)}, ${minor(c.max_amount)}, ${c.enabled}, ${c.directions.checkout},
        ${c.directions.transfer}, ${c.commission.checkout.percent}, ${minor(c.commission.checkout.fixed)},
        ${c.commission.transfer.percent}, ${minor(c.commission.transfer.fixed)},
        ${c.commission.voucher.percent}, ${minor(c.commission.voucher.fixed)})`.execute(em.getKysely());
  }
  for (const r of fixture.rates) {
    await sql`insert into rates (name, "group", value) values (${r.name}, ${r.group}, ${r.value})`.execute(
      em.getKysely(),
    );
  }
  for (const [index, u] of fixture.users.entries()) {
    await sql`insert into users (id, name, role, blocked, login, password_hash)
      values (${u.id}, ${u.name}, ${u.role}, ${u.blocked}, ${u.login}, ${hashed.passwords[index]})`.execute(
      em.getKysely(),
    );
  }
  for (const [index, c] of fixture.clients.entries()) {
    await sql`insert into clients (user_id, client_id, secret_hash, form_token_sealed, webhook_secret_sealed)
      values (${c.user_id}, ${c.client_id}, ${hashed.clientSecrets[index]}, ${box.seal(c.form_token, formTokenBinding(c.client_id))},
        ${box.seal(c.webhook_secret ?? generateWebhookSecret(), webhookSecretBinding(c.client_id))})`.execute(
      em.getKysely(),
    );
  }
  const currencies = new Map(
    (
      await rows(
        em,
        sql<{ id: number; code: string; precession: number }>`select id, code, precession from currencies`,
      )
    ).map((c) => [c.code, { id: Number(c.id), precession: Number(c.precession) }]),
  );
  const currencyOf = (code: string) => {
    const currency = currencies.get(code);
    if (!currency) throw new Error(`currency ${code} vanished during the seed`);
    return currency;
  };
  for (const w of fixture.wallets) {
    const currency = currencyOf(w.currency);
    await sql`insert into wallets (id, user_id, number, currency_id, balance_minor, amount_limit_minor, status,
        can_use_for_deposit_api_out, can_use_for_withdraw_api_out)
      values (${w.id}, ${w.user_id}, ${w.number}, ${currency.id}, 0,
        ${decimalTextToMinor(w.amountLimit, currency.precession).toString()}, ${WalletStatus[w.status]},
        ${w.can_use_for_deposit_api_out}, ${w.can_use_for_withdraw_api_out})`.execute(em.getKysely());
    const opening = decimalTextToMinor(w.amount, currency.precession);
    if (opening > 0n) {
      await recordMovement(em, {
        userId: w.user_id,
        type: TransactionType.DEPOSIT,
        status: TransactionStatus.SUCCESS,
        label: "Opening balance",
        walletFromId: null,
        walletToId: w.id,
        currencyId: currency.id,
        amountMinor: opening,
        commissionMinor: 0n,
        amountFromMinor: opening,
        amountToMinor: opening,
        description: "Opening balance",
        legs: [
          { account: "equity", amountMinor: -opening },
          { account: "wallet", walletId: w.id, amountMinor: opening },
        ],
      });
    }
  }
  for (const v of fixture.vouchers) {
    const currency = currencyOf(v.currency);
    const amount = decimalTextToMinor(v.amount, currency.precession);
    await recordVoucher(em, {
      number: v.voucher_number,
      code: { codeSealed: sealVoucherCode(box, v.voucher_number, v.voucher_code), codeHash: null },
      currencyId: currency.id,
      amountMinor: amount,
      type: v.type,
      status: v.status,
      expiresAt: new Date(`${v.expired_at.replace(" ", "T")}Z`),
      creatorUserId: v.creator_user_id,
      purchaseStatus: v.transaction_status as TransactionStatusCode,
    });
  }
  // Explicit ids were inserted; move the identity sequences past them.
  for (const table of ["users", "wallets", "rates", "clients", "vouchers", "transactions", "postings"]) {
    await sql`select setval(pg_get_serial_sequence(${table}, 'id'),
      greatest((select coalesce(max(id), 0) from ${sql.table(table)}), 1))`.execute(em.getKysely());
  }
}

/** True once any user exists: the embedded demo seeds itself only into an empty database. */
export async function hasBeenSeeded(db: Database): Promise<boolean> {
  const found = await rows(db.em(), sql<{ id: string }>`select id from users limit 1`);
  return found.length > 0;
}
