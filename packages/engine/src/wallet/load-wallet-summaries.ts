import type { Actor } from "../auth/actor.ts";
import type { EngineDependencies } from "../engine-dependencies.ts";
import { findWalletOwnerships } from "./wallet-summary-store.ts";

export interface WalletSummary {
  readonly id: number;
  readonly number: string;
  readonly currencyId: number;
  /** Only the owner sees balances; other parties see the number and currency. */
  readonly ownedByCaller: boolean;
}

/** One query for any number of wallets (transactions show the other party's wallet number too). */
export async function loadWalletSummaries(
  deps: EngineDependencies,
  actor: Actor,
  ids: readonly number[],
): Promise<Map<number, WalletSummary>> {
  const found = await deps.db.fresh((em) => findWalletOwnerships(em, ids));
  return new Map(
    found.map((wallet) => [
      wallet.id,
      {
        id: wallet.id,
        number: wallet.number,
        currencyId: wallet.currencyId,
        ownedByCaller: wallet.userId === actor.userId,
      },
    ]),
  );
}
