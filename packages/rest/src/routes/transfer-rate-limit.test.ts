import { errorOf, type RestHarness, startRestHarness } from "@purse/testing/rest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const path = "/api/transaction/transfer";

describe("the per-minute limit on transfers", () => {
  let api: RestHarness;
  beforeAll(async () => {
    api = await startRestHarness({ rateLimitPerMinute: 3 });
  });
  afterAll(() => api.close());

  it("refuses the 4th transfer in a minute with 422 Method locked please try again later, per user", async () => {
    const acme = await api.token("acme");
    const statuses: number[] = [];
    for (let index = 1; index <= 4; index += 1) {
      const response = await api.call("POST", path, {
        token: acme,
        body: { wallet_from: "U100000010", wallet_to: "U100000020", amount: `${index}.00` },
      });
      statuses.push(response.status);
      if (index === 4)
        expect(response.body).toEqual(errorOf("RATE_LIMITED", "Method locked please try again later"));
    }
    expect(statuses).toEqual([200, 200, 200, 422]);

    // Still over: a refused call frees no budget.
    const again = await api.call("POST", path, {
      token: acme,
      body: { wallet_from: "U100000010", wallet_to: "U100000020", amount: "1.00" },
    });
    expect(again.status).toBe(422);

    // Another user has a budget of their own.
    const bolt = await api.token("bolt");
    const other = await api.call("POST", path, {
      token: bolt,
      body: { wallet_from: "U100000020", wallet_to: "U100000010", amount: "1.00" },
    });
    expect(other.status).toBe(200);
  });
});
