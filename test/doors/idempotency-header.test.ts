import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/test-server.ts";

/**
 * Contract: "`Idempotency-Key` header works the same on every money-moving call": on GraphQL and
 * tRPC too, where the key may also be an input field. A retry with the header moves money once.
 */
describe("the Idempotency-Key header on GraphQL and tRPC", () => {
  let api: TestServer;
  let token: string;
  beforeAll(async () => {
    api = await startTestServer();
    token = await api.token("acme");
  });
  afterAll(() => api.close());

  const balance = async () => {
    const wallets = await api.call("GET", "/api/wallets", { token });
    return wallets.body.data.find((wallet: { number: string }) => wallet.number === "U100000010").amount;
  };
  const transfer = { walletFrom: "U100000010", walletTo: "U100000020", amount: "2.00" };

  it("tRPC: a retried transfer with the same header answers the first transfer, and moves money once", async () => {
    const before = await balance();
    const send = (key: string) =>
      api.call("POST", "/trpc/transfer", { token, body: transfer, headers: { "idempotency-key": key } });
    const [first, again] = [await send("trpc-key-1"), await send("trpc-key-1")];
    expect(first.status).toBe(200);
    expect(again.body.result.data).toEqual({ ...first.body.result.data, replayed: true });
    expect(await balance()).toBeCloseTo(before - 2.12, 2);
    const tooLong = await send("k".repeat(256));
    expect(tooLong.status).toBe(422);
    expect(tooLong.body.error.data).toMatchObject({ purseCode: "TOO_LONG", field: "Idempotency-Key" });
  });

  it("GraphQL: the same, through the transfer mutation", async () => {
    const before = await balance();
    const send = () =>
      api.call("POST", "/graphql", {
        token,
        headers: { "idempotency-key": "graphql-key-1" },
        body: {
          query: `mutation($input: TransferInput!) { transfer(input: $input) {
            ... on MutationTransferSuccess { data { id replayed } } ... on PurseError { message } } }`,
          variables: { input: transfer },
        },
      });
    const first = (await send()).body.data.transfer.data;
    const again = (await send()).body.data.transfer.data;
    expect(again).toEqual({ id: first.id, replayed: true });
    expect(await balance()).toBeCloseTo(before - 2.12, 2);
  });

  it("a declared mutation, the voucher purchase: a retry with the same header answers the first voucher on each door, and moves money once", async () => {
    const before = await balance();
    const purchase = { walletFrom: "U100000010", amount: "1.00" };
    const headers = (key: string) => ({ "idempotency-key": key });
    const doors: Record<string, (key: string) => Promise<string>> = {
      rest: async (key) =>
        (
          await api.call("POST", "/api/vouchers/buy", {
            token,
            headers: headers(key),
            body: { wallet_from: purchase.walletFrom, amount: purchase.amount },
          })
        ).body.data.voucherNumber,
      trpc: async (key) =>
        (await api.call("POST", "/trpc/buyVoucher", { token, headers: headers(key), body: purchase })).body
          .result.data.voucherNumber,
      graphql: async (key) => {
        const result = (
          await api.call("POST", "/graphql", {
            token,
            headers: headers(key),
            body: {
              query: `mutation($input: BuyVoucherInput!) { buyVoucher(input: $input) {
                ... on MutationBuyVoucherSuccess { data { voucherNumber } } ... on PurseError { message } } }`,
              variables: { input: purchase },
            },
          })
        ).body.data.buyVoucher;
        return result.data?.voucherNumber ?? result.message;
      },
    };
    const bought = new Set<string>();
    for (const [door, buy] of Object.entries(doors)) {
      const first = await buy(`voucher-${door}`);
      expect(await buy(`voucher-${door}`), door).toBe(first);
      bought.add(first);
    }
    expect(bought.size).toBe(3);
    expect(await balance()).toBeCloseTo(before - 3, 2);
  });

  it("a declared mutation, the voucher activation: a retry with the same header answers the first activation on each door, and credits once", async () => {
    // Acme (a merchant) buys, Bolt (a partner) activates into its USD wallet: the voucher type rule.
    const bolt = await api.token("bolt");
    const boltBalance = async () => {
      const wallets = await api.call("GET", "/api/wallets", { token: bolt });
      return wallets.body.data.find((wallet: { number: string }) => wallet.number === "U100000020").amount;
    };
    const headers = (key: string) => ({ "idempotency-key": key });
    const buy = async () => {
      const bought = await api.call("POST", "/api/vouchers/buy", {
        token,
        body: { wallet_from: "U100000010", amount: "1.00" },
      });
      return { voucherNumber: bought.body.data.voucherNumber, voucherCode: bought.body.data.secret };
    };
    const doors: Record<string, (key: string, voucher: Record<string, string>) => Promise<unknown>> = {
      // REST answers the specification's bare `{message}`.
      rest: async (key, voucher) =>
        (
          await api.call("POST", "/api/vouchers/activation/confirm", {
            token: bolt,
            headers: headers(key),
            body: {
              voucher_number: voucher["voucherNumber"],
              voucher_code: voucher["voucherCode"],
              wallet_to: "U100000020",
            },
          })
        ).body,
      trpc: async (key, voucher) =>
        (
          await api.call("POST", "/trpc/activateVoucher", {
            token: bolt,
            headers: headers(key),
            body: { ...voucher, walletTo: "U100000020" },
          })
        ).body.result.data,
      graphql: async (key, voucher) =>
        (
          await api.call("POST", "/graphql", {
            token: bolt,
            headers: headers(key),
            body: {
              query: `mutation($input: VoucherActivationInput!) { activateVoucher(input: $input) {
                ... on MutationActivateVoucherSuccess { data { message transactionId } } ... on PurseError { message } } }`,
              variables: { input: { ...voucher, walletTo: "U100000020" } },
            },
          })
        ).body.data.activateVoucher.data,
    };
    for (const [door, activate] of Object.entries(doors)) {
      const voucher = await buy();
      const before = await boltBalance();
      const first = (await activate(`activation-${door}`, voucher)) as Record<string, unknown>;
      expect(first, door).toEqual(
        door === "rest"
          ? { message: expect.any(String) }
          : { message: expect.any(String), transactionId: expect.any(Number) },
      );
      expect(await activate(`activation-${door}`, voucher), door).toEqual(first);
      // 1.00 less the fixture's 2% voucher commission, credited once.
      expect(await boltBalance(), door).toBeCloseTo(before + 0.98, 2);
    }
  });
});
