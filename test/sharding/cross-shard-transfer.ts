import { createHash } from "node:crypto";
import { PurseError, TransactionStatus, TransactionType } from "@purse/engine";
import { splitPayment } from "../../packages/engine/src/commission/index.ts";
import { type LedgerAccount, recordMovement } from "../../packages/engine/src/ledger/record-movement.ts";
import { runMovement } from "../../packages/engine/src/ledger/run-movement.ts";
import { findWalletsByNumber } from "../../packages/engine/src/ledger/wallet-store.ts";
import { parseAmount } from "../../packages/engine/src/money/index.ts";
import { checkFunds } from "../../packages/engine/src/operation/index.ts";
import type { Shard, ShardRouter } from "./shard-router.ts";

/** The account the proposed migration adds; production would widen `LedgerAccount` itself. */
const clearing = "clearing" as LedgerAccount;

export interface CrossShardTransfer {
  /** The client's idempotency key: names the transfer on both shards. */
  readonly key: string;
  readonly walletFrom: string;
  readonly walletTo: string;
  readonly amount: string;
}

/** Step two's message, as the sending shard's outbox holds it. */
export interface SentTransfer {
  readonly transfer_key: string;
  readonly target_shard: string;
  readonly wallet_from: string;
  readonly wallet_to: string;
  readonly currency_id: number;
  readonly amount_minor: string;
  readonly status: "sent" | "credited";
}

export interface StepResult {
  readonly transactionId: number;
  readonly replayed: boolean;
}

const fingerprintOf = (parts: readonly unknown[]) =>
  createHash("sha256").update(JSON.stringify(parts)).digest("hex");

/**
 * Step one, on the sender's shard, in one transaction through Purse's movement pipeline (route
 * lock, idempotency key, row lock, bounded transaction): debit the sender (amount + fee), credit
 * this shard's clearing account with the amount and its fee account with the fee, and write step
 * two's message to the outbox. A retry with the same key replays; it never debits twice.
 */
export function sendAcrossShards(router: ShardRouter, transfer: CrossShardTransfer): Promise<StepResult> {
  const source = router.shardOfWallet(transfer.walletFrom);
  const target = router.shardOfWallet(transfer.walletTo);
  if (source === target) throw new Error("both wallets are on one shard: an ordinary transfer");
  const fingerprint = fingerprintOf(["send", transfer.walletFrom, transfer.walletTo, transfer.amount]);
  const senderId = router.userOfWallet(transfer.walletFrom);
  return runMovement(source.deps, {
    operation: "cross-shard-send",
    rateLimitKeys: [senderId],
    lock: { owner: senderId, fingerprint },
    idempotency: {
      keys: { userId: senderId, externalId: null, idempotencyKey: transfer.key, fingerprint },
      replay: (transactionId): StepResult => ({ transactionId, replayed: true }),
    },
    async move(em) {
      const sender = (await findWalletsByNumber(em, [transfer.walletFrom], { lock: true })).get(
        transfer.walletFrom,
      );
      if (!sender) throw new PurseError("WALLET_FROM_NOT_EXISTS", "wallet_from");
      const currency = sender.currency;
      const amountMinor = parseAmount(transfer.amount, currency.precession);
      const split = splitPayment("transfer", amountMinor, currency.commission.transfer);
      checkFunds("transfer", sender, split.debitMinor);
      const { id } = await recordMovement(em, {
        userId: sender.userId,
        type: TransactionType.TRANSFER,
        status: TransactionStatus.SUCCESS,
        label: "Transfer",
        walletFromId: sender.id,
        walletToId: null,
        currencyId: currency.id,
        amountMinor,
        commissionMinor: split.feeMinor,
        amountFromMinor: split.debitMinor,
        amountToMinor: split.creditMinor,
        idempotencyKey: transfer.key,
        requestHash: fingerprint,
        description: `to ${transfer.walletTo} on ${target.name}`,
        legs: [
          { account: "wallet", walletId: sender.id, amountMinor: -split.debitMinor },
          { account: clearing, amountMinor: split.creditMinor },
          { account: "fee", amountMinor: split.feeMinor },
        ],
      });
      await em.execute(
        `insert into cross_shard_transfers
           (transfer_key, target_shard, wallet_from, wallet_to, currency_id, amount_minor, debit_transaction_id)
         values (?, ?, ?, ?, ?, ?, ?)`,
        [
          transfer.key,
          target.name,
          transfer.walletFrom,
          transfer.walletTo,
          currency.id,
          split.creditMinor.toString(),
          id,
        ],
      );
      const change = {
        transactionId: id,
        userIds: [sender.userId],
        type: TransactionType.TRANSFER,
        status: TransactionStatus.SUCCESS,
      };
      return { result: { transactionId: id, replayed: false }, change };
    },
  });
}

/**
 * Step two, on the receiver's shard: debit its clearing account, credit the receiver, under the
 * transfer's key as the credit's `external_id` (kept unique for good, unlike an Idempotency-Key,
 * which is pruned after a window a stalled reconciler could outlast). Delivered twice (a reconciler
 * retrying after a crash, two reconcilers at once), it credits once: the second finds the first's
 * transaction and replays it, or meets the route lock and is retried later.
 */
export function receiveAcrossShards(router: ShardRouter, sent: SentTransfer): Promise<StepResult> {
  const target = router.shard(sent.target_shard);
  const receiverId = router.userOfWallet(sent.wallet_to);
  const fingerprint = fingerprintOf(["receive", sent.wallet_from, sent.wallet_to, sent.amount_minor]);
  const amountMinor = BigInt(sent.amount_minor);
  return runMovement(target.deps, {
    operation: "cross-shard-receive",
    lock: { owner: receiverId, fingerprint },
    idempotency: {
      keys: { userId: receiverId, externalId: sent.transfer_key, idempotencyKey: null, fingerprint },
      replay: (transactionId): StepResult => ({ transactionId, replayed: true }),
    },
    async move(em) {
      const receiver = (await findWalletsByNumber(em, [sent.wallet_to], { lock: true })).get(sent.wallet_to);
      if (!receiver || receiver.currencyId !== Number(sent.currency_id))
        throw new PurseError("WALLET_TO_NOT_EXISTS", "wallet_to");
      const { id } = await recordMovement(em, {
        userId: receiver.userId,
        type: TransactionType.TRANSFER,
        status: TransactionStatus.SUCCESS,
        label: "Transfer",
        walletFromId: null,
        walletToId: receiver.id,
        currencyId: receiver.currencyId,
        amountMinor,
        commissionMinor: 0n,
        amountFromMinor: amountMinor,
        amountToMinor: amountMinor,
        externalId: sent.transfer_key,
        requestHash: fingerprint,
        description: `from ${sent.wallet_from}`,
        legs: [
          { account: clearing, amountMinor: -amountMinor },
          { account: "wallet", walletId: receiver.id, amountMinor },
        ],
      });
      const change = {
        transactionId: id,
        userIds: [receiver.userId],
        type: TransactionType.TRANSFER,
        status: TransactionStatus.SUCCESS,
      };
      return { result: { transactionId: id, replayed: false }, change };
    },
  });
}

/** The sender's shard learns step two committed; the outbox row is done. */
export async function markCredited(source: Shard, key: string, creditTransactionId: number): Promise<void> {
  await source.deps.db
    .em()
    .execute(
      "update cross_shard_transfers set status = 'credited', credit_transaction_id = ? where transfer_key = ? and status = 'sent'",
      [creditTransactionId, key],
    );
}

/** Where the simulation makes the process die. */
export type Crash = "none" | "after-send" | "after-receive";

export class SimulatedCrash extends Error {}

/** What one request does: step one, step two, the outbox row marked done (or dies in between). */
export async function transferAcrossShards(
  router: ShardRouter,
  transfer: CrossShardTransfer,
  crash: Crash = "none",
): Promise<void> {
  const source = router.shardOfWallet(transfer.walletFrom);
  await sendAcrossShards(router, transfer);
  if (crash === "after-send") throw new SimulatedCrash("died after step one");
  const sent = await outboxRow(source, transfer.key);
  const received = await receiveAcrossShards(router, sent);
  if (crash === "after-receive") throw new SimulatedCrash("died after step two");
  await markCredited(source, transfer.key, received.transactionId);
}

async function outboxRow(source: Shard, key: string): Promise<SentTransfer> {
  const [row] = await source.deps.db
    .em()
    .execute<SentTransfer[]>("select * from cross_shard_transfers where transfer_key = ?", [key]);
  if (!row) throw new Error(`no outbox row for ${key}`);
  return row;
}

/**
 * The reconciler: every sent, not yet credited transfer of a shard's outbox is delivered again.
 * Safe to run at any time and in several processes: step two is idempotent. A route-locked
 * delivery (another reconciler holds it) is left for the next round.
 */
export async function reconcile(router: ShardRouter, source: Shard): Promise<number> {
  const pending = await source.deps.db
    .em()
    .execute<SentTransfer[]>(
      "select * from cross_shard_transfers where status = 'sent' order by created_at, transfer_key limit 500",
    );
  let settled = 0;
  for (const sent of pending) {
    try {
      const received = await receiveAcrossShards(router, sent);
      await markCredited(source, sent.transfer_key, received.transactionId);
      settled += 1;
    } catch (error) {
      if (!PurseError.is(error, "ROUTE_LOCKED")) throw error;
    }
  }
  return settled;
}
