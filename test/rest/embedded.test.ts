import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmbeddedServer, type TestServer } from "../support/test-server.ts";

describe("the embedded default (npm start with no DATABASE_URL)", () => {
  let api: TestServer;
  beforeAll(async () => {
    api = await startEmbeddedServer();
  }, 120_000);
  afterAll(() => api.close());

  it("serves the demo data: token, wallets, transfer", async () => {
    const token = await api.token("acme");
    const wallets = await api.call("GET", "/api/wallets", { token });
    expect(wallets.body.data.map((w: { number: string }) => w.number)).toContain("U100000010");
    const transfer = await api.call("POST", "/api/transaction/transfer", {
      token,
      body: { wallet_from: "U100000010", wallet_to: "U100000020", amount: "10.00" },
    });
    expect(transfer.status).toBe(200);
    const after = await api.call("GET", "/api/wallets", { token });
    expect(after.body.data.find((w: { number: string }) => w.number === "U100000010").amount).toBe(489.8);
  });
});
