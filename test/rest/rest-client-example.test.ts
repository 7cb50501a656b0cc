import { readFile } from "node:fs/promises";
import openapiTS, { astToString } from "openapi-typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runDemo } from "../../examples/rest-client/src/purse-client.ts";
import { startTestServer, type TestServer } from "../support/test-server.ts";

const example = new URL("../../examples/rest-client/", import.meta.url);

describe("examples/rest-client (openapi-typescript + openapi-fetch)", () => {
  let api: TestServer;
  beforeAll(async () => {
    api = await startTestServer();
  }, 60_000);
  afterAll(() => api.close());

  it("gets a token, lists the wallets and transfers against a started server", async () => {
    const result = await runDemo(
      api.url,
      { clientId: "acme", clientSecret: "acme-secret" },
      { walletFrom: "U100000010", walletTo: "U100000020", amount: "10.00" },
    );
    expect(result.token).toMatch(/^\S{20,}$/);
    expect(result.transferId).toEqual(expect.any(Number));
    expect(result.wallets).toEqual(
      expect.arrayContaining([{ number: "U100000010", amount: 500, currency: "USD" }]),
    );
    const shown = await api.call("GET", `/api/transaction/show?id=${result.transferId}`, {
      token: result.token,
    });
    expect(shown.body.data).toEqual(expect.objectContaining({ type: "TRANSFER", amount: "10.00" }));
  });

  it("is typed from the committed openapi.json as it is now (run its `generate` script after a change)", async () => {
    const generated = await readFile(new URL("src/purse-api.generated.ts", example), "utf8");
    const fresh = astToString(await openapiTS(new URL("../../packages/rest/openapi.json", import.meta.url)));
    const body = (text: string) => text.slice(text.indexOf("export interface paths"));
    expect(body(generated).trim()).toBe(body(fresh).trim());
  });
});
