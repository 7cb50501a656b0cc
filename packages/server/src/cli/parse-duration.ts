const units = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** `24h`, `90m`, `30s`, `2d` or `0` to milliseconds; anything else is an error naming the option. */
export function parseDuration(text: string, option: string): number {
  const match = /^(\d+(?:\.\d+)?)([smhd])?$/.exec(text.trim());
  const amount = match ? Number(match[1]) : Number.NaN;
  const unit = (match?.[2] ?? (amount === 0 ? "s" : undefined)) as keyof typeof units | undefined;
  if (!match || unit === undefined || !Number.isFinite(amount)) {
    throw new Error(`${option} takes a duration such as 24h, 90m, 30s, 2d or 0 (got "${text}")`);
  }
  return Math.round(amount * units[unit]);
}
