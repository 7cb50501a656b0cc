import { describe, expect, it } from "vitest";
import { VoucherStatus } from "./voucher-codes.ts";
import { isVoucherExpired, shouldCloseVoucher } from "./voucher-expiry.ts";

const expiredAt = new Date("2030-01-01T00:00:00Z");
const at = (offsetMs: number) => new Date(expiredAt.getTime() + offsetMs);

describe("isVoucherExpired", () => {
  it("holds from the very millisecond expired_at is reached, not a millisecond earlier", () => {
    expect(isVoucherExpired({ expiredAt }, at(-1))).toBe(false);
    expect(isVoucherExpired({ expiredAt }, at(0))).toBe(true);
    expect(isVoucherExpired({ expiredAt }, at(1))).toBe(true);
  });

  it("compares instants, whatever time zone the dates were written in", () => {
    expect(isVoucherExpired({ expiredAt }, new Date("2029-12-31T23:59:59-00:30"))).toBe(true);
    expect(isVoucherExpired({ expiredAt }, new Date("2030-01-01T00:59:59+01:00"))).toBe(false);
  });
});

describe("shouldCloseVoucher", () => {
  it("sweeps a pending voucher once it has expired", () => {
    expect(shouldCloseVoucher({ status: VoucherStatus.PENDING, expiredAt }, at(0))).toBe(true);
    expect(shouldCloseVoucher({ status: VoucherStatus.PENDING, expiredAt }, at(-1))).toBe(false);
  });

  it("leaves activated and already closed vouchers alone", () => {
    expect(shouldCloseVoucher({ status: VoucherStatus.ACTIVATED, expiredAt }, at(1))).toBe(false);
    expect(shouldCloseVoucher({ status: VoucherStatus.CLOSED, expiredAt }, at(1))).toBe(false);
  });
});
