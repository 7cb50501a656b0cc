import { checkoutSignature } from "@purse/engine";
import type { AppRouter } from "@purse/trpc";
import { createTRPCClient, createWSClient, wsLink } from "@trpc/client";
import { createClient } from "graphql-ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { firstEvent, graphqlSubscription } from "../support/event-stream.ts";
import { createTestCheckout, openTestAccount, type TestAccount } from "../support/test-mode.ts";
import { startTestServer, type TestServer } from "../support/test-server.ts";

/**
 * Test mode as an attack (contract: "Test mode"): a live token names test data and a test token
 * names live data, on every operation of every door; neither answer ever carries the other mode's
 * data, and neither mode's money moves. Live data is the sample world (wallets `U1000000…`,
 * `E1000000…`, vouchers `V-000…`); test data is numbered `test_…`.
 */
const liveMarks = /U1000000|E1000000|V-000|acme-form-token/;
const testMarks = /test_/;

describe("test mode keeps test and live data apart on every door", () => {
  let api: TestServer;
  let live: { acme: string; bolt: string };
  let acme: TestAccount;
  let bolt: TestAccount;
  let testTransferId: number;
  let testCheckoutPaymentId: string;
  const balances = async () => ({
    live: (await api.call("GET", "/api/wallets", { token: live.acme })).body.data,
    test: (await api.call("GET", "/api/wallets", { token: acme.token })).body.data,
  });
  let before: Awaited<ReturnType<typeof balances>>;
  /** Test transfers the WebSocket test made (each 1.00 into acme's test wallet). */
  let testTransfersOverSockets = 0;

  beforeAll(async () => {
    api = await startTestServer({ env: { PURSE_RATE_LIMIT_PER_MINUTE: "10000" } });
    live = { acme: await api.token("acme"), bolt: await api.token("bolt") };
    acme = await openTestAccount(api, "acme", { USD: "500.00" });
    bolt = await openTestAccount(api, "bolt", { USD: "300.00" });
    const transfer = await api.call("POST", "/api/transaction/transfer", {
      token: bolt.token,
      body: { wallet_from: bolt.wallets["USD"], wallet_to: acme.wallets["USD"], amount: "20.00" },
    });
    expect(transfer.status).toBe(200);
    testTransferId = transfer.body.data.id;
    testCheckoutPaymentId = `test-order-${Date.now()}`;
    const checkout = await createTestCheckout(
      api,
      acme,
      bolt.wallets["USD"] ?? "",
      "7.00",
      testCheckoutPaymentId,
    );
    expect(checkout.status).toBe(200);
    before = await balances();
  });
  afterAll(() => api.close());

  it("test credentials, tokens, wallets and links carry the test_ mark", () => {
    expect(acme.client.clientId).toMatch(/^test_/);
    expect(acme.client.clientSecret).toMatch(/^test_/);
    expect(acme.client.formToken).toMatch(/^test_/);
    expect(acme.token).toMatch(/^test_/);
    expect(acme.wallets["USD"]).toMatch(/^test_/);
  });

  it("a test token sees only test wallets, balances and transactions, marked livemode: false", async () => {
    const wallets = await api.call("GET", "/api/wallets", { token: acme.token });
    expect(wallets.body).toMatchObject({ status: true, livemode: false });
    expect(wallets.body.data.map((wallet: { number: string }) => wallet.number)).toEqual([
      acme.wallets["USD"],
    ]);
    expect(wallets.body.data[0].amount).toBe(520);
    const liveWallets = await api.call("GET", "/api/wallets", { token: live.acme });
    expect(liveWallets.body.livemode).toBeUndefined();
    expect(JSON.stringify(liveWallets.body)).not.toMatch(testMarks);
  });

  // Each REST operation a bearer token may call, aimed at the other mode's data.
  const restCalls = (
    token: string,
    other: { wallet: string; payer: string; transactionId: number; paymentId: string },
  ) =>
    [
      ["GET", "/api/wallets"],
      ["GET", `/api/wallets/search/${other.wallet}`],
      ["GET", `/api/wallet-exists?number_to=${other.wallet}&number_from=${other.payer}`],
      ["GET", `/api/transaction/show?id=${other.transactionId}`],
      ["GET", `/api/transaction/show?external_id=${other.paymentId}`],
      ["GET", "/api/transactions/histories?startDate=2020-01-01&endDate=2100-01-01"],
      ["GET", `/api/transactions/histories?startDate=2020-01-01&endDate=2100-01-01&wallet=${other.wallet}`],
      ["GET", "/api/transactions/export?from=2020-01-01&until=2100-01-01"],
      // The dashboard's switch on the export is honoured with its session cookie only, never a token.
      ["GET", "/api/transactions/export?from=2020-01-01&until=2100-01-01&mode=test"],
      ["GET", "/api/vouchers"],
      ["GET", "/api/vouchers/activation/info?voucher_number=V-0001&voucher_code=1111-2222-3333"],
      ["GET", "/api/user/me"],
      [
        "POST",
        "/api/transaction/transfer",
        { wallet_from: other.payer, wallet_to: other.wallet, amount: "1.00" },
      ],
      [
        "POST",
        "/api/transaction/transfer",
        { wallet_from: other.wallet, wallet_to: other.payer, amount: "1.00" },
      ],
      ["POST", "/api/vouchers/buy", { wallet_from: other.wallet, amount: "1.00" }],
      [
        "POST",
        "/api/vouchers/activation/confirm",
        { voucher_number: "V-0001", voucher_code: "1111-2222-3333", wallet_to: other.wallet },
      ],
      ["POST", "/api/processing/refund", { transaction_id: other.transactionId, amount: "1.00" }],
      ["POST", "/api/processing/refund", { external_id: other.paymentId }],
    ].map(([method, path, body]) => ({
      method: method as "GET" | "POST",
      path: path as string,
      body,
      token,
    }));

  it("REST: a live token aimed at test data and a test token aimed at live data find nothing of it", async () => {
    const attacks = [
      ...restCalls(live.acme, {
        wallet: acme.wallets["USD"] ?? "",
        payer: bolt.wallets["USD"] ?? "",
        transactionId: testTransferId,
        paymentId: testCheckoutPaymentId,
      }).map((call) => ({ ...call, forbidden: testMarks })),
      ...restCalls(acme.token, {
        wallet: "U100000010",
        payer: "U100000020",
        transactionId: 1,
        paymentId: "order-1",
      }).map((call) => ({ ...call, forbidden: liveMarks })),
    ];
    for (const attack of attacks) {
      const answer = await api.call(attack.method, attack.path, {
        token: attack.token,
        ...(attack.body ? { body: attack.body } : {}),
      });
      const text = typeof answer.body === "string" ? answer.body : JSON.stringify(answer.body);
      expect(answer.status, `${attack.method} ${attack.path}`).toBeLessThan(500);
      expect(text, `${attack.method} ${attack.path}: ${text}`).not.toMatch(attack.forbidden);
    }
  });

  it("GraphQL and tRPC: the same, query by query and mutation by mutation", async () => {
    const graphql = async (token: string, query: string, variables: Record<string, unknown> = {}) =>
      (await api.call("POST", "/graphql", { token, body: { query, variables } })).body as {
        data?: unknown;
        errors?: { message: string; extensions?: { code?: string } }[];
      };
    const trpcQuery = (token: string, path: string, input: unknown) =>
      api.call("GET", `/trpc/${path}?input=${encodeURIComponent(JSON.stringify(input))}`, { token });
    const trpcMutation = (token: string, path: string, input: unknown) =>
      api.call("POST", `/trpc/${path}`, { token, body: input });
    const reads = (other: { wallet: string; payer: string; id: number; paymentId: string }) => [
      "{ wallets { number amount } }",
      `{ wallet(number: "${other.wallet}") { number amount } }`,
      `{ walletsExist(numberTo: "${other.wallet}", numberFrom: "${other.payer}") { numberTo numberFrom } }`,
      `{ transaction(id: ${other.id}) { id amount processingPay { status } } }`,
      `{ transaction(externalId: "${other.paymentId}") { id amount } }`,
      "{ transactions(first: 50) { edges { node { id amount walletFrom { number } walletTo { number } } } } }",
      "{ checkouts { paymentId walletFrom walletTo amount url } }",
      `{ balanceHistory(wallet: "${other.wallet}") { day balance } }`,
      "{ vouchers { items { voucherNumber } } }",
      "{ me { id name } }",
    ];
    const own = {
      live: { wallet: "U100000010", payer: "U100000020", id: 1, paymentId: "none" },
      test: {
        wallet: acme.wallets["USD"] ?? "",
        payer: bolt.wallets["USD"] ?? "",
        id: testTransferId,
        paymentId: testCheckoutPaymentId,
      },
    };
    // Each read first answers its own mode's data (so the attack below asks something that works).
    const testWallets = await graphql(
      acme.token,
      "{ wallets { number } transactions(first: 5) { edges { node { id } } } checkouts { walletTo } }",
    );
    expect(testWallets.errors).toBeUndefined();
    expect(JSON.stringify(testWallets.data)).toContain(own.test.wallet);
    for (const [token, other, forbidden] of [
      [live.acme, own.test, testMarks],
      [acme.token, own.live, liveMarks],
    ] as const) {
      for (const query of reads(other)) {
        const answer = await graphql(token, query);
        const validation = answer.errors?.find(
          (error) => error.extensions?.code === "GRAPHQL_VALIDATION_FAILED",
        );
        expect(validation, query).toBeUndefined();
        expect(JSON.stringify(answer), query).not.toMatch(forbidden);
      }
      const moved = await graphql(
        token,
        "mutation($input: TransferInput!) { transfer(input: $input) { __typename ... on PurseError { message } } }",
        { input: { walletFrom: other.payer, walletTo: other.wallet, amount: "1.00" } },
      );
      expect(moved.data).toMatchObject({ transfer: { __typename: "PurseError" } });
      const refunded = await graphql(
        token,
        "mutation($input: RefundCheckoutInput!) { refundCheckout(input: $input) { __typename ... on PurseError { message } } }",
        { input: { externalId: other.paymentId } },
      );
      expect(refunded.data).toMatchObject({ refundCheckout: { __typename: "PurseError" } });
      const trpcAnswers = [
        await trpcQuery(token, "wallets", undefined),
        await trpcQuery(token, "wallet", { number: other.wallet }),
        await trpcQuery(token, "transaction", { id: other.id }),
        await trpcQuery(token, "transactions", { first: 50 }),
        await trpcQuery(token, "checkouts", {}),
        await trpcMutation(token, "transfer", {
          walletFrom: other.payer,
          walletTo: other.wallet,
          amount: "1.00",
        }),
        await trpcMutation(token, "refund", { externalId: other.paymentId }),
      ];
      for (const answer of trpcAnswers) {
        expect(answer.status).toBeLessThan(500);
        expect(JSON.stringify(answer.body)).not.toMatch(forbidden);
      }
      // The mutations were refused, not answered with something else.
      expect(trpcAnswers[5]?.status).not.toBe(200);
      expect(trpcAnswers[6]?.status).not.toBe(200);
    }
    // And the same tRPC reads with the test token do answer test data.
    const testTrpc = await trpcQuery(acme.token, "wallets", undefined);
    expect(JSON.stringify(testTrpc.body)).toContain(own.test.wallet);
  });

  it("a test token's GraphQL answers say livemode: false, and tRPC's say so in a header", async () => {
    const graphql = await api.call("POST", "/graphql", {
      token: acme.token,
      body: { query: "{ wallets { number } }" },
    });
    expect(graphql.body.extensions).toEqual({ livemode: false });
    const liveGraphql = await api.call("POST", "/graphql", {
      token: live.acme,
      body: { query: "{ wallets { number } }" },
    });
    expect(liveGraphql.body.extensions).toBeUndefined();
    const trpc = await api.call("GET", "/trpc/wallets", { token: acme.token });
    expect(trpc.headers.get("purse-livemode")).toBe("false");
    const liveTrpc = await api.call("GET", "/trpc/wallets", { token: live.acme });
    expect(liveTrpc.headers.get("purse-livemode")).toBeNull();
  });

  it("a public call into test data (a GraphQL checkout into a test wallet) says livemode: false too", async () => {
    const fields = {
      wallet_to: acme.wallets["USD"] ?? "",
      wallet_from: bolt.wallets["USD"] ?? "",
      amount: "3.00",
      id: `gql-${Date.now()}`,
    };
    const answer = await api.call("POST", "/graphql", {
      body: {
        query: `mutation($input: CheckoutInput!) { createCheckout(input: $input) {
          __typename ... on PurseError { message } ... on MutationCreateCheckoutSuccess { data { url } } } }`,
        variables: {
          input: {
            walletTo: fields.wallet_to,
            walletFrom: fields.wallet_from,
            amount: fields.amount,
            id: fields.id,
            userInfo: `payer-${fields.id}`,
            signature: checkoutSignature(fields, acme.client.formToken),
          },
        },
      },
    });
    expect(answer.body.data.createCheckout.data.url).toMatch(/\/test_chk_/);
    expect(answer.body.extensions).toEqual({ livemode: false });
  });

  it("a live subscriber hears nothing of test movements, a test subscriber nothing of live ones", async () => {
    const query = "subscription { transactionUpdated { transactionId status } }";
    const liveStream = await graphqlSubscription(api.url, live.acme, query);
    const testStream = await graphqlSubscription(api.url, acme.token, query);
    const heard = {
      live: firstEvent(liveStream, (data) => data, 4_000),
      test: firstEvent(testStream, (data) => data, 4_000),
    };
    // Movements in test mode only, for a while: the live stream must stay silent.
    for (let round = 0; round < 5; round += 1) {
      await api.call("POST", "/api/transaction/transfer", {
        token: bolt.token,
        body: { wallet_from: bolt.wallets["USD"], wallet_to: acme.wallets["USD"], amount: "1.00" },
      });
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(await heard.test).not.toBeNull();
    expect(await heard.live).toBeNull();
  });

  it("over WebSocket too (graphql-ws, tRPC wsLink): a test token hears test movements, a live one none of them", async () => {
    const wsUrl = api.url.replace(/^http/, "ws");
    const heard = { testGraphql: [] as number[], liveGraphql: [] as number[], testTrpc: [] as number[] };
    const graphqlClient = (token: string, into: number[]) => {
      const client = createClient({
        url: `${wsUrl}/graphql`,
        webSocketImpl: WebSocket,
        connectionParams: { authorization: `Bearer ${token}` },
        retryAttempts: 0,
      });
      client.subscribe<{ transactionUpdated: { transactionId: number } }>(
        { query: "subscription { transactionUpdated { transactionId } }" },
        {
          next: ({ data }) => data && into.push(data.transactionUpdated.transactionId),
          error: () => undefined,
          complete: () => undefined,
        },
      );
      return client;
    };
    const testGraphql = graphqlClient(acme.token, heard.testGraphql);
    const liveGraphql = graphqlClient(live.acme, heard.liveGraphql);
    const wsClient = createWSClient({
      url: `${wsUrl}/trpc`,
      WebSocket: WebSocket as unknown as typeof globalThis.WebSocket,
      connectionParams: { authorization: `Bearer ${acme.token}` },
    });
    const trpc = createTRPCClient<AppRouter>({ links: [wsLink({ client: wsClient })] });
    const subscription = trpc.transactionUpdated.subscribe(undefined, {
      onData: (update) => heard.testTrpc.push(update.transactionId),
    });
    try {
      const made: number[] = [];
      for (let attempt = 0; attempt < 20; attempt += 1) {
        const moved = await api.call("POST", "/api/transaction/transfer", {
          token: bolt.token,
          body: { wallet_from: bolt.wallets["USD"], wallet_to: acme.wallets["USD"], amount: "1.00" },
        });
        made.push(moved.body.data.id);
        await new Promise((resolve) => setTimeout(resolve, 200));
        if (
          made.some((id) => heard.testGraphql.includes(id)) &&
          made.some((id) => heard.testTrpc.includes(id))
        )
          break;
      }
      expect(made.some((id) => heard.testGraphql.includes(id))).toBe(true);
      expect(made.some((id) => heard.testTrpc.includes(id))).toBe(true);
      expect(heard.liveGraphql).toEqual([]);
      testTransfersOverSockets = made.length;
    } finally {
      subscription.unsubscribe();
      await wsClient.close();
      await testGraphql.dispose();
      await liveGraphql.dispose();
    }
  });

  it("after every attack, no money moved across modes: live balances as before, test ones only by test transfers", async () => {
    const after = await balances();
    expect(after.live).toEqual(before.live);
    const testUsd = (after.test as { number: string; amount: number }[])[0];
    // 520 before the attacks, plus the subscription tests' test transfers of 1.00 each.
    expect(testUsd?.amount).toBe(525 + testTransfersOverSockets);
  });

  it("purse audit holds for each mode", async () => {
    const { auditLedger } = await import("@purse/engine");
    const { runtime } = api.server;
    expect((await auditLedger(runtime.db)).ok).toBe(true);
    expect((await auditLedger(runtime.db.testMode ?? runtime.db)).ok).toBe(true);
  });
});
