import { randomUUID } from "node:crypto";
import { creditWallet } from "../admin/admin-wallets.ts";
import type { OperatorMovementResult } from "../admin/operator-movement.ts";
import type { EngineDependencies } from "../engine-dependencies.ts";
import { PurseError } from "../errors/index.ts";
import { testEngine } from "../mode/test-engine.ts";
import { findWalletsByNumber } from "../wallet/wallet-store.ts";

export interface TestFunding {
  /** The test wallet's number (`test_…`). */
  readonly wallet: string;
  readonly amount: string;
  /** When a merchant funds (GraphQL/tRPC `testFund`): only a wallet of theirs; absent for an operator. */
  readonly ownerUserId?: number;
  /** Who asked, recorded on the deposit (`transactions.operator`). */
  readonly operator: string;
}

/**
 * Test money (contract: "Test mode"; `purse test fund`, GraphQL/tRPC `testFund`): a deposit into a
 * test wallet from test mode's equity, through the same movement as an operator's credit, so test
 * balances obey the same ledger and audit. Never reaches live data: it runs on test mode's engine.
 */
export async function fundTestWallet(
  deps: EngineDependencies,
  funding: TestFunding,
): Promise<OperatorMovementResult> {
  const test = testEngine(deps);
  if (funding.ownerUserId !== undefined) {
    const wallet = (await findWalletsByNumber(test.db.em(), [funding.wallet], { lock: false })).get(
      funding.wallet,
    );
    if (!wallet || wallet.userId !== funding.ownerUserId)
      throw new PurseError("WALLET_TO_NOT_EXISTS", "wallet_to");
  }
  return creditWallet(test, {
    number: funding.wallet,
    amount: funding.amount,
    note: "Test funds",
    operator: funding.operator,
    key: `test-fund-${randomUUID()}`,
  });
}
