import { dropDatabase } from "@purse/testing";
import { appRouter } from "@purse/trpc";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { firstEvent, graphqlSubscription } from "../support/event-stream.ts";
import { type SpawnedServer, spawnPurseServe } from "../support/spawned-server.ts";
import {
  callerFor,
  createSeededDatabase,
  type SeededDatabase,
  startTestServer,
  type TestServer,
} from "../support/test-server.ts";

/** A `transactionUpdated` event of a GraphQL-over-SSE stream that `accept` approves. */
function updateIf(accept: (payload: { transactionId: number; status: string }) => boolean) {
  return (data: unknown) => {
    const update = (data as { data?: { transactionUpdated?: { transactionId: number; status: string } } })
      .data?.transactionUpdated;
    return update && accept(update) ? update : undefined;
  };
}

describe("transactionUpdated across two purse serve processes (one in its own OS process)", () => {
  let database: SeededDatabase;
  let first: SpawnedServer & { token(client: string): Promise<string> };
  let second: TestServer;
  beforeAll(async () => {
    database = await createSeededDatabase();
    const spawned = await spawnPurseServe(database);
    const call = callerFor(spawned.url);
    first = Object.assign(spawned, {
      token: async (client: string) =>
        (
          await call("POST", "/token", {
            body: { grant_type: "client_credentials", client_id: client, client_secret: `${client}-secret` },
          })
        ).body.access_token as string,
    });
    second = await startTestServer({ database });
  }, 60_000);
  afterAll(async () => {
    await first.stop();
    await second.close();
    await dropDatabase(database.name);
  });

  it("delivers a transfer made through one process to a subscriber on the other", async () => {
    const subscriberToken = await first.token("bolt");
    const response = await graphqlSubscription(
      first.url,
      subscriberToken,
      "subscription { transactionUpdated { transactionId type status at } }",
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/event-stream");

    const acme = await second.token("acme");
    const made: number[] = [];
    let seen = false;
    // Transfers keep coming until the subscriber has seen one: the subscription starts asynchronously.
    const producer = (async () => {
      for (let attempt = 0; attempt < 20; attempt += 1) {
        const transfer = await second.call("POST", "/api/transaction/transfer", {
          token: acme,
          body: { wallet_from: "U100000010", wallet_to: "U100000020", amount: `${attempt + 1}.00` },
        });
        made.push(transfer.body.data.id);
        await new Promise((resolve) => setTimeout(resolve, 250));
        if (seen) return;
      }
    })();
    const event = await firstEvent(
      response,
      updateIf((payload) => made.includes(payload.transactionId)),
      10_000,
    );
    seen = true;
    await producer;
    expect(event).toMatchObject({ type: "TRANSFER", status: "SUCCESS" });
  });

  it("does not tell a user about transactions that are not theirs", async () => {
    const cafe = await first.token("cafe");
    const response = await graphqlSubscription(
      first.url,
      cafe,
      "subscription { transactionUpdated { transactionId } }",
    );
    const acme = await second.token("acme");
    await second.call("POST", "/api/transaction/transfer", {
      token: acme,
      body: { wallet_from: "U100000010", wallet_to: "U100000020", amount: "1.00" },
    });
    expect(
      await firstEvent(
        response,
        updateIf(() => true),
        1_500,
      ),
    ).toBeNull();
  });
});

describe("the tRPC subscription", () => {
  let api: TestServer;
  beforeAll(async () => {
    api = await startTestServer();
  });
  afterAll(() => api.close());

  it("yields the caller's committed transactions", async () => {
    const deps = api.server.runtime.deps;
    const caller = appRouter.createCaller({ deps, authorization: `Bearer ${await api.token("bolt")}` });
    const stream = await caller.transactionUpdated();
    const iterator = stream[Symbol.asyncIterator]();
    const next = iterator.next();
    await new Promise((resolve) => setTimeout(resolve, 100));
    const transfer = await api.call("POST", "/api/transaction/transfer", {
      token: await api.token("acme"),
      body: { wallet_from: "U100000010", wallet_to: "U100000020", amount: "3.00" },
    });
    const { value } = await next;
    expect(value).toMatchObject({
      transactionId: transfer.body.data.id,
      type: "TRANSFER",
      status: "SUCCESS",
    });
    await iterator.return?.();
  });

  it("hands a revoked token nothing more: the stream ends at the next event", async () => {
    const deps = api.server.runtime.deps;
    const token = await api.token("bolt");
    const stream = await appRouter
      .createCaller({ deps, authorization: `Bearer ${token}` })
      .transactionUpdated();
    const iterator = stream[Symbol.asyncIterator]();
    const next = iterator.next();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await api.call("POST", "/token/revoke", { body: { token } })).status).toBe(200);
    await api.call("POST", "/api/transaction/transfer", {
      token: await api.token("acme"),
      body: { wallet_from: "U100000010", wallet_to: "U100000020", amount: "2.00" },
    });
    expect(await next).toEqual({ done: true, value: undefined });
  });
});
