import { createClientForUser } from "../admin/admin-users.ts";
import { createWalletForUser } from "../admin/admin-wallets.ts";
import { findLogin } from "../auth/user-store.ts";
import type { EngineDependencies } from "../engine-dependencies.ts";
import { PurseError } from "../errors/index.ts";
import { testEngine } from "../mode/test-engine.ts";
import { findWalletsOfUser } from "../wallet/wallet-store.ts";

/** What `purse wallets create` gives a wallet unless told: the most it may hold. */
const testWalletLimit = "1000000";

/**
 * Test credentials for a user known by id (the dashboard's **Create test credentials**), as
 * `purse clients create --test` makes them, and a test wallet for each currency of their live
 * wallets in which they have no test wallet yet. `deps` is the live engine: it reads the live
 * wallets' currencies, and writes in test mode's schema only.
 */
export async function createTestCredentials(deps: EngineDependencies, userId: number) {
  if (deps.db.mode !== "live") throw new PurseError("TEST_MODE_ONLY");
  const test = testEngine(deps).db;
  const login = await deps.db.fresh((em) => findLogin(em, userId));
  if (login === undefined) throw new PurseError("NOT_FOUND");
  const client = await createClientForUser(test, deps.secretBox, userId, login);
  const live = await deps.db.fresh((em) => findWalletsOfUser(em, userId));
  const tested = await test.fresh((em) => findWalletsOfUser(em, userId));
  const have = new Set(tested.filter((wallet) => wallet.status !== "DELETED").map((w) => w.currency.code));
  const wallets: { number: string; currency: string }[] = [];
  for (const wallet of live) {
    const currency = wallet.currency.code;
    if (wallet.status === "DELETED" || have.has(currency)) continue;
    have.add(currency);
    wallets.push({
      number: await createWalletForUser(test, userId, { currency, amountLimit: testWalletLimit }),
      currency,
    });
  }
  return { ...client, wallets, livemode: false as const };
}
