import type { Actor } from "../auth/actor.ts";
import { requireAccess } from "../auth/authenticate.ts";
import type { EngineDependencies } from "../engine-dependencies.ts";
import { findWalletsOfUser } from "./wallet-store.ts";
import { type WalletView, walletView } from "./wallet-view.ts";

/** The caller's wallets, deleted ones left out. */
export async function listWallets(deps: EngineDependencies, actor: Actor): Promise<WalletView[]> {
  requireAccess(actor);
  const wallets = await deps.db.fresh((em) => findWalletsOfUser(em, actor.userId));
  return wallets.filter((wallet) => wallet.status !== "DELETED").map(walletView);
}
