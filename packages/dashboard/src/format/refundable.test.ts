import { describe, expect, it } from "vitest";
import { amountProblem, isZero, remainingAmount } from "./refundable.ts";

describe("what may still be refunded", () => {
  it("subtracts exactly, whatever the size", () => {
    expect(remainingAmount("25.00", "5.00")).toBe("20.00");
    expect(remainingAmount("0.30", "0.10")).toBe("0.20");
    expect(remainingAmount("12345678901234567.89", "0.01")).toBe("12345678901234567.88");
    expect(isZero(remainingAmount("3.00", "3.00"))).toBe(true);
  });

  it("accepts an amount up to the remainder only", () => {
    expect(amountProblem("20.00", "20.00")).toBeNull();
    expect(amountProblem("0.5", "20.00")).toBeNull();
    expect(amountProblem("20.01", "20.00")).toBe("At most 20.00 may still be refunded.");
    expect(amountProblem("0", "20.00")).toBe("Enter an amount above zero.");
    expect(amountProblem("1e3", "20.00")).toBe("Enter an amount such as 5.00.");
    expect(amountProblem("", "20.00")).toBe("Enter an amount such as 5.00.");
  });
});
