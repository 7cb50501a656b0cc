import { describe, expect, it } from "vitest";
import { nextRetryDelayMs, retryDelaysMs } from "./retry-schedule.ts";

describe("the webhook retry schedule", () => {
  it("spreads 14 attempts over about three days", () => {
    const total = retryDelaysMs.reduce((sum, delay) => sum + delay, 0);
    expect(retryDelaysMs.length + 1).toBe(14);
    expect(total / 86_400_000).toBeGreaterThan(2.9);
    expect(total / 86_400_000).toBeLessThan(3.5);
  });

  it("backs off exponentially at first and never shrinks", () => {
    for (let index = 1; index < retryDelaysMs.length; index += 1) {
      expect(retryDelaysMs[index]).toBeGreaterThanOrEqual(retryDelaysMs[index - 1] ?? 0);
    }
    expect(nextRetryDelayMs(1, retryDelaysMs, () => 0.5)).toBe(30_000);
    expect(nextRetryDelayMs(2, retryDelaysMs, () => 0.5)).toBe(120_000);
  });

  it("adds ±20% jitter", () => {
    expect(nextRetryDelayMs(1, retryDelaysMs, () => 0)).toBe(24_000);
    expect(nextRetryDelayMs(1, retryDelaysMs, () => 1)).toBe(36_000);
  });

  it("gives up after the last delay", () => {
    expect(nextRetryDelayMs(retryDelaysMs.length, retryDelaysMs, () => 0.5)).toBe(43_200_000);
    expect(nextRetryDelayMs(retryDelaysMs.length + 1)).toBeNull();
  });
});
