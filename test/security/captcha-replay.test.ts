import { dropDatabase } from "@purse/testing";
import { solveChallenge } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/sha";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCheckout } from "../support/checkout-helpers.ts";
import {
  createSeededDatabase,
  type SeededDatabase,
  startTestServer,
  type TestServer,
} from "../support/test-server.ts";

/**
 * Issue 9 item 8: a solved captcha is accepted once, whatever the order of its payload's keys and
 * whichever process sees it again (two `purse serve` stacks on one database and one Redis).
 */
const site = { url: "https://shop.example" };
const pay = "/api/processing/pay";

let database: SeededDatabase;
let first: TestServer;
let second: TestServer;
beforeAll(async () => {
  database = await createSeededDatabase();
  first = await startTestServer({ database, env: { PURSE_CAPTCHA: "on" } });
  second = await startTestServer({ database, env: { PURSE_CAPTCHA: "on" } });
});
afterAll(async () => {
  await first?.close();
  await second?.close();
  await dropDatabase(database.name);
});

async function solved(
  server: TestServer,
): Promise<{ challenge: Record<string, unknown>; solution: unknown }> {
  const challenge = (await server.call("GET", "/api/processing/captcha")).body;
  const solution = await solveChallenge({ challenge, deriveKey });
  return { challenge, solution };
}

const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64");

/** The same solution with every object's keys in reverse order: new text, same meaning. */
function reordered(value: unknown): unknown {
  if (Array.isArray(value) || value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value)
      .reverse()
      .map(([key, inner]) => [key, reordered(inner)]),
  );
}

async function payWith(server: TestServer, captcha: string) {
  const checkout = await createCheckout(server, site, "1.00");
  return server.call("POST", pay, {
    body: { token: checkout.token, login: "bolt", password: "bolt-pass", action: "pay", captcha },
  });
}

describe("captcha replay", () => {
  it("refuses a used solution sent again with its keys reordered", async () => {
    const solution = await solved(first);
    expect((await payWith(first, encode(solution))).status).toBe(200);
    const replay = encode(reordered(solution));
    expect(replay).not.toBe(encode(solution));
    const replayed = await payWith(first, replay);
    expect(replayed).toMatchObject({
      status: 422,
      body: { status: false, message: "Captcha string", code: "CAPTCHA_INVALID" },
    });
  });

  it("refuses on a second process a solution already used on the first", async () => {
    const solution = encode(await solved(first));
    expect((await payWith(first, solution)).status).toBe(200);
    const replayed = await payWith(second, solution);
    expect(replayed).toMatchObject({
      status: 422,
      body: { status: false, message: "Captcha string", code: "CAPTCHA_INVALID" },
    });
    // The second process does accept fresh solutions of the first's challenges: only the replay is refused.
    expect((await payWith(second, encode(await solved(first)))).status).toBe(200);
  });
});
