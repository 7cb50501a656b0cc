/**
 * The field a refusal names, as every door has always named it: the specification's spelling
 * (`wallet_from`, `success_url`). The engine's contracts name their fields in camelCase
 * (`walletFrom`); a name of another shape (a header's `Idempotency-Key`) is left as it is.
 */
export function refusedFieldName(field: string): string {
  return /^[a-z][a-zA-Z0-9]*$/.test(field)
    ? field.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`)
    : field;
}
