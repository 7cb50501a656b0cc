import { DecimalType } from "@mikro-orm/core";
import { normaliseDecimalText, parseDecimal } from "../../money/index.ts";

/**
 * `numeric` columns as exact text. MikroORM's own decimal type decides "changed?" by comparing
 * floats, so a change in the 17th digit was never written; this one compares the exact values.
 */
export class DecimalTextType extends DecimalType<"string"> {
  constructor() {
    super("string");
  }

  override compareValues(a: string, b: string): boolean {
    return canonical(a) === canonical(b);
  }
}

function canonical(text: string): string {
  const value = parseDecimal(String(text));
  return value ? normaliseDecimalText(value) : String(text);
}
