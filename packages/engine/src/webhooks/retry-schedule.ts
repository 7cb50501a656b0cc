/**
 * When to try again after a failed delivery: quickly at first, then spreading out to 12 hours,
 * for about three days in all (30 s, 2 min, 10 min, 30 min, 1 h, 2 h, 4 h, 8 h, then 12 h).
 */
export const retryDelaysMs: readonly number[] = [
  30_000, 120_000, 600_000, 1_800_000, 3_600_000, 7_200_000, 14_400_000, 28_800_000, 43_200_000, 43_200_000,
  43_200_000, 43_200_000, 43_200_000,
];

/** ±20 % jitter keeps many failed deliveries from retrying in one burst. */
const jitter = 0.2;

/**
 * The delay before the next attempt after `attemptsSoFar` failures, or null when the schedule is
 * exhausted and the delivery is given up (it can still be resent by an operator).
 */
export function nextRetryDelayMs(
  attemptsSoFar: number,
  schedule: readonly number[] = retryDelaysMs,
  random: () => number = Math.random,
): number | null {
  const base = schedule[attemptsSoFar - 1];
  if (base === undefined) return null;
  return Math.round(base * (1 - jitter + 2 * jitter * random()));
}
