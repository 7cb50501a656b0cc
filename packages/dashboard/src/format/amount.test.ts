import { describe, expect, it } from "vitest";
import { daysBefore, displayAmount, displayTime, groupDigits } from "./amount.ts";

describe("amount display (text only, never a float)", () => {
  it("groups the whole part and keeps every fraction digit", () => {
    expect(groupDigits("0.00")).toBe("0.00");
    expect(groupDigits("999.99")).toBe("999.99");
    expect(groupDigits("1000")).toBe("1,000");
    expect(groupDigits("1234567.50")).toBe("1,234,567.50");
    expect(groupDigits("-12345.000000000000000001")).toBe("-12,345.000000000000000001");
    // 2^53 + 1 would round as a number; as text it stays exact.
    expect(groupDigits("9007199254740993.01")).toBe("9,007,199,254,740,993.01");
  });

  it("shows what is not a plain decimal as it came", () => {
    expect(groupDigits("1e5")).toBe("1e5");
    expect(groupDigits("")).toBe("");
    expect(displayAmount("25.5", "USD")).toBe("25.5 USD");
  });

  it("shows timestamps in UTC without the ISO separators", () => {
    expect(displayTime("2026-11-26T19:40:01.123Z")).toBe("2026-11-26 19:40:01");
    expect(displayTime("2026-11-26 19:40:01")).toBe("2026-11-26 19:40:01");
  });

  it("counts days back on the UTC calendar", () => {
    expect(daysBefore(new Date("2026-03-01T23:30:00Z"), 1)).toBe("2026-02-28");
    expect(daysBefore(new Date("2026-01-01T00:00:00Z"), 0)).toBe("2026-01-01");
  });
});
