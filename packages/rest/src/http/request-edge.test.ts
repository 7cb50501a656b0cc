import { checkoutSignature } from "@purse/engine";
import {
  type CallResult,
  errorOf,
  errorWorld,
  type RestHarness,
  startRestHarness,
} from "@purse/testing/rest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const transferPath = "/api/transaction/transfer";
const checkoutPath = "/api/processing/checkout";
const confirmPath = "/api/vouchers/activation/confirm";
const notValid = "This value is not valid.";
const tooLong = (limit: number) => `This value is too long. It should have ${limit} characters or less.`;

type Encoding = "json" | "form" | "multipart";

/** Sends `fields` as JSON, a form or a multipart body (every value as text, as forms carry them). */
async function send(
  api: RestHarness,
  path: string,
  encoding: Encoding,
  fields: Record<string, string>,
  token?: string,
): Promise<CallResult> {
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  let body: string | URLSearchParams | FormData;
  if (encoding === "json") {
    body = JSON.stringify(fields);
    headers["content-type"] = "application/json";
  } else if (encoding === "form") {
    body = new URLSearchParams(fields);
  } else {
    body = new FormData();
    for (const [name, value] of Object.entries(fields)) body.append(name, value);
  }
  return api.call("POST", path, { headers, body });
}

let sequence = 0;
function checkoutFields(id: string): Record<string, string> {
  sequence += 1;
  const signed = { wallet_to: "U100000010", wallet_from: "U100000020", amount: "12.5", id };
  return {
    ...signed,
    signature: checkoutSignature(signed, "acme-form-token"),
    user_info: `payer-${id}-${sequence}`,
  };
}

describe("the request edge", () => {
  let api: RestHarness;
  let acme: string;
  beforeAll(async () => {
    api = await startRestHarness({ fixture: errorWorld() });
    acme = await api.token("acme");
  });
  afterAll(() => api.close());

  describe("form and multipart bodies on every POST, validated like JSON", () => {
    it.each(["form", "multipart"] as const)(
      "transfers from a %s body (amount and payment_id as text)",
      async (encoding) => {
        const paymentId = `${encoding === "form" ? 123 : 456}`;
        const fields = {
          wallet_from: "U100000010",
          wallet_to: "U100000020",
          amount: "12.5",
          payment_id: paymentId,
        };
        const first = await send(api, transferPath, encoding, fields, acme);
        expect(first.status, JSON.stringify(first.body)).toBe(200);
        expect(first.body).toEqual({
          status: true,
          data: { id: expect.any(Number), message: expect.any(String) },
        });
        const again = await send(api, transferPath, "json", fields, acme);
        expect(again.body.data.id).toBe(first.body.data.id);
      },
    );

    it.each(["form", "multipart"] as const)(
      "answers a %s transfer's errors exactly as JSON does",
      async (encoding) => {
        const rows: Record<string, string>[] = [
          { wallet_to: "U100000020", amount: "1" },
          { wallet_from: "U100000010", wallet_to: "U100000020", amount: "ten" },
          { wallet_from: "U100000010", wallet_to: "U100000020", amount: "1.001" },
          { wallet_from: "U100000010", wallet_to: "U999", amount: "1" },
        ];
        for (const fields of rows) {
          const json = await send(api, transferPath, "json", fields, acme);
          const other = await send(api, transferPath, encoding, fields, acme);
          expect(json.status, JSON.stringify(fields)).toBe(422);
          expect(other.status, JSON.stringify(fields)).toBe(json.status);
          expect(other.body, JSON.stringify(fields)).toEqual(json.body);
        }
      },
    );

    it("reads bracket notation as nested fields (a nested wallet_from is not valid)", async () => {
      const response = await send(
        api,
        transferPath,
        "form",
        { "wallet_from[a]": "x", wallet_to: "U100000020", amount: "1" },
        acme,
      );
      expect(response.status).toBe(422);
      expect(response.body).toEqual(errorOf("INVALID_VALUE", notValid, "wallet_from"));
    });

    it.each(["form", "multipart"] as const)(
      "creates a checkout from a %s body, and refuses a bad one",
      async (encoding) => {
        const created = await send(api, checkoutPath, encoding, checkoutFields(`form-${encoding}`));
        expect(created.status, JSON.stringify(created.body)).toBe(200);
        expect(created.body.data.url).toEqual(expect.any(String));
        const unsigned = { ...checkoutFields(`bad-${encoding}`), signature: "00" };
        const refused = await send(api, checkoutPath, encoding, unsigned);
        expect(refused.status).toBe(422);
        expect(refused.body.message).toBe("Signature not identical");
      },
    );

    it.each([
      ["form", "V-0007"],
      ["multipart", "V-0008"],
    ] as const)("confirms a voucher from a %s body, and refuses a bad one", async (encoding, voucher) => {
      const wrong = { voucher_number: voucher, voucher_code: "9999", wallet_to: "U100000010" };
      const refused = await send(api, confirmPath, encoding, wrong, acme);
      expect(refused.status).toBe(422);
      expect(refused.body).toEqual(errorOf("VOUCHER_INVALID", "Voucher invalid"));
      const right = { ...wrong, voucher_code: "0000-0000-0000", additional: "" };
      const confirmed = await send(api, confirmPath, encoding, right, acme);
      expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
      expect(confirmed.body).toEqual({ message: expect.any(String) });
    });

    it.each(["form", "multipart"] as const)(
      "takes %s bodies on the hosted page's pay, token and revoke",
      async (encoding) => {
        const checkout = await send(api, checkoutPath, "json", checkoutFields(`pay-${encoding}`));
        const token = String(checkout.body.data.url).split("/").pop() ?? "";
        const wrong = await send(api, "/api/processing/pay", encoding, {
          token,
          login: "bolt",
          password: "wrong",
          action: "pay",
        });
        expect(wrong.status).toBe(422);
        expect(wrong.body).toEqual(errorOf("HASH_NOT_VALID", "Hash is not valid"));
        const paid = await send(api, "/api/processing/pay", encoding, {
          token,
          login: "bolt",
          password: "bolt-pass",
          action: "pay",
        });
        expect(paid.status, JSON.stringify(paid.body)).toBe(200);
        expect(paid.body.data.status).toBe("SUCCESS");
        const issued = await send(api, "/token", encoding, {
          grant_type: "client_credentials",
          client_id: "acme",
          client_secret: "acme-secret",
        });
        expect(issued.status).toBe(200);
        const badClient = await send(api, "/token", encoding, {
          grant_type: "client_credentials",
          client_id: "acme",
          client_secret: "nope",
        });
        expect(badClient.status).toBe(401);
        expect(badClient.body).toEqual({ error: "invalid_client" });
        const revoked = await send(api, "/token/revoke", encoding, { token: issued.body.access_token });
        expect(revoked.status).toBe(200);
      },
    );

    it("refuses files in a multipart body, and other media types, with the contract's shape", async () => {
      const form = new FormData();
      form.append("wallet_from", "U100000010");
      form.append("attachment", new Blob(["data"]), "a.txt");
      const file = await api.call("POST", transferPath, {
        headers: { authorization: `Bearer ${acme}` },
        body: form,
      });
      expect(file.status).toBe(415);
      expect(file.body).toEqual({
        status: false,
        message: "Files are not accepted; send form fields only.",
        code: "UNSUPPORTED_MEDIA_TYPE",
      });
      for (const type of ["text/plain", "application/xml"]) {
        const response = await api.call("POST", transferPath, {
          headers: { authorization: `Bearer ${acme}`, "content-type": type },
          body: "x",
        });
        expect(response.status, type).toBe(415);
        expect(response.body).toEqual({
          status: false,
          message:
            "Send the body as application/json, application/x-www-form-urlencoded or multipart/form-data.",
          code: "UNSUPPORTED_MEDIA_TYPE",
        });
      }
      const broken = await api.call("POST", transferPath, {
        headers: { authorization: `Bearer ${acme}`, "content-type": "multipart/form-data" },
        body: "x",
      });
      expect(broken.status).toBe(400);
      expect(broken.body).toEqual({ status: false, message: expect.any(String), code: "BAD_REQUEST" });
    });
  });

  describe("JSON prototype poisoning", () => {
    it.each([
      ['{"wallet_from":"U100000010","__proto__":{"isAdmin":true}}'],
      ['{"wallet_from":"U100000010","constructor":{"prototype":{"isAdmin":true}}}'],
      ['{"a":{"b":{"__proto__":{"x":1}}}}'],
    ])("refuses %s with 400 in the contract's shape", async (body) => {
      const response = await api.call("POST", transferPath, {
        headers: { authorization: `Bearer ${acme}`, "content-type": "application/json" },
        body,
      });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({
        status: false,
        message: "The body may not contain a __proto__ or constructor.prototype key.",
        code: "BAD_REQUEST",
      });
    });

    it("refuses it on /token in RFC 6749's shape", async () => {
      const response = await api.call("POST", "/token", {
        headers: { "content-type": "application/json" },
        body: '{"grant_type":"client_credentials","__proto__":{"x":1}}',
      });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ error: "invalid_request" });
    });
  });

  describe("identifiers sent as JSON numbers", () => {
    it("takes an integer payment_id as its decimal string: a replay with the text finds the first result", async () => {
      const body = (paymentId: unknown) =>
        JSON.stringify({
          wallet_from: "U100000010",
          wallet_to: "U100000020",
          amount: "1",
          payment_id: paymentId,
        });
      const headers = { authorization: `Bearer ${acme}`, "content-type": "application/json" };
      const first = await api.call("POST", transferPath, { headers, body: body(987654) });
      expect(first.status, JSON.stringify(first.body)).toBe(200);
      const replay = await api.call("POST", transferPath, { headers, body: body("987654") });
      expect(replay.status).toBe(200);
      expect(replay.body.data.id).toBe(first.body.data.id);
      const shown = await api.call("GET", "/api/transaction/show?external_id=987654", { headers });
      expect(shown.body.data.id).toBe(first.body.data.id);
    });

    it.each(["1.5", "1e2", "100.0", "9007199254740993", "9007199254740992", "-0"])(
      "refuses payment_id %s (not exactly a safe integer) with 422 on the field",
      async (number) => {
        const response = await api.call("POST", transferPath, {
          headers: { authorization: `Bearer ${acme}`, "content-type": "application/json" },
          body: `{"wallet_from":"U100000010","wallet_to":"U100000020","amount":"1","payment_id":${number}}`,
        });
        expect(response.status).toBe(422);
        expect(response.body).toEqual(errorOf("INVALID_VALUE", notValid, "payment_id"));
      },
    );

    it.each(["1.5", "1e2", "9007199254740993"])(
      "refuses checkout id %s with 422 on the field",
      async (number) => {
        const fields = checkoutFields("placeholder");
        const body = JSON.stringify(fields).replace('"id":"placeholder"', `"id":${number}`);
        const response = await api.call("POST", checkoutPath, {
          headers: { "content-type": "application/json" },
          body,
        });
        expect(response.status).toBe(422);
        expect(response.body).toEqual(errorOf("INVALID_VALUE", notValid, "id"));
      },
    );
  });

  describe("bounded inputs", () => {
    const long = (length: number) => "A".repeat(length);
    const post = (path: string, body: Record<string, unknown>, token?: string) =>
      api.call("POST", path, {
        headers: {
          "content-type": "application/json",
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        body: JSON.stringify(body),
      });

    it("refuses an amount of a thousand characters as not numeric, whatever its value", async () => {
      for (const amount of [`1.${"0".repeat(1000)}`, "9".repeat(1000), `1.${"0".repeat(39)}`]) {
        const response = await post(
          transferPath,
          { wallet_from: "U100000010", wallet_to: "U100000020", amount },
          acme,
        );
        expect(response.status).toBe(422);
        expect(response.body).toEqual(
          errorOf("NOT_NUMERIC", "This value should be of type numeric.", "amount"),
        );
      }
    });

    it.each([
      ["wallet_from", transferPath, { wallet_from: long(33), wallet_to: "U100000020", amount: "1" }, 32],
      ["wallet_to", transferPath, { wallet_from: "U100000010", wallet_to: long(33), amount: "1" }, 32],
      [
        "payment_id",
        transferPath,
        { wallet_from: "U100000010", wallet_to: "U1", amount: "1", payment_id: long(65) },
        64,
      ],
      [
        "description",
        transferPath,
        { wallet_from: "U100000010", wallet_to: "U1", amount: "1", description: long(256) },
        255,
      ],
      ["voucher_number", confirmPath, { voucher_number: long(65), voucher_code: "x", wallet_to: "U1" }, 64],
      [
        "voucher_code",
        confirmPath,
        { voucher_number: "V-0001", voucher_code: long(65), wallet_to: "U1" },
        64,
      ],
      [
        "additional",
        confirmPath,
        { voucher_number: "V-0001", voucher_code: "x", wallet_to: "U1", additional: long(256) },
        255,
      ],
    ] as const)("refuses an over-long %s with 422 on the field", async (field, path, body, limit) => {
      const response = await post(path, body, acme);
      expect(response.status).toBe(422);
      expect(response.body).toEqual(errorOf("TOO_LONG", tooLong(limit), field));
    });

    it.each([
      ["id", { id: long(65) }, 64],
      ["signature", { signature: "a".repeat(65) }, 64],
      ["user_info", { user_info: long(256) }, 255],
    ] as const)("refuses an over-long checkout %s with 422 on the field", async (field, change, limit) => {
      const response = await post(checkoutPath, { ...checkoutFields("long"), ...change });
      expect(response.status).toBe(422);
      expect(response.body).toEqual(errorOf("TOO_LONG", tooLong(limit), field));
    });

    it.each([
      [
        "startDate",
        `/api/transactions/histories?startDate=${long(33)}&endDate=2024-01-01&page=1&itemsPerPage=10`,
        32,
      ],
      [
        "page",
        "/api/transactions/histories?startDate=2024-01-01&endDate=2024-01-01&page=1" +
          "0".repeat(40) +
          "&itemsPerPage=1",
        null,
      ],
      ["external_id", `/api/transaction/show?external_id=${long(65)}`, 64],
      ["number_to", `/api/wallet-exists?number_to=${long(33)}&number_from=U1`, 32],
      ["voucher_code", `/api/vouchers/activation/info?voucher_number=V-0001&voucher_code=${long(65)}`, 64],
      ["wallet_number", `/api/wallets/search/${long(3000)}`, 32],
    ] as const)("refuses an over-long query or path %s with 422 on the field", async (field, path, limit) => {
      const response = await api.call("GET", path, { headers: { authorization: `Bearer ${acme}` } });
      expect(response.status).toBe(422);
      const message = limit === null ? "This value should be of type numeric." : tooLong(limit);
      expect(response.body).toEqual(errorOf(limit === null ? "NOT_NUMERIC" : "TOO_LONG", message, field));
    });

    it("refuses a body larger than the largest legal request with 413", async () => {
      const transfer = {
        wallet_from: "U100000010",
        wallet_to: "U100000020",
        amount: "1",
        description: long(17_000),
      };
      const response = await post(transferPath, transfer, acme);
      expect(response.status).toBe(413);
      expect(response.body).toEqual({
        status: false,
        message: "The body is too large.",
        code: "PAYLOAD_TOO_LARGE",
      });
      const form = await api.call("POST", transferPath, {
        headers: { authorization: `Bearer ${acme}` },
        body: new URLSearchParams({ ...transfer }),
      });
      expect(form.status).toBe(413);
      expect(form.body).toEqual({
        status: false,
        message: "The body is too large.",
        code: "PAYLOAD_TOO_LARGE",
      });
      const multipart = new FormData();
      multipart.append("description", long(9000));
      const bigField = await api.call("POST", transferPath, {
        headers: { authorization: `Bearer ${acme}` },
        body: multipart,
      });
      expect(bigField.status).toBe(413);
      expect(bigField.body).toEqual({
        status: false,
        message: "The body is too large.",
        code: "PAYLOAD_TOO_LARGE",
      });
      const many = new FormData();
      for (let index = 0; index < 40; index += 1) many.append(`f${index}`, "x");
      const manyFields = await api.call("POST", transferPath, {
        headers: { authorization: `Bearer ${acme}` },
        body: many,
      });
      expect(manyFields.status).toBe(413);
      expect(manyFields.body).toEqual({
        status: false,
        message: "The body is too large.",
        code: "PAYLOAD_TOO_LARGE",
      });
    });

    it("takes the largest legal checkout", async () => {
      const url = `https://shop.example/${"p".repeat(2000)}`;
      for (const encoding of ["json", "form"] as const) {
        const fields = {
          ...checkoutFields(`large-${encoding}-${"9".repeat(50)}`),
          user_info: `${encoding}${"é".repeat(250)}`,
          success_url: url,
          cancel_url: url,
          status_url: url,
        };
        const response = await send(api, checkoutPath, encoding, fields);
        expect(response.status, JSON.stringify(response.body)).toBe(200);
      }
    });
  });

  describe("paths", () => {
    it("collapses duplicate slashes and accepts a trailing slash", async () => {
      for (const path of [
        "/api//wallets",
        "/api/wallets/",
        "//api/wallets",
        "/api/wallets/search/U100000020/",
      ]) {
        const response = await api.call("GET", path, { headers: { authorization: `Bearer ${acme}` } });
        expect(response.status, path).toBe(200);
        expect(response.body.status, path).toBe(true);
      }
      const token = await api.call("POST", "//token", {
        body: new URLSearchParams({
          grant_type: "client_credentials",
          client_id: "acme",
          client_secret: "acme-secret",
        }),
      });
      expect(token.status).toBe(200);
      expect(token.body.access_token).toEqual(expect.any(String));
      const rates = await api.call("GET", "/api/currencies/rates/");
      expect(rates.status).toBe(200);
    });

    it("answers bad percent-encoding and over-long parameters in the contract's shape", async () => {
      const bad = await api.call("GET", "/%E0%A4%A");
      expect(bad.status).toBe(400);
      expect(bad.body).toEqual({
        status: false,
        message: "The URL is not valid (bad percent-encoding).",
        code: "BAD_REQUEST",
      });
      const badApi = await api.call("GET", "/api/wallets/search/%E0%A4%A", {
        headers: { authorization: `Bearer ${acme}` },
      });
      expect(badApi.status).toBe(400);
      expect(badApi.body).toEqual({
        status: false,
        message: "The URL is not valid (bad percent-encoding).",
        code: "BAD_REQUEST",
      });
      const long = await api.call("GET", `/api/wallets/search/${"x".repeat(6000)}`, {
        headers: { authorization: `Bearer ${acme}` },
      });
      expect(long.status).toBe(414);
      expect(long.body).toEqual({ status: false, message: "The URL is too long.", code: "URI_TOO_LONG" });
    });

    it("answers a request line beyond the HTTP parser's limit in the contract's shape, not Fastify's", async () => {
      const huge = await api.call("GET", `/api/wallets?filter=${"x".repeat(20_000)}`, {
        headers: { authorization: `Bearer ${acme}` },
      });
      expect(huge.status).toBe(431);
      expect(huge.body).toEqual({
        status: false,
        message: "The request line and headers are too large; shorten the query string or the headers.",
        code: "REQUEST_HEADER_FIELDS_TOO_LARGE",
      });
      expect(huge.headers.get("x-content-type-options")).toBe("nosniff");
    });
  });
});
