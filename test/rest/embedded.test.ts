import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmbeddedServer, type TestServer, testSecretKey } from "../support/test-server.ts";

const run = promisify(execFile);

describe("the embedded default (npm start with no DATABASE_URL)", () => {
  let api: TestServer;
  const banner: string[] = [];
  beforeAll(async () => {
    api = await startEmbeddedServer({ log: (line) => banner.push(line) });
  }, 120_000);
  afterAll(() => api.close());

  it("serves the demo data: token, wallets, transfer", async () => {
    const token = await api.token("acme");
    const wallets = await api.call("GET", "/api/wallets", { token });
    expect(wallets.body.data.map((w: { number: string }) => w.number)).toContain("U100000010");
    const transfer = await api.call("POST", "/api/transaction/transfer", {
      token,
      body: { wallet_from: "U100000010", wallet_to: "U100000020", amount: "10.00" },
    });
    expect(transfer.status).toBe(200);
    const after = await api.call("GET", "/api/wallets", { token });
    expect(after.body.data.find((w: { number: string }) => w.number === "U100000010").amount).toBe(489.8);

    // The wallet's statement (its owner read first, then its days and postings by that owner, as
    // on Citus) on the embedded PGlite: the demo's deposit, then the transfer and its fee.
    const today = new Date().toISOString().slice(0, 10);
    const { body } = await api.call("POST", "/graphql", {
      token,
      body: {
        query: `{ statement(wallet: "U100000010", from: "${today}") { ... on QueryStatementSuccess { data {
          openingBalance closingBalance lines { typeName amount fee } } } } }`,
      },
    });
    expect(body.data.statement.data).toMatchObject({ closingBalance: "489.80" });
    expect(body.data.statement.data.lines.at(-1)).toEqual({
      typeName: "TRANSFER",
      amount: "-10.20",
      fee: "0.20",
    });
  });

  it("prints what a first integration needs: base URL, credentials, form token, webhook secret", () => {
    const text = banner.join("\n");
    expect(text).toContain(`base URL:                 ${api.url}`);
    expect(text).toContain("client_id / client_secret: acme / acme-secret");
    expect(text).toContain("form token (acme, signs checkouts paying into U100000010): acme-form-token");
    expect(text).toContain("webhook secret (acme): whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw");
    expect(text).toContain(`API reference: ${api.url}/docs`);
    expect(text).toContain(`dashboard sign-in (${api.url}/dashboard), login / password: acme / acme-pass`);
  });

  it("prints curl lines for token, transfer and a signed checkout that work as printed", async () => {
    const commands = banner
      .join("\n")
      .split("\n")
      .filter((line) => /^ {2}(TOKEN=\$\(curl|curl) /.test(line))
      .map((line) => line.trim());
    expect(commands).toHaveLength(3);
    const [token, transfer, checkout] = commands;
    const script = [token, 'printf "%s\\n---\\n" "$TOKEN"', transfer, 'printf "\\n---\\n"', checkout].join(
      "\n",
    );
    const { stdout } = await run("bash", ["-c", `set -euo pipefail\n${script}`]);
    const [printedToken, transferred, created] = stdout.split("\n---\n").map((part) => part.trim());
    expect(printedToken).toMatch(/^\S{20,}$/);
    expect(JSON.parse(transferred ?? "")).toEqual({
      status: true,
      data: { id: expect.any(Number), message: expect.any(String) },
    });
    expect(JSON.parse(created ?? "")).toEqual({
      status: true,
      data: { url: expect.stringContaining("/pay/"), expired_at: expect.any(String) },
    });
    // The transfer moved money: 10.00 plus 1% + 0.10 commission more left U100000010.
    const wallets = await api.call("GET", "/api/wallets", { token: printedToken });
    expect(wallets.body.data.find((w: { number: string }) => w.number === "U100000010").amount).toBe(479.6);
  });
});

describe("the embedded database under NODE_ENV=production", () => {
  it("seeds no demo data and prints no credential", async () => {
    const banner: string[] = [];
    const api = await startEmbeddedServer({
      log: (line) => banner.push(line),
      env: { NODE_ENV: "production", PURSE_SECRET_KEY: testSecretKey },
    });
    try {
      const text = banner.join("\n");
      expect(text).toContain("Purse is serving on");
      expect(text).not.toMatch(/secret|form token|curl/i);
      const token = await api.call("POST", "/token", {
        body: { grant_type: "client_credentials", client_id: "acme", client_secret: "acme-secret" },
      });
      expect(token.status).toBe(401);
    } finally {
      await api.close();
    }
  }, 120_000);
});
