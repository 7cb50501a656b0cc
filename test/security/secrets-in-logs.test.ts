import { checkoutSignature } from "@purse/engine";
import { dropDatabase } from "@purse/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { spawnPurseServe } from "../support/spawned-server.ts";
import { callerFor, createSeededDatabase, type SeededDatabase } from "../support/test-server.ts";
import { startMerchantSite } from "../support/webhook-receiver.ts";

function socketClosed(socket: WebSocket): Promise<void> {
  return new Promise((resolve) => {
    socket.on("close", () => resolve());
    socket.on("error", () => resolve());
  });
}

describe.each(["debug", "trace"])("what purse serve logs at LOG_LEVEL=%s", (logLevel) => {
  let database: SeededDatabase;
  let log = "";
  const secrets = new Map<string, string>([
    ["acme client_secret", "acme-secret"],
    ["bolt client_secret", "bolt-secret"],
    ["acme form token", "acme-form-token"],
    ["bolt payer password", "bolt-pass"],
    ["voucher code", "1111-2222-3333"],
    ["acme webhook secret", "MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"],
    ["a wrong password tried", "wrong-password-tried"],
  ]);

  beforeAll(async () => {
    database = await createSeededDatabase();
    const site = await startMerchantSite();
    // Every byte it writes is kept (spawnPurseServe pipes stdout and stderr).
    const server = await spawnPurseServe(database, {
      LOG_LEVEL: logLevel,
      PURSE_WEBHOOK_ALLOW_PRIVATE: "on",
      PURSE_REDIS_PREFIX: `${database.name}-${logLevel}`,
    });
    const call = callerFor(server.url);
    try {
      const tokenFor = async (client: string) => {
        const response = await call("POST", "/token", {
          body: { grant_type: "client_credentials", client_id: client, client_secret: `${client}-secret` },
        });
        return response.body.access_token as string;
      };
      const acme = await tokenFor("acme");
      const bolt = await tokenFor("bolt");
      secrets.set("acme access token", acme);
      secrets.set("bolt access token", bolt);
      // The same credentials as a form, and a malformed JSON body that carries one.
      await call("POST", "/token", {
        body: "grant_type=client_credentials&client_id=acme&client_secret=acme-secret",
        headers: { "content-type": "application/x-www-form-urlencoded" },
      });
      await call("POST", "/token", {
        body: '{"client_id":"acme","client_secret":"acme-secret"',
        headers: {},
      });

      await call("POST", "/api/transaction/transfer", {
        token: bolt,
        body: { wallet_from: "U100000020", wallet_to: "U100000030", amount: "1.00" },
      });
      const fields = {
        wallet_to: "U100000010",
        wallet_from: "U100000020",
        amount: "5.00",
        id: `log-${logLevel}`,
      };
      const signature = checkoutSignature(fields, "acme-form-token");
      secrets.set("checkout signature", signature);
      const checkout = await call("POST", "/api/processing/checkout", {
        token: acme,
        body: {
          ...fields,
          signature,
          success_url: `${site.url}/success?session=shop-session-secret`,
          cancel_url: `${site.url}/cancel`,
          status_url: `${site.url}/webhook?key=status-url-query-secret`,
          user_info: `payer-${logLevel}`,
        },
      });
      const link: string = checkout.body.data.url;
      const pageToken = link.slice(link.lastIndexOf("/") + 1);
      secrets.set("checkout page token", pageToken.replace(/^chk_/, ""));
      secrets.set("status_url query", "status-url-query-secret");
      secrets.set("success_url query", "shop-session-secret");
      await fetch(link);
      await call("POST", "/api/processing/pay", {
        body: { token: pageToken, login: "bolt", password: "wrong-password-tried", action: "pay" },
      });
      const paid = await call("POST", "/api/processing/pay", {
        body: { token: pageToken, login: "bolt", password: "bolt-pass", action: "pay" },
      });
      expect(paid.status).toBe(200);

      const info = await call(
        "GET",
        "/api/vouchers/activation/info?voucher_number=V-0001&voucher_code=1111-2222-3333",
        { token: acme },
      );
      expect(info.status).toBe(200);
      const confirmed = await call("POST", "/api/vouchers/activation/confirm", {
        token: acme,
        body: { voucher_number: "V-0001", voucher_code: "1111-2222-3333", wallet_to: "U100000010" },
      });
      expect(confirmed.status).toBe(200);

      const [webhook] = await site.waitFor("/webhook?key=status-url-query-secret");
      const body = JSON.parse(webhook?.body ?? "{}") as { signature?: string };
      secrets.set("webhook body signature", String(body.signature));
      const standard = String(webhook?.headers["webhook-signature"]).replace(/^v1,/, "");
      secrets.set("webhook-signature header", standard);
      // A token in a URL: tRPC's connectionParams (refused) and a WebSocket to a path that takes
      // none (closed); and one in a WebSocket's first message, where it belongs.
      const params = encodeURIComponent(JSON.stringify({ authorization: `Bearer ${bolt}` }));
      const inUrl = await fetch(`${server.url}/trpc/transactionUpdated?connectionParams=${params}`);
      expect((await inUrl.json()).error.message).toContain("connectionParams in a URL are refused");
      const wsUrl = server.url.replace(/^http/, "ws");
      await socketClosed(new WebSocket(`${wsUrl}/api/wallets?access_token=${bolt}`));
      const live = new WebSocket(`${wsUrl}/graphql`, "graphql-transport-ws");
      live.on("open", () =>
        live.send(JSON.stringify({ type: "connection_init", payload: { authorization: `Bearer ${bolt}` } })),
      );
      live.on("message", () => live.close());
      await socketClosed(live);
      // The dashboard's path (issue 23): sign in over GraphQL with a password, read with the
      // session cookie, export the history as CSV with the cookie and with a bearer token, sign out.
      const graphql = (query: string, headers: Record<string, string>, variables = {}) =>
        fetch(`${server.url}/graphql`, {
          method: "POST",
          headers: { "content-type": "application/json", "x-purse-csrf": "1", ...headers },
          body: JSON.stringify({ query, variables }),
        });
      const signedIn = await graphql(
        `mutation ($login: String!, $password: String!) {
          signIn(login: $login, password: $password) { __typename }
        }`,
        {},
        { login: "acme", password: "acme-pass" },
      );
      const cookie = signedIn.headers.getSetCookie()[0]?.split(";")[0] ?? "";
      expect(cookie).toMatch(/^purse_session=./);
      secrets.set("acme dashboard password", "acme-pass");
      secrets.set("session cookie value", cookie.slice(cookie.indexOf("=") + 1));
      const me = await (await graphql("{ me { id } }", { cookie })).json();
      expect(me).toEqual({ data: { me: { id: 1 } } });
      const byCookie = await fetch(`${server.url}/api/transactions/export?from=2000-01-01`, {
        headers: { cookie, "sec-fetch-site": "same-origin" },
      });
      expect(byCookie.status).toBe(200);
      expect(await byCookie.text()).toContain("U100000010");
      const byBearer = await fetch(`${server.url}/api/transactions/export?from=2000-01-01`, {
        headers: { authorization: `Bearer ${acme}` },
      });
      expect(byBearer.status).toBe(200);
      await byBearer.text();
      await graphql("mutation { signOut }", { cookie });
      const refused = await (await graphql("{ me { id } }", { cookie })).json();
      expect(refused).not.toEqual(me);
      // A webhook endpoint's secrets (issue 37): created, rotated, and a signed test event sent.
      const bearer = { authorization: `Bearer ${acme}` };
      const created = await (
        await graphql(
          `mutation ($url: String!) { createWebhookEndpoint(url: $url, events: ["*"]) {
            ... on MutationCreateWebhookEndpointSuccess { data { id secret } } } }`,
          bearer,
          { url: `${site.url}/endpoint` },
        )
      ).json();
      const endpoint = created.data.createWebhookEndpoint.data as { id: string; secret: string };
      expect(endpoint.secret).toMatch(/^whsec_/);
      secrets.set("endpoint secret", endpoint.secret.replace(/^whsec_/, ""));
      const rotated = await (
        await graphql(
          `mutation ($id: String!) { rotateWebhookEndpointSecret(id: $id, overlapHours: 1) {
            ... on MutationRotateWebhookEndpointSecretSuccess { data { secret } } } }`,
          bearer,
          { id: endpoint.id },
        )
      ).json();
      const newSecret = String(rotated.data.rotateWebhookEndpointSecret.data.secret);
      secrets.set("rotated endpoint secret", newSecret.replace(/^whsec_/, ""));
      await graphql(
        `mutation ($id: String!) { sendTestWebhookEvent(endpoint: $id, type: "transfer.sent") { __typename } }`,
        bearer,
        { id: endpoint.id },
      );
      const [event] = await site.waitFor("/endpoint");
      secrets.set(
        "endpoint event signature",
        String(event?.headers["webhook-signature"]).split(" ")[0]?.replace(/^v1,/, "") ?? "",
      );
      await call("POST", "/token/revoke", { token: acme, body: { token: acme } });
    } finally {
      await server.stop();
      log = server.output();
      await site.close();
    }
  }, 120_000);

  afterAll(() => dropDatabase(database.name));

  it("logged the requests, by route pattern", () => {
    expect(log).toContain('"url":"/pay/:token"');
    expect(log).toContain('"url":"/api/transactions/export"');
    expect(log).toContain('"url":"/graphql"');
    expect(log).toContain('"url":"/api/vouchers/activation/info"');
    expect(log).toContain('"msg":"request completed"');
    // One line per request, when it is answered: no separate line as it arrives.
    expect(log).not.toContain("incoming request");
  });

  it("contains none of the secrets that passed through", () => {
    const leaked = [...secrets].filter(([, value]) => value.length > 0 && log.includes(value));
    expect(leaked.map(([name]) => name)).toEqual([]);
  });
});
