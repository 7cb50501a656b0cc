import { solveChallenge } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/sha";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCheckout } from "../support/checkout-helpers.ts";
import { startTestServer, type TestServer } from "../support/test-server.ts";

const site = { url: "https://shop.example" };
const pay = "/api/processing/pay";

// Paying itself is tested beside the route (packages/rest/src/routes/pay-checkout.test.ts); here
// what `purse serve` switches on from its settings: the captcha, spent-captcha memory in Redis and
// the per-minute limit.
describe("pay with the captcha on and a per-minute limit", () => {
  let api: TestServer;
  beforeAll(async () => {
    api = await startTestServer({ env: { PURSE_CAPTCHA: "on", PURSE_RATE_LIMIT_PER_MINUTE: "4" } });
  });
  afterAll(() => api.close());

  async function solvedCaptcha(): Promise<string> {
    const challenge = (await api.call("GET", "/api/processing/captcha")).body;
    const solution = await solveChallenge({ challenge, deriveKey });
    return Buffer.from(JSON.stringify({ challenge, solution })).toString("base64");
  }

  it("refuses a missing or wrong captcha, accepts a solved one once, then hits the limit", async () => {
    const checkout = await createCheckout(api, site, "2.00");
    const base = { token: checkout.token, login: "bolt", password: "bolt-pass", action: "pay" };
    const missing = await api.call("POST", pay, { body: base });
    expect(missing.status).toBe(422);
    expect(missing.body.message).toBe("Captcha string");
    expect(
      (await api.call("POST", pay, { body: { ...base, captcha: "bm90LWEtcGF5bG9hZA==" } })).body.message,
    ).toBe("Captcha string");
    const captcha = await solvedCaptcha();
    const paid = await api.call("POST", pay, { body: { ...base, captcha } });
    expect(paid.status).toBe(200);
    const replay = await createCheckout(api, site, "2.00");
    const reused = await api.call("POST", pay, { body: { ...base, token: replay.token, captcha } });
    expect(reused.body.message).toBe("Captcha string");
    const limited = await api.call("POST", pay, {
      body: { ...base, token: replay.token, captcha: await solvedCaptcha() },
    });
    expect(limited.status).toBe(422);
    expect(limited.body.message).toBe("Method locked please try again later");
  });
});
