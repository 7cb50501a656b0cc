/** A whole number from `min` to `max` given to `option`; anything else is an error naming it. */
export function parseCount(text: string, option: string, min: number, max: number): number {
  const value = /^\d{1,9}$/.test(text.trim()) ? Number(text.trim()) : Number.NaN;
  if (!(value >= min && value <= max)) {
    throw new Error(`${option} takes a whole number from ${min} to ${max} (got "${text}")`);
  }
  return value;
}
