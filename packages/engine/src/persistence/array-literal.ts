/** A value `arrayLiteral` writes itself; anything else (dates, buffers, nested arrays) is left to pg. */
type Element = string | number | bigint | boolean | null | undefined;

const needsEscape = /["\\]/;

/**
 * A flat array of scalars as PostgreSQL's array input text (`{1,NULL,"a \"b\""}`), which is what
 * pg sends for an array parameter. pg builds it element by element, every string through two
 * regular-expression replacements; the ledger statement binds thirty arrays per batch
 * (ledger/sealing-store.ts), and that was a seventh of what a transfer allocated (docs/benchmark.md,
 * "Allocation per transfer, one PUBLISH per batch"). Here each element is quoted, escaped only
 * when it holds a quote or a backslash, and joined once. Undefined for an array holding anything
 * else, which pg then converts as before.
 */
export function arrayLiteral(values: readonly unknown[]): string | undefined {
  const parts = new Array<string>(values.length);
  for (let index = 0; index < values.length; index += 1) {
    const value = values[index] as Element | object;
    if (value === null || value === undefined) parts[index] = "NULL";
    else if (typeof value === "string")
      parts[index] = `"${needsEscape.test(value) ? value.replace(/["\\]/g, "\\$&") : value}"`;
    else if (typeof value === "number" || typeof value === "bigint" || typeof value === "boolean")
      parts[index] = String(value);
    else return undefined;
  }
  return `{${parts.join(",")}}`;
}
