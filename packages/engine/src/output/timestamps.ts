/** Contract: every REST timestamp is `YYYY-MM-DD HH:MM:SS`, UTC. */
export function formatTimestamp(value: Date | string): string {
  return new Date(value).toISOString().slice(0, 19).replace("T", " ");
}
