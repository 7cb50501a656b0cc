import { describe, expect, it } from "vitest";
import { refusedFieldName } from "./refused-field.ts";

describe("the field a refusal names", () => {
  it("is the specification's spelling of a contract's field", () => {
    expect(refusedFieldName("walletFrom")).toBe("wallet_from");
    expect(refusedFieldName("successUrl")).toBe("success_url");
    expect(refusedFieldName("amount")).toBe("amount");
    expect(refusedFieldName("wallet_to")).toBe("wallet_to");
  });

  it("leaves a name of another shape as it is", () => {
    expect(refusedFieldName("Idempotency-Key")).toBe("Idempotency-Key");
  });
});
