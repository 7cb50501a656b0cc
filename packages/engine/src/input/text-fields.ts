import { PurseError } from "../errors/index.ts";

/** A required text field: missing, null or only spaces is "This value should not be blank." */
export function requiredText(value: string | null | undefined, field: string): string {
  const text = value?.trim();
  if (!text) throw new PurseError("BLANK", field);
  return text;
}

/** Contract: an empty string in an optional field means the field is absent. */
export function optionalText(value: string | null | undefined): string | null {
  const text = value?.trim();
  return text ? text : null;
}
