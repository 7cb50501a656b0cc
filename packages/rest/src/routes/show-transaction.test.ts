import { type Envelope, errorOf, type RestHarness, shapeOf, startRestHarness } from "@purse/testing/rest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const path = "/api/transaction/show";
const notFound = { status: false, message: "Not found", code: "NOT_FOUND" };

describe("GET /api/transaction/show", () => {
  let api: RestHarness;
  let acme: string;
  let bolt: string;
  let cafe: string;
  let id = 0;
  beforeAll(async () => {
    api = await startRestHarness();
    [acme, bolt, cafe] = await Promise.all([api.token("acme"), api.token("bolt"), api.token("cafe")]);
    const response = await api.call<Envelope<{ id: number }>>("POST", "/api/transaction/transfer", {
      token: acme,
      body: { wallet_from: "U100000010", wallet_to: "U100000020", amount: "10.00", payment_id: "show-1" },
    });
    id = response.body.data.id;
  });
  afterAll(() => api.close());

  const detail = () => ({
    status: true,
    data: {
      id,
      external_id: "show-1",
      amount: "10.00",
      commission: "0.20",
      type: "TRANSFER",
      status: "SUCCESS",
      currency: { id: 1, code: "USD", precession: 2 },
      processing_pay: {
        payment_id: "show-1",
        signature: "",
        transaction_id: id,
        wallet_from: "U100000010",
        wallet_to: "U100000020",
        currency_to: "USD",
        currency_from: "USD",
        amount: 10,
        status: "SUCCESS",
        cancel: false,
      },
      // Migration 0016: a transfer is no refund, nor a checkout that could be refunded.
      refund_of: null,
      refunded: null,
    },
  });

  it("finds the caller's transaction by id and by external_id, amounts as decimal strings", async () => {
    const byId = await api.call<Envelope<Record<string, unknown>>>("GET", `${path}?id=${id}`, {
      token: acme,
    });
    expect(byId.status).toBe(200);
    expect(byId.body).toEqual(detail());
    expect(shapeOf(byId.body.data)).toEqual({
      id: "number",
      external_id: "string",
      amount: "string",
      commission: "string",
      type: "string",
      status: "string",
      currency: "object",
      processing_pay: "object",
      refund_of: "object",
      refunded: "object",
    });
    expect(shapeOf(byId.body.data["processing_pay"])).toEqual({
      payment_id: "string",
      signature: "string",
      transaction_id: "number",
      wallet_from: "string",
      wallet_to: "string",
      currency_to: "string",
      currency_from: "string",
      amount: "number",
      status: "string",
      cancel: "boolean",
    });
    const byExternal = await api.call("GET", `${path}?external_id=show-1`, { token: acme });
    expect(byExternal.body).toEqual(detail());
    const byBoth = await api.call("GET", `${path}?id=${id}&external_id=show-1`, { token: acme });
    expect(byBoth.body).toEqual(detail());
  });

  it("lets the receiver see it by id; external ids are the sender's own", async () => {
    expect((await api.call("GET", `${path}?id=${id}`, { token: bolt })).body).toEqual(detail());
    const byExternal = await api.call("GET", `${path}?external_id=show-1`, { token: bolt });
    expect(byExternal.status).toBe(404);
    expect(byExternal.body).toEqual(notFound);
  });

  it("answers 404 Not found for another user's transaction, exactly as for a missing one", async () => {
    for (const query of [
      `id=${id}`,
      "external_id=show-1",
      "id=999999",
      "id=abc",
      `id=${id}&external_id=other`,
    ]) {
      const response = await api.call("GET", `${path}?${query}`, { token: cafe });
      expect(response.status, query).toBe(404);
      expect(response.body).toEqual(notFound);
    }
  });

  it("needs one of id and external_id, and a token", async () => {
    const neither = await api.call("GET", path, { token: acme });
    expect(neither.status).toBe(422);
    expect(neither.body).toEqual(errorOf("BLANK", "This value should not be blank.", "id"));
    const empty = await api.call("GET", `${path}?id=&external_id=`, { token: acme });
    expect(empty.body).toEqual(errorOf("BLANK", "This value should not be blank.", "id"));
    const anonymous = await api.call("GET", `${path}?id=${id}`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual({ status: false, message: "Unauthorized", code: "UNAUTHORIZED" });
  });
});
