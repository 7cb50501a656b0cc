import {
  createTestEngine,
  holdWalletRow,
  sampleFixtureWithDora,
  type TestEngine,
  waitForLockWaits,
} from "@purse/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../auth/actor.ts";
import { runOperation } from "../declaration/run-operation.ts";
import type { EngineDependencies } from "../engine-dependencies.ts";
import { PurseError } from "../errors/index.ts";
import { auditLedger } from "../ledger/audit-ledger.ts";
import { firstRow, rows, sql } from "../persistence/sql.ts";
import { hashSecret } from "../secrets/index.ts";
import { listVouchers } from "./list-vouchers.ts";
import { recordVoucher } from "./record-voucher.ts";
import { voucherActivationOperation } from "./voucher-activation.operation.ts";
import { getVoucherInfo } from "./voucher-info.ts";
import { voucherPurchaseOperation } from "./voucher-purchase.operation.ts";

const call = { clientAddress: null, amountSentAsNumber: false };

/** A purchase as every door makes one: its contract reads the input before the use case runs. */
function buyVoucher(deps: EngineDependencies, actor: Actor, input: unknown) {
  return runOperation(voucherPurchaseOperation, deps, actor, input, call);
}

/** An activation as every door makes one (`buyVoucher`'s note). */
function activateVoucher(deps: EngineDependencies, actor: Actor, input: unknown) {
  return runOperation(voucherActivationOperation, deps, actor, input, call);
}

const acme: Actor = { userId: 1, role: "merchant", clientId: 1, scope: "api" };
const bolt: Actor = { userId: 2, role: "partner", clientId: 2, scope: "api" };
const cafe: Actor = { userId: 3, role: "merchant", clientId: 3, scope: "api" };

async function refusal(run: Promise<unknown>): Promise<string> {
  try {
    await run;
    return "ok";
  } catch (error) {
    if (PurseError.is(error)) return `${error.code}: ${error.message}`;
    throw error;
  }
}

describe("buyVoucher and listVouchers", () => {
  let engine: TestEngine;
  const balance = async (number: string) =>
    (
      await firstRow(
        engine.deps.db.em(),
        sql<{ balance: string }>`select balance_minor::text as balance from wallets where number = ${number}`,
      )
    )?.balance;
  const voucherAccount = async () =>
    (
      await firstRow(
        engine.deps.db.em(),
        sql<{
          total: string;
        }>`select coalesce(sum(amount_minor), 0)::text as total from postings where account = 'voucher'`,
      )
    )?.total;

  beforeAll(async () => {
    const fixture = sampleFixtureWithDora({ blocked: true });
    fixture.wallets.push({
      id: 22,
      user_id: 2,
      number: "U100000022",
      currency: "USD",
      amount: "100.00",
      amountLimit: "1000.00",
      status: "NEW",
    });
    engine = await createTestEngine({ fixture });
  });
  afterAll(() => engine.close());

  it("debits the buyer's wallet into the voucher account, and the other role activates it, audit green", async () => {
    const voucherBefore = BigInt((await voucherAccount()) ?? "0");
    const bought = await buyVoucher(engine.deps, bolt, {
      walletFrom: "U100000020",
      amount: "40",
      additional: "gift",
    });
    expect(bought).toMatchObject({ amount: "40.00", status: 0, currencyCode: "USD" });
    expect(bought.secret).toMatch(/^\d{4}-\d{4}-\d{4}-\d{4}$/);
    expect(bought.voucherNumber).toMatch(/^V-[0-9A-F]{12}$/);
    expect(await balance("U100000020")).toBe("21000");
    expect(BigInt((await voucherAccount()) ?? "0") - voucherBefore).toBe(4000n);
    const stored = await firstRow(
      engine.deps.db.em(),
      sql<{ type: number; code_sealed: string; code_hash: string | null; expired_at: Date; status: number }>`
        select v.type, v.code_sealed, v.code_hash, v.expired_at, t.status from vouchers v
        join transactions t on t.id = v.purchase_transaction_id where v.number = ${bought.voucherNumber}`,
    );
    expect(stored?.type).toBe(1);
    expect(Number(stored?.status)).toBe(3);
    expect(stored?.code_hash).toBeNull();
    expect(stored?.code_sealed).not.toContain(bought.secret ?? "-");
    const days = (new Date(stored?.expired_at ?? 0).getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThanOrEqual(30);

    // A partner cannot activate its own kind; the merchant can (commission 2 % at activation).
    expect(
      await refusal(
        activateVoucher(engine.deps, bolt, {
          voucherNumber: bought.voucherNumber,
          voucherCode: bought.secret,
          walletTo: "U100000020",
        }),
      ),
    ).toBe("VOUCHER_INVALID: Voucher invalid");
    await activateVoucher(engine.deps, acme, {
      voucherNumber: bought.voucherNumber,
      voucherCode: bought.secret,
      walletTo: "U100000010",
    });
    expect(await balance("U100000010")).toBe(String(50000 + 3920));
    expect(BigInt((await voucherAccount()) ?? "0") - voucherBefore).toBe(0n);
    expect((await auditLedger(engine.deps.db)).ok).toBe(true);
    const listed = await listVouchers(engine.deps, bolt, {});
    expect(listed.items[0]).toMatchObject({
      voucherNumber: bought.voucherNumber,
      status: 1,
      secret: bought.secret,
    });
  });

  it("lists only the caller's own vouchers, newest first, with page bounds", async () => {
    const mine = await buyVoucher(engine.deps, cafe, { walletFrom: "U100000030", amount: "5.00" });
    expect(mine.status).toBe(0);
    const cafeList = await listVouchers(engine.deps, cafe, { page: "1" });
    expect(cafeList.items.map((item) => item.voucherNumber)).toEqual([mine.voucherNumber]);
    expect(cafeList.meta).toEqual({ page: 1, perPage: 20, total: 1, lastPage: 1 });
    const boltCodes = (await listVouchers(engine.deps, bolt, {})).items.map((item) => item.secret);
    expect(boltCodes).not.toContain(mine.secret);
    // The fixture's V-0001 was bought by bolt: listed to bolt (its code sealed by the seed), never to acme.
    expect((await listVouchers(engine.deps, bolt, {})).items.map((item) => item.voucherNumber)).toContain(
      "V-0001",
    );
    expect((await listVouchers(engine.deps, acme, {})).items.map((item) => item.voucherNumber)).not.toContain(
      "V-0001",
    );
    expect((await listVouchers(engine.deps, cafe, { page: 2 })).items).toEqual([]);
    expect(await refusal(listVouchers(engine.deps, cafe, { page: "0" }))).toBe(
      "OUT_OF_RANGE: This value should be between 1 and 100000.",
    );
    expect(await refusal(listVouchers(engine.deps, cafe, { page: "x" }))).toBe(
      "NOT_NUMERIC: This value should be of type numeric.",
    );
  });

  // [the case, the buyer, the wallet it pays from, the amount, the refusal]
  it.each<[string, Actor, string, string, string]>([
    ["a EUR wallet", acme, "E100000011", "10", "ONLY_USD_WALLET: Only USD wallet allowed"],
    ["below the minimum", acme, "U100000010", "0.50", "MIN_AMOUNT: Minimum amount exceeded 1.00 for USD"],
    ["over the max", acme, "U100000010", "10000.01", "MAX_AMOUNT: Maximum amount exceeded 10000.00 for USD"],
    ["short of funds", cafe, "U100000030", "70.01", "INSUFFICIENT_FUNDS: balance - amount - commission < 0"],
    ["a blocked buyer", { ...bolt, userId: 4 }, "U100000040", "10", "SENDER_BLOCKED: User is blocked"],
    ["another user's wallet", acme, "U100000020", "10", "WALLET_FROM_NOT_EXISTS: Wallet from not exists"],
    ["an inactive wallet", bolt, "U100000022", "10", "WALLET_FROM_NOT_EXISTS: Wallet from not exists"],
    [
      "too many decimals",
      acme,
      "U100000010",
      "10.001",
      "TOO_PRECISE: This value should have at most 2 decimal places.",
    ],
    ["no amount", acme, "U100000010", "", "BLANK: This value should not be blank."],
    ["a negative amount", acme, "U100000010", "-5", "NOT_POSITIVE: This value should be positive."],
  ])("refuses %s and moves nothing", async (_case, actor, walletFrom, amount, expected) => {
    const before = await balance(walletFrom);
    expect(await refusal(buyVoucher(engine.deps, actor, { walletFrom, amount }))).toBe(expected);
    expect(await balance(walletFrom)).toBe(before);
  });

  it("answers a retry with the same Idempotency-Key with the same voucher; another body is refused", async () => {
    const input = { walletFrom: "U100000010", amount: "3.00", idempotencyKey: "buy-1" };
    const first = await buyVoucher(engine.deps, acme, input);
    const again = await buyVoucher(engine.deps, acme, input);
    expect(again).toEqual(first);
    expect(await refusal(buyVoucher(engine.deps, acme, { ...input, amount: "4.00" }))).toBe(
      "ORDER_ID_NOT_UNIQUE: Order id is not unique",
    );
    const count = await firstRow(
      engine.deps.db.em(),
      sql<{ n: number }>`select count(*)::int as n from idempotency_keys where key = 'buy-1'`,
    );
    expect(count?.n).toBe(1);
  });

  it("refuses the second of two simultaneous identical purchases with the route lock", async () => {
    const before = BigInt((await balance("U100000010")) ?? "0");
    const holder = await holdWalletRow(engine.database.url, "U100000010");
    const first = refusal(buyVoucher(engine.deps, acme, { walletFrom: "U100000010", amount: "2.00" }));
    await waitForLockWaits(engine.database.url, engine.database.name, 1);
    const second = await refusal(buyVoucher(engine.deps, acme, { walletFrom: "U100000010", amount: "2.00" }));
    await holder.rollback();
    expect(second).toBe("ROUTE_LOCKED: Route locked to avoid duplication");
    expect(await first).toBe("ok");
    expect(BigInt((await balance("U100000010")) ?? "0")).toBe(before - 200n);
    expect((await auditLedger(engine.deps.db)).ok).toBe(true);
  });

  it("still activates a voucher whose code was stored as a hash before codes were sealed", async () => {
    await engine.deps.db.em().transactional(async (em) => {
      await recordVoucher(em, {
        number: "V-LEGACY",
        code: { codeSealed: null, codeHash: await hashSecret("1234-5678-9012") },
        currencyId: 1,
        amountMinor: 1000n,
        type: 1,
        status: 0,
        expiresAt: new Date("2030-01-01T00:00:00Z"),
        creatorUserId: 2,
        purchaseStatus: 3,
      });
    });
    const legacy = { voucherNumber: "V-LEGACY", voucherCode: "1234-5678-9012" };
    expect(
      await refusal(getVoucherInfo(engine.deps, acme, { ...legacy, voucherCode: "1234-5678-9013" })),
    ).toBe("VOUCHER_INVALID: Voucher invalid");
    expect((await getVoucherInfo(engine.deps, acme, legacy)).amountTo).toBe("9.80");
    const listed = (await listVouchers(engine.deps, bolt, {})).items.find(
      (item) => item.voucherNumber === "V-LEGACY",
    );
    expect(listed?.secret).toBeNull();
    await activateVoucher(engine.deps, acme, { ...legacy, walletTo: "U100000010" });
    const status = await rows(
      engine.deps.db.em(),
      sql<{ status: number }>`select status from vouchers where number = 'V-LEGACY'`,
    );
    expect(status.map((row) => Number(row.status))).toEqual([1]);
    expect((await auditLedger(engine.deps.db)).ok).toBe(true);
  });
});
