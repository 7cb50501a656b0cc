import { checkoutSignature, verifyWebhookSignature } from "@purse/engine";
import { dropDatabase } from "@purse/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { purseCli } from "../support/purse-cli.ts";
import { queryDatabase } from "../support/query-database.ts";
import { type SpawnedServer, spawnPurseServe } from "../support/spawned-server.ts";
import {
  type CallResult,
  callerFor,
  createSeededDatabase,
  type SeededDatabase,
} from "../support/test-server.ts";
import { type MerchantSite, startMerchantSite } from "../support/webhook-receiver.ts";

/** The overlap the rotations below give the old value. */
const overlapMs = 3_000;

describe("rotating and revoking a client's credentials with the purse command", () => {
  let database: SeededDatabase;
  let serve: SpawnedServer;
  let site: MerchantSite;
  let call: ReturnType<typeof callerFor>;
  beforeAll(async () => {
    database = await createSeededDatabase();
    site = await startMerchantSite();
    // A token cache far longer than the test: a revoked token answers 401 only if the command's
    // broadcast reached the serving process, never because its cached verdict ran out.
    serve = await spawnPurseServe(database, {
      PURSE_WEBHOOK_ALLOW_PRIVATE: "on",
      PURSE_TOKEN_CACHE_MS: "60000",
    });
    call = callerFor(serve.url);
  }, 60_000);
  afterAll(async () => {
    await serve?.stop();
    await site?.close();
    if (database) await dropDatabase(database.name);
  });

  /**
   * Waits until acme's overlap in `until` has ended by the database's clock, the one the server
   * compares with (`previous_..._until > now()`), rather than sleeping past it: as before, at most
   * the overlap and a half second from here.
   */
  const overlapEnded = (until: "previous_secret_until" | "previous_form_token_until") =>
    expect
      .poll(
        async () => {
          const [row] = await queryDatabase<{ ended: boolean }>(
            database.url,
            `select ${until} <= now() as ended from clients where client_id = 'acme'`,
          );
          return row?.ended;
        },
        { timeout: overlapMs + 500, interval: 100 },
      )
      .toBe(true);
  const token = (secret: string): Promise<CallResult> =>
    call("POST", "/token", {
      body: { grant_type: "client_credentials", client_id: "acme", client_secret: secret, scope: "api" },
    });
  let order = 0;
  const checkout = (formToken: string): Promise<CallResult> => {
    order += 1;
    const fields = { wallet_to: "U100000010", wallet_from: "U100000020", amount: "3.00", id: `rot-${order}` };
    return call("POST", "/api/processing/checkout", {
      body: {
        ...fields,
        signature: checkoutSignature(fields, formToken),
        status_url: `${site.url}/rotated`,
        user_info: `rot-payer-${order}`,
      },
    });
  };

  it("rotate-secret: both secrets get tokens during the overlap, only the new one after it", async () => {
    const rotated = await purseCli(database, [
      "--json",
      "clients",
      "rotate-secret",
      "acme",
      "--overlap",
      `${overlapMs / 1_000}s`,
    ]);
    expect(rotated.code, rotated.stderr).toBe(0);
    const { client_secret: fresh } = JSON.parse(rotated.stdout) as { client_secret: string };
    expect(fresh).toMatch(/^[\w-]{32}$/);
    expect((await token("acme-secret")).status).toBe(200);
    expect((await token(fresh)).status).toBe(200);
    await overlapEnded("previous_secret_until");
    const old = await token("acme-secret");
    expect(old.status).toBe(401);
    expect(old.body).toMatchObject({ error: "invalid_client" });
    expect((await token(fresh)).status).toBe(200);
    // A human reading the output sees the secret once, with what happens next.
    const text = await purseCli(database, ["clients", "rotate-secret", "acme", "--overlap", "0"]);
    expect(text.stdout).toMatch(/shown once/);
    expect((await token(fresh)).status).toBe(401);
  }, 30_000);

  it("revoke-tokens: every live token of the client answers 401 at once, new ones can be issued", async () => {
    const rotated = await purseCli(database, [
      "--json",
      "clients",
      "rotate-secret",
      "acme",
      "--overlap",
      "0",
    ]);
    const { client_secret: secret } = JSON.parse(rotated.stdout) as { client_secret: string };
    const tokens = await Promise.all([token(secret), token(secret), token(secret)]);
    const bearer = tokens.map((response) => response.body.access_token as string);
    for (const value of bearer)
      expect((await call("GET", "/api/wallets", { token: value })).status).toBe(200);
    // As an operator runs it beside `purse serve`: with the same Redis, so the serving process's
    // token cache hears of the revocation at once instead of after PURSE_TOKEN_CACHE_MS.
    const revoked = await purseCli(database, ["--json", "clients", "revoke-tokens", "acme"], {
      REDIS_URL: process.env["PURSE_TEST_REDIS_URL"] ?? "redis://127.0.0.1:6379",
      PURSE_REDIS_PREFIX: database.name,
    });
    expect(revoked.code, revoked.stderr).toBe(0);
    // These three, and the ones the previous test issued that are still live.
    expect(JSON.parse(revoked.stdout)).toMatchObject({ client_id: "acme", revoked: 6 });
    for (const value of bearer) {
      const refused = await call("GET", "/api/wallets", { token: value });
      expect(refused.status).toBe(401);
      expect(refused.body).toMatchObject({ status: false, message: "Unauthorized", code: "UNAUTHORIZED" });
    }
    const fresh = await token(secret);
    expect((await call("GET", "/api/wallets", { token: fresh.body.access_token })).status).toBe(200);
  }, 30_000);

  it("rotate-form-token: checkouts signed with either token during the overlap, only the new one after; webhooks signed with the new one", async () => {
    const rotated = await purseCli(database, [
      "--json",
      "clients",
      "rotate-form-token",
      "acme",
      "--overlap",
      `${overlapMs / 1_000}s`,
    ]);
    expect(rotated.code, rotated.stderr).toBe(0);
    const { form_token: fresh } = JSON.parse(rotated.stdout) as { form_token: string };
    expect((await checkout("acme-form-token")).status).toBe(200);
    const created = await checkout(fresh);
    expect(created.status).toBe(200);
    await overlapEnded("previous_form_token_until");
    const old = await checkout("acme-form-token");
    expect(old.status).toBe(422);
    expect(old.body).toMatchObject({ status: false, errors: { signature: expect.any(Array) } });
    expect((await checkout(fresh)).status).toBe(200);

    const url: string = created.body.data.url;
    const paid = await call("POST", "/api/processing/pay", {
      body: {
        token: url.slice(url.lastIndexOf("/") + 1),
        login: "bolt",
        password: "bolt-pass",
        action: "pay",
      },
    });
    expect(paid.status).toBe(200);
    const [webhook] = await site.waitFor("/rotated");
    const body = JSON.parse(webhook?.body ?? "{}");
    expect(verifyWebhookSignature(body, fresh)).toBe(true);
    expect(verifyWebhookSignature(body, "acme-form-token")).toBe(false);
  }, 30_000);

  it("names an unknown client and a bad overlap in one line", async () => {
    const unknown = await purseCli(database, ["clients", "revoke-tokens", "nobody"]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr.trim()).toBe(
      'purse: <client_id> "nobody": no such client (purse clients list shows them)',
    );
    const bad = await purseCli(database, ["clients", "rotate-form-token", "acme", "--overlap", "soon"]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/--overlap takes a duration such as 24h/);
  }, 30_000);
});
