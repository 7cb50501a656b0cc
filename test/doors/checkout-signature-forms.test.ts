import { checkoutSignature } from "@purse/engine";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/test-server.ts";
import { trpcClient } from "../support/trpc-client.ts";

/** The signature forms clients compute, accepted on each door that can carry them. */
describe("checkout signatures as each language computes them, on every door", () => {
  let api: TestServer;
  beforeAll(async () => {
    api = await startTestServer();
  }, 60_000);
  afterAll(() => api.close());

  const fields = (id: string) => ({ wallet_to: "U100000010", wallet_from: "U100000020", amount: "10.5", id });
  const urls = { success_url: "https://shop.example/ok", cancel_url: "https://shop.example/no" };

  it("REST: Python's json.dumps form, and PHP's json_encode over the numbers sent", async () => {
    const python = await api.call("POST", "/api/processing/checkout", {
      body: {
        ...fields("py-1"),
        ...urls,
        signature: checkoutSignature(fields("py-1"), "acme-form-token", "python"),
        user_info: "payer-py-1",
      },
    });
    expect(python.status).toBe(200);
    const signature = checkoutSignature(fields("4711"), "acme-form-token", "php", {
      amount: "number",
      id: "number",
    });
    const php = await api.call("POST", "/api/processing/checkout", {
      body: { ...fields("4711"), amount: 10.5, id: 4711, ...urls, signature, user_info: "payer-4711" },
    });
    expect(php.status).toBe(200);
    const asText = await api.call("POST", "/api/processing/checkout", {
      body: { ...fields("4712"), ...urls, signature, user_info: "payer-4712" },
    });
    expect(asText.body).toEqual(expect.objectContaining({ message: "Signature not identical" }));
  });

  it("tRPC: the amount sent as a number, signed as that number", async () => {
    const client = trpcClient(api.url);
    const signed = fields("trpc-1");
    const created = await client.checkout.mutate({
      walletTo: signed.wallet_to,
      walletFrom: signed.wallet_from,
      amount: 10.5,
      id: signed.id,
      signature: checkoutSignature(signed, "acme-form-token", "js", { amount: "number" }),
      successUrl: urls.success_url,
      userInfo: "payer-trpc-1",
    });
    expect(created.url).toContain("/pay/");
  });

  it("GraphQL: Python's form (its inputs are strings, so signed values are strings)", async () => {
    const signed = fields("gql-1");
    const response = await api.call("POST", "/graphql", {
      body: {
        query: `mutation($input: CheckoutInput!) { createCheckout(input: $input) {
          __typename ... on PurseError { message } ... on MutationCreateCheckoutSuccess { data { url } } } }`,
        variables: {
          input: {
            walletTo: signed.wallet_to,
            walletFrom: signed.wallet_from,
            amount: signed.amount,
            id: signed.id,
            signature: checkoutSignature(signed, "acme-form-token", "python"),
            successUrl: urls.success_url,
            userInfo: "payer-gql-1",
          },
        },
      },
    });
    expect(response.body.data.createCheckout.data.url).toContain("/pay/");
  });

  it("a missing signature is the specification's refusal on every door, not a door's own", async () => {
    const unsigned = fields("unsigned-1");
    const rest = await api.call("POST", "/api/processing/checkout", {
      body: { ...unsigned, ...urls, user_info: "payer-unsigned-1" },
    });
    expect(rest.status).toBe(422);
    expect(rest.body).toEqual(expect.objectContaining({ message: "Signature not identical" }));
    const client = trpcClient(api.url);
    const trpc = await client.checkout
      .mutate({
        walletTo: unsigned.wallet_to,
        walletFrom: unsigned.wallet_from,
        amount: unsigned.amount,
        id: unsigned.id,
        userInfo: "payer-unsigned-1",
      })
      .catch((error: unknown) => error);
    expect(trpc).toMatchObject({ message: "Signature not identical" });
    const graphql = await api.call("POST", "/graphql", {
      body: {
        query: `mutation($input: CheckoutInput!) { createCheckout(input: $input) {
          __typename ... on PurseError { message } } }`,
        variables: {
          input: {
            walletTo: unsigned.wallet_to,
            walletFrom: unsigned.wallet_from,
            amount: unsigned.amount,
            id: unsigned.id,
            userInfo: "payer-unsigned-1",
          },
        },
      },
    });
    expect(graphql.body.data.createCheckout).toEqual({
      __typename: "PurseError",
      message: "Signature not identical",
    });
  });
});
