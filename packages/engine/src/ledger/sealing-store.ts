import type { RawBuilder } from "kysely";
import { sql } from "../persistence/sql.ts";
import { statementNow } from "../persistence/statement-clock.ts";
import { postingsArraySql, transactionHashSql } from "./ledger-hash.ts";
import type { Movement } from "./movement.ts";
import type { MovementWrite } from "./movement-write.ts";

/** The hash over each member's row and its own legs. */
const sealedHash = sql.raw(transactionHashSql("draft", postingsArraySql("leg p where p.m = draft.m")));

/**
 * The CTEs every form of the ledger write starts with (`member`, `leg`, `drawn`, `draft`,
 * `sealed`): the movements and their legs from arrays, one transaction id per movement drawn in
 * their order, the time, and each movement's hash. With `legOwners`, each leg carries its owner
 * (its wallet's, or the acting user's for a system account), read from `wallets`; without, the
 * CTEs read no table at all (the sealing statement on Citus: ledger/citus-ledger-write-store.ts).
 * A `gate` (a `where` clause) on `member` holds back every row after it: nothing is written unless
 * it holds (ledger/movement-store.ts, `foreseenGuardCtes`).
 */
export function sealingCtes(
  writes: readonly MovementWrite[],
  legOwners: boolean,
  gate: RawBuilder<unknown> = sql``,
) {
  const movements = writes.map((write) => write.movement);
  const column = <T>(read: (movement: Movement) => T) => movements.map(read);
  const minor = (read: (movement: Movement) => bigint) =>
    movements.map((movement) => read(movement).toString());
  const legs = writes.flatMap((write, index) => write.legs.map((leg) => ({ m: index + 1, leg })));
  const owner = legOwners
    ? {
        column: sql`, coalesce(owner.user_id, member.user_id) as user_id`,
        join: sql`left join wallets owner on owner.id = leg.wallet_id`,
      }
    : { column: sql``, join: sql`` };
  return sql`member as (
        select * from unnest(
          ${column((mv) => mv.userId)}::bigint[], ${column((mv) => mv.type)}::smallint[],
          ${column((mv) => mv.status)}::smallint[], ${column((mv) => mv.label)}::text[],
          ${column((mv) => mv.walletFromId)}::bigint[], ${column((mv) => mv.walletToId)}::bigint[],
          ${column((mv) => mv.currencyId)}::integer[], ${minor((mv) => mv.amountMinor)}::bigint[],
          ${minor((mv) => mv.commissionMinor)}::bigint[], ${minor((mv) => mv.amountFromMinor)}::bigint[],
          ${minor((mv) => mv.amountToMinor)}::bigint[], ${column((mv) => mv.externalId ?? null)}::text[],
          ${writes.map((write) => write.ledgerKey)}::text[], ${column((mv) => mv.requestHash ?? null)}::text[],
          ${column((mv) => mv.description ?? "")}::text[], ${column((mv) => mv.additional ?? "")}::text[],
          ${column((mv) => mv.operator ?? null)}::text[], ${column((mv) => mv.reversesTransactionId ?? null)}::bigint[],
          ${column((mv) => mv.refundOf ?? null)}::bigint[],
          ${writes.map((write) => write.apiKey)}::text[], ${writes.map((write) => write.apiKeyHash)}::text[]
        ) with ordinality as member(user_id, type, status, label, wallet_from_id, wallet_to_id,
          currency_id, amount_minor, commission_minor, amount_from_minor, amount_to_minor,
          external_id, idempotency_key, request_hash, description, additional, operator,
          reverses_transaction_id, refund_of, api_key, api_key_hash, m)
        ${gate}
      ), leg as (
        -- A posting belongs to its wallet's owner; a system account's to the acting user.
        select leg.m, leg.account, leg.wallet_id, member.currency_id, leg.amount_minor, leg.n ${owner.column}
        from unnest(
          ${legs.map(({ m }) => m)}::integer[],
          ${legs.map(({ leg }) => leg.account)}::text[],
          ${legs.map(({ leg }) => leg.walletId ?? null)}::bigint[],
          ${legs.map(({ leg }) => leg.amountMinor.toString())}::bigint[]
        ) with ordinality as leg(m, account, wallet_id, amount_minor, n)
        join member on member.m = leg.m
        ${owner.join}
      ), drawn as materialized (
        -- One id per movement, handed out in the movements' order: a wallet's chain follows ids.
        select id, row_number() over (order by id) as m
        from (select nextval(pg_get_serial_sequence('transactions', 'id')) as id from member) as ids
      ), draft as (
        select drawn.id, member.*, ${statementNow} as created_at
        from member join drawn on drawn.m = member.m
      ), sealed as materialized (
        select draft.*, ${sealedHash} as hash from draft
      )`;
}
