import { createCheckout, dropDatabase } from "@purse/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryDatabase } from "../support/query-database.ts";
import {
  createSeededDatabase,
  type SeededDatabase,
  startTestServer,
  type TestServer,
} from "../support/test-server.ts";
import { trpcClient } from "../support/trpc-client.ts";

interface Listed {
  paymentId: string;
  status: string;
  url: string | null;
}

/**
 * Issue 36: an open checkout shows its payment link again (GraphQL `checkouts { url }`, tRPC
 * `checkouts`), to its merchant only, and only while it is open.
 */
describe("a checkout's payment link in the merchant's list", () => {
  let api: TestServer;
  let database: SeededDatabase;
  beforeAll(async () => {
    database = await createSeededDatabase();
    api = await startTestServer({ database });
  }, 60_000);
  afterAll(async () => {
    await api.close();
    await dropDatabase(database.name);
  });

  const listed = async (login: string): Promise<Listed[]> => {
    const answer = await api.call("POST", "/graphql", {
      token: await api.token(login),
      body: { query: "{ checkouts(limit: 100) { paymentId status url } }" },
    });
    expect(answer.body.errors).toBeUndefined();
    return answer.body.data.checkouts as Listed[];
  };

  it("answers the link the checkout was created with while it is open, and null once it is closed", async () => {
    const open = await createCheckout(api, { url: "https://shop.example" }, "12.00");
    const closed = await createCheckout(api, { url: "https://shop.example" }, "13.00");
    await api.call("POST", "/api/processing/pay", {
      body: { token: closed.token, login: "bolt", password: "bolt-pass", action: "cancel" },
    });
    const mine = await listed("acme");
    expect(mine.find((item) => item.paymentId === open.paymentId)).toEqual({
      paymentId: open.paymentId,
      status: "PENDING",
      url: open.url,
    });
    expect(mine.find((item) => item.paymentId === closed.paymentId)).toMatchObject({
      status: "CANCEL",
      url: null,
    });
    const trpc = trpcClient(api.url, await api.token("acme"));
    const viaTrpc = await trpc.checkouts.query({ limit: 100 });
    expect(viaTrpc.find((item) => item.paymentId === open.paymentId)?.url).toBe(open.url);
    // The link works: it is the payer's page.
    expect((await fetch(open.url)).status).toBe(200);
    // Another merchant's list never holds it.
    expect((await listed("cafe")).map((item) => item.url)).not.toContain(open.url);
  });

  it("keeps the link sealed at rest: the database holds neither the token nor the link", async () => {
    const open = await createCheckout(api, { url: "https://shop.example" }, "14.00");
    const token = open.url.slice(open.url.lastIndexOf("/") + 1);
    const [row] = await queryDatabase<{ sealed: string; whole: string }>(
      database.url,
      "select link_sealed as sealed, row_to_json(k)::text as whole from checkouts k where payment_id = $1",
      [open.paymentId],
    );
    expect(row?.sealed).toMatch(/^v2:/);
    expect(row?.whole).not.toContain(token);
    // Once closed, the sealed copy is gone: only open checkouts keep one.
    await api.call("POST", "/api/processing/pay", {
      body: { token, login: "bolt", password: "bolt-pass", action: "cancel" },
    });
    const [closed] = await queryDatabase<{ sealed: string | null }>(
      database.url,
      "select link_sealed as sealed from checkouts where payment_id = $1",
      [open.paymentId],
    );
    expect(closed?.sealed).toBeNull();
  });
});
