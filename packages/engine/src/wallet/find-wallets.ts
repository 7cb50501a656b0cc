import type { Actor } from "../auth/actor.ts";
import { requireAccess } from "../auth/authenticate.ts";
import type { EngineDependencies } from "../engine-dependencies.ts";
import { PurseError } from "../errors/index.ts";
import { refuseNul } from "../input/text-fields.ts";
import { findWalletsByNumber, type WalletRecord } from "./wallet-store.ts";
import { type WalletView, walletView } from "./wallet-view.ts";

export interface WalletPairView {
  readonly walletTo: WalletView;
  readonly walletFrom: WalletView;
}

/**
 * Both wallets of a future operation exist and are active: `numberTo` is the caller's own,
 * `numberFrom` another user's. Anything else is `Not found`, so the call reveals nothing about
 * wallets the caller could not use.
 */
export async function checkWalletsExist(
  deps: EngineDependencies,
  actor: Actor,
  numberTo: string | null | undefined,
  numberFrom: string | null | undefined,
): Promise<WalletPairView> {
  requireAccess(actor);
  refuseNul(numberTo, "numberTo");
  refuseNul(numberFrom, "numberFrom");
  if (!numberTo || !numberFrom) throw new PurseError("NOT_FOUND");
  const wallets = await deps.db.fresh((em) =>
    findWalletsByNumber(em, [numberTo, numberFrom], { lock: false }),
  );
  const walletTo = wallets.get(numberTo);
  const walletFrom = wallets.get(numberFrom);
  if (!isActive(walletTo) || walletTo.userId !== actor.userId) throw new PurseError("NOT_FOUND");
  if (!isActive(walletFrom) || walletFrom.userId === actor.userId) throw new PurseError("NOT_FOUND");
  return { walletTo: walletView(walletTo), walletFrom: walletView(walletFrom) };
}

/** Another user's active wallet by number. */
export async function searchWallet(
  deps: EngineDependencies,
  actor: Actor,
  number: string | null | undefined,
): Promise<WalletView> {
  requireAccess(actor);
  refuseNul(number, "wallet_number");
  if (!number) throw new PurseError("NOT_FOUND");
  const wallet = (await deps.db.fresh((em) => findWalletsByNumber(em, [number], { lock: false }))).get(
    number,
  );
  if (!isActive(wallet) || wallet.userId === actor.userId) throw new PurseError("NOT_FOUND");
  return walletView(wallet);
}

function isActive(wallet: WalletRecord | undefined): wallet is WalletRecord {
  return wallet !== undefined && wallet.status === "ACTIVE";
}
