import { readFile } from "node:fs/promises";
import { verifyCheckoutSignature } from "@purse/engine";
import { describe, expect, it } from "vitest";
import { openApiText, readCommittedOpenApi } from "./write-openapi.ts";

interface Operation {
  operationId?: string;
  requestBody?: { content: Record<string, { example?: Record<string, unknown> }> };
}
type Document = {
  servers?: { url: string }[];
  paths: Record<string, Record<string, Operation>>;
};

interface DemoFixture {
  clients: { user_id: number; form_token: string }[];
  wallets: { user_id: number; number: string }[];
}

/** The form token the demo fixture (what `npm start` seeds) gives the owner of `wallet`. */
async function demoFormToken(wallet: string): Promise<string> {
  const fixture = JSON.parse(
    await readFile(new URL("../../../fixtures/demo.json", import.meta.url), "utf8"),
  ) as DemoFixture;
  const owner = fixture.wallets.find((candidate) => candidate.number === wallet)?.user_id;
  return fixture.clients.find((client) => client.user_id === owner)?.form_token ?? "";
}

describe("the committed packages/rest/openapi.json", () => {
  it("is what the routes generate (run `npm run openapi -w @purse/rest` after changing a route)", async () => {
    expect(await readCommittedOpenApi()).toBe(await openApiText());
  });

  it("names a server, and gives every operation that takes a body an example on each content type", async () => {
    const document = JSON.parse(await readCommittedOpenApi()) as Document;
    expect(document.servers).toEqual([expect.objectContaining({ url: "http://localhost:3000" })]);
    // Which operations take a body, the committed document says (the test above pins it to the
    // routes); each of them needs its example (its route contract's `example`), with no list kept here.
    const withBodies = Object.values(document.paths)
      .flatMap((item) => Object.values(item))
      .filter((operation) => operation.requestBody);
    expect(withBodies.length).toBeGreaterThan(0);
    for (const operation of withBodies) {
      for (const media of Object.values(operation.requestBody?.content ?? {})) {
        expect(media.example, operation.operationId).toEqual(expect.any(Object));
      }
    }
  });

  it("carries a checkout example whose signature verifies with the demo fixture's form token", async () => {
    const document = JSON.parse(await readCommittedOpenApi()) as Document;
    const content = document.paths["/api/processing/checkout"]?.["post"]?.requestBody?.content ?? {};
    const example = content["application/json"]?.example ?? {};
    const fields = {
      wallet_to: String(example["wallet_to"]),
      wallet_from: String(example["wallet_from"]),
      amount: String(example["amount"]),
      id: String(example["id"]),
    };
    const formToken = await demoFormToken(fields.wallet_to);
    expect(formToken).not.toBe("");
    expect(verifyCheckoutSignature(fields, formToken, String(example["signature"]))).toBe(true);
    expect(
      verifyCheckoutSignature({ ...fields, amount: "10.01" }, formToken, String(example["signature"])),
    ).toBe(false);
  });
});
