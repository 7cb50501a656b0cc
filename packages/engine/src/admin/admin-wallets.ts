import { randomInt } from "node:crypto";
import { userIdByLogin } from "../auth/user-store.ts";
import { findCurrencyByCode } from "../currency/currency-store.ts";
import type { EngineDependencies } from "../engine-dependencies.ts";
import { PurseError } from "../errors/index.ts";
import { recordMovement } from "../ledger/record-movement.ts";
import { TransactionStatus, TransactionType } from "../ledger/transaction-codes.ts";
import { inMode, isTestCredential } from "../mode/data-mode.ts";
import { formatMinor, parseAmount } from "../money/index.ts";
import type { Database } from "../persistence/database.ts";
import { WalletStatus, type WalletStatusName } from "../wallet/wallet-status.ts";
import { findWalletsByNumber } from "../wallet/wallet-store.ts";
import { insertWallet, updateWalletStatus } from "./admin-store.ts";
import {
  type OperatorMovementResult,
  type OperatorRequest,
  runOperatorMovement,
} from "./operator-movement.ts";

/** Operator verbs for wallets (the `purse wallets` command). */
export async function createWallet(
  db: Database,
  wallet: { login: string; currency: string; amountLimit: string; number?: string },
): Promise<string> {
  return createWalletForUser(db, await userIdByLogin(db, wallet.login), wallet);
}

/** As createWallet, for a user known by id (the dashboard's session). */
export async function createWalletForUser(
  db: Database,
  userId: number,
  wallet: { currency: string; amountLimit: string; number?: string },
): Promise<string> {
  const currency = await findCurrencyByCode(db.em(), wallet.currency);
  if (!currency) throw new PurseError("NOT_FOUND", "currency");
  // A test wallet's number carries test mode's mark, so a checkout names its mode by `wallet_to`.
  const test = db.mode === "test";
  const number =
    wallet.number ??
    inMode(test, `${wallet.currency.slice(0, 1)}${String(randomInt(100_000_000, 999_999_999))}`);
  if (isTestCredential(number) !== test) throw new PurseError("INVALID_VALUE", "number");
  const limit = parseAmount(wallet.amountLimit, currency.precession, "amountLimit");
  await insertWallet(db.em(), { userId, number, currencyId: currency.id, amountLimitMinor: limit });
  return number;
}

export async function setWalletStatus(db: Database, number: string, status: WalletStatusName): Promise<void> {
  // Asked before the statement: on Citus the update names the wallet's owner (admin-store.ts).
  await db.distributed();
  if (!(await updateWalletStatus(db.em(), number, WalletStatus[status]))) throw new PurseError("NOT_FOUND");
}

/**
 * Credits a wallet from the currency's equity account (an operator deposit): one balanced
 * movement through the pipeline, with the wallet locked and its amountLimit respected, attributed
 * to the operator and idempotent by key.
 */
export function creditWallet(
  deps: EngineDependencies,
  credit: { number: string; amount: string; note: string } & OperatorRequest,
): Promise<OperatorMovementResult> {
  const request = [credit.number, credit.amount, credit.note];
  return runOperatorMovement(deps, "credit", credit, request, async (em, fingerprint) => {
    const wallet = (await findWalletsByNumber(em, [credit.number], { lock: true })).get(credit.number);
    // A deleted wallet is gone for its owner: money credited there could never be spent.
    if (!wallet || wallet.status === "DELETED") throw new PurseError("WALLET_TO_NOT_EXISTS", "wallet_to");
    const minor = parseAmount(credit.amount, wallet.currency.precession);
    if (wallet.balanceMinor + minor > wallet.amountLimitMinor) {
      throw new PurseError("MAX_AMOUNT", "amount", {
        max: formatMinor(wallet.amountLimitMinor, wallet.currency.precession),
        currency: wallet.currency.code,
      });
    }
    const recorded = await recordMovement(em, {
      userId: wallet.userId,
      type: TransactionType.DEPOSIT,
      status: TransactionStatus.SUCCESS,
      label: "Operator credit",
      walletFromId: null,
      walletToId: wallet.id,
      currencyId: wallet.currencyId,
      amountMinor: minor,
      commissionMinor: 0n,
      amountFromMinor: minor,
      amountToMinor: minor,
      description: credit.note,
      idempotencyKey: credit.key,
      requestHash: fingerprint,
      operator: credit.operator,
      legs: [
        { account: "equity", amountMinor: -minor },
        { account: "wallet", walletId: wallet.id, amountMinor: minor },
      ],
    });
    const change = {
      transactionId: recorded.id,
      userIds: [wallet.userId],
      type: TransactionType.DEPOSIT,
      status: TransactionStatus.SUCCESS,
    };
    return { transactionId: recorded.id, change };
  });
}
