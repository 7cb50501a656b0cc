import { readFileSync } from "node:fs";
import { Writable } from "node:stream";
import { type EngineDependencies, PurseError } from "@purse/engine";
import { type RestHarness, startRestHarness } from "@purse/testing/rest";
import { Validator } from "@seriousme/openapi-schema-validator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildOpenApiDocument } from "../build-rest-api.ts";

const transferPath = "/api/transaction/transfer";

describe("the HTTP edges: unknown paths, bodies, content types, failures", () => {
  let api: RestHarness;
  let acme: string;
  beforeAll(async () => {
    api = await startRestHarness();
    acme = await api.token("acme");
  });
  afterAll(() => api.close());

  it("answers an unknown path with 404 Not found in the error shape", async () => {
    for (const [method, path] of [
      ["GET", "/api/nothing-here"],
      ["POST", "/api/transaction/transfers"],
      ["DELETE", "/api/wallets"],
    ] as const) {
      const response = await api.call(method, path);
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ status: false, message: "Not found", code: "NOT_FOUND" });
    }
    // Whatever its body: the path decides first.
    for (const [body, contentType] of [
      ["{bad", "application/json"],
      ["<xml/>", "application/xml"],
    ]) {
      const response = await api.call("POST", "/api/nothing-here", {
        body,
        headers: { "content-type": contentType as string },
      });
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ status: false, message: "Not found", code: "NOT_FOUND" });
    }
  });

  it("answers malformed JSON with 400 and a helpful message", async () => {
    const response = await api.call("POST", transferPath, {
      token: acme,
      body: '{"wallet_from": "U100000010",',
      headers: { "content-type": "application/json" },
    });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      status: false,
      message: "The body is not valid JSON; send a JSON object.",
      code: "BAD_REQUEST",
    });
  });

  it("answers a body that is not JSON with 415", async () => {
    for (const contentType of ["text/plain", "application/xml"]) {
      const response = await api.call("POST", transferPath, {
        token: acme,
        body: "wallet_from=U100000010",
        headers: { "content-type": contentType },
      });
      expect(response.status, contentType).toBe(415);
      expect(response.body).toEqual({
        status: false,
        message:
          "Send the body as application/json, application/x-www-form-urlencoded or multipart/form-data.",
        code: "UNSUPPORTED_MEDIA_TYPE",
      });
    }
  });

  it("treats an empty or absent body as {} so the first missing field is reported", async () => {
    const empty = await api.call("POST", transferPath, {
      token: acme,
      body: "",
      headers: { "content-type": "application/json" },
    });
    const absent = await api.call("POST", transferPath, { token: acme });
    for (const response of [empty, absent]) {
      expect(response.status).toBe(422);
      expect(response.body).toEqual({
        status: false,
        message: "This value should not be blank.",
        errors: { wallet_from: ["This value should not be blank."] },
        code: "BLANK",
      });
    }
  });

  it("answers a JSON body that is not an object with 422 This value is not valid.", async () => {
    for (const body of ["[1, 2]", '"text"', "42", "null"]) {
      const response = await api.call("POST", transferPath, {
        token: acme,
        body,
        headers: { "content-type": "application/json" },
      });
      expect(response.status, body).toBe(422);
      expect(response.body).toEqual({
        status: false,
        message: "This value is not valid.",
        code: "INVALID_VALUE",
      });
    }
  });

  it("checks the bearer token before the body", async () => {
    const response = await api.call("POST", transferPath, {
      body: "{oops",
      headers: { "content-type": "application/json" },
    });
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ status: false, message: "Unauthorized", code: "UNAUTHORIZED" });
  });

  it("never answers 500 for odd input on any path", async () => {
    const token = acme;
    const attempts: [string, string, unknown][] = [
      ["POST", transferPath, { wallet_from: ["a"], wallet_to: { x: 1 }, amount: [1] }],
      ["POST", "/api/processing/checkout", { wallet_to: 1, amount: {}, id: [], user_info: false }],
      ["POST", "/api/vouchers/activation/confirm", { voucher_number: 5, voucher_code: null }],
      ["GET", "/api/transactions/histories?page=x&page=y&startDate[a]=1", undefined],
      ["GET", "/api/transaction/show?id=99999999999999999999999&external_id=", undefined],
      ["GET", "/api/wallet-exists?number_to[]=a", undefined],
      ["GET", `/api/wallets/search/${"x".repeat(3000)}`, undefined],
      ["GET", "/api/vouchers/activation/info?voucher_number=%00&voucher_code=%ff", undefined],
      ["POST", "/token", { grant_type: ["client_credentials"] }],
      ["POST", "/token/revoke", { token: { nested: true } }],
    ];
    for (const [method, path, body] of attempts) {
      const response = await api.call<unknown>(method, path, { token, body });
      expect(response.status, `${method} ${path}`).toBeGreaterThanOrEqual(400);
      expect(response.status, `${method} ${path}`).toBeLessThan(500);
    }
  });
});

describe("an unexpected failure", () => {
  it("answers 500 Internal server error and keeps the details in the log only", async () => {
    const lines: string[] = [];
    const logs = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const api = await startRestHarness({ logger: { level: "error", stream: logs } });
    try {
      const db = api.deps.db;
      const broken: EngineDependencies = {
        ...api.deps,
        db: new Proxy(db, {
          get(target, key, receiver) {
            // The rates read the primary through `fresh` (`em` underneath): both fail.
            if (key === "em" || key === "fresh") {
              return () => {
                throw new Error("connection to 10.0.0.7 refused: password=hunter2");
              };
            }
            return Reflect.get(target, key, receiver);
          },
        }),
      };
      const { buildRestApp } = await import("../build-rest-api.ts");
      const app = await buildRestApp(broken, { logger: { level: "error", stream: logs } });
      try {
        const response = await app.inject({ method: "GET", url: "/api/currencies/rates" });
        expect(response.statusCode).toBe(500);
        expect(response.json()).toEqual({
          status: false,
          message: "Internal server error",
          code: "INTERNAL_SERVER_ERROR",
        });
        expect(response.body).not.toContain("hunter2");
        expect(lines.join("")).toContain("hunter2");
      } finally {
        await app.close();
      }
    } finally {
      await api.close();
    }
  });
});

describe("a refusal for want of a Redis quorum", () => {
  it("answers 503 with Retry-After and names the reason in the log for the operator", async () => {
    const lines: string[] = [];
    const logs = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const api = await startRestHarness({
      logger: { level: "warn", stream: logs },
      wrapDeps: (deps) => ({
        ...deps,
        routeLock: {
          run: () => Promise.reject(new PurseError("LOCK_UNAVAILABLE")),
          close: () => deps.routeLock.close(),
        },
      }),
    });
    try {
      const acme = await api.token("acme");
      const body = { wallet_from: "U100000010", wallet_to: "U100000020", amount: "5.00" };
      const response = await api.call("POST", transferPath, { token: acme, body });
      expect(response.status).toBe(503);
      expect(response.headers.get("retry-after")).not.toBeNull();
      expect(response.body).toEqual({
        status: false,
        message: "Service temporarily unavailable, please try again later",
        code: "LOCK_UNAVAILABLE",
      });
      expect(lines.join("")).toContain("refused with 503: LOCK_UNAVAILABLE");
      expect(lines.join("")).not.toContain(acme);
    } finally {
      await api.close();
    }
  });
});

describe("the OpenAPI document and the reference page", () => {
  let api: RestHarness;
  beforeAll(async () => {
    api = await startRestHarness();
  });
  afterAll(() => api.close());

  /** The specification's paths and methods: fixed, as the clients written against it are. */
  const specPaths = {
    "/token": ["post"],
    "/api/processing/checkout": ["post"],
    "/api/processing/pay": ["post"],
    "/api/transaction/transfer": ["post"],
    "/api/vouchers/activation/confirm": ["post"],
    "/api/vouchers/activation/info": ["get"],
    "/api/transactions/histories": ["get"],
    "/api/transaction/show": ["get"],
    "/api/wallets": ["get"],
    "/api/wallet-exists": ["get"],
    "/api/wallets/search/{wallet_number}": ["get"],
    "/api/currencies/rates": ["get"],
  };

  it("is valid OpenAPI 3.1 and describes every path of the specification, and beyond it only what docs/rest.md documents", async () => {
    const response = await api.call<OpenApi>("GET", "/openapi.json");
    expect(response.status).toBe(200);
    const document = response.body;
    expect(document.openapi).toMatch(/^3\.1\.\d+$/);
    const validator = new Validator();
    const raw = await api.call<Record<string, unknown>>("GET", "/openapi.json");
    const result = await validator.validate(raw.body);
    expect(result.errors ?? [], JSON.stringify(result.errors)).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe("3.1");
    expect(document.info.title).toEqual(expect.any(String));
    // Every method the specification gives a path; a method beyond them is an extension (below).
    for (const [path, methods] of Object.entries(specPaths)) {
      expect(Object.keys(document.paths[path] ?? {}), path).toEqual(expect.arrayContaining(methods));
    }
    // Beyond the specification (the extras existing clients read, vouchers, the export, refunds,
    // revocation): each route a reader of docs/rest.md finds there as `METHOD /path`, so nothing
    // is published that the reference does not describe (the committed openapi.json pins the set).
    const reference = readFileSync(new URL("../../../../docs/rest.md", import.meta.url), "utf8");
    const undocumented = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.keys(methods ?? {})
        .filter((method) => !(specPaths as Record<string, string[]>)[path]?.includes(method))
        .map((method) => `${method.toUpperCase()} ${path}`)
        .filter((route) => !["`", "?", " ", ","].some((next) => reference.includes(`\`${route}${next}`))),
    );
    expect(undocumented).toEqual([]);
    expect(document.components.securitySchemes["bearer"]).toEqual(
      expect.objectContaining({ type: "http", scheme: "bearer" }),
    );
    expect(document.components.schemas["Error"]).toBeDefined();
  });

  it("marks bearer routes and lists their error responses with the error schema", async () => {
    const document = (await api.call<OpenApi>("GET", "/openapi.json")).body;
    const bearerRoutes: [string, string, string[]][] = [
      ["/api/transaction/transfer", "post", ["200", "401", "403", "422"]],
      ["/api/vouchers/activation/confirm", "post", ["200", "401", "403", "422"]],
      ["/api/vouchers/activation/info", "get", ["200", "401", "403", "422"]],
      ["/api/transactions/histories", "get", ["200", "401", "403", "422"]],
      ["/api/transaction/show", "get", ["200", "401", "403", "404", "422"]],
      ["/api/wallets", "get", ["200", "401", "403"]],
      ["/api/wallet-exists", "get", ["200", "401", "403", "404"]],
      ["/api/wallets/search/{wallet_number}", "get", ["200", "401", "403", "404"]],
    ];
    for (const [path, method, statuses] of bearerRoutes) {
      const operation = document.paths[path]?.[method];
      expect(operation?.security, path).toEqual([{ bearer: [] }]);
      expect(Object.keys(operation?.responses ?? {}), path).toEqual(expect.arrayContaining(statuses));
      for (const status of statuses.filter((code) => code !== "200")) {
        const schema = operation?.responses[status]?.content?.["application/json"]?.schema;
        expect(schema, `${path} ${status}`).toEqual(
          expect.objectContaining({ $ref: "#/components/schemas/Error" }),
        );
      }
    }
    expect(document.paths["/api/currencies/rates"]?.["get"]?.security).toBeUndefined();
    const transfer = document.paths["/api/transaction/transfer"]?.["post"];
    const properties = transfer?.requestBody?.content["application/json"]?.schema.properties ?? {};
    expect(Object.keys(properties)).toEqual([
      "wallet_from",
      "wallet_to",
      "amount",
      "payment_id",
      "description",
    ]);
    const history = document.paths["/api/transactions/histories"]?.["get"];
    expect(
      history?.parameters?.map((parameter) => [parameter.name, parameter.in, parameter.required]),
    ).toEqual([
      ["startDate", "query", true],
      ["endDate", "query", true],
      ["page", "query", true],
      ["itemsPerPage", "query", true],
      ["walletNumber", "query", false],
      ["type", "query", false],
      ["status", "query", false],
      ["minAmount", "query", false],
      ["maxAmount", "query", false],
    ]);
  });

  it("is the same document when built without an engine", async () => {
    const served = (await api.call<OpenApi>("GET", "/openapi.json")).body;
    expect(await buildOpenApiDocument()).toEqual(served);
  });

  it("serves a reference page at /docs whose assets come from this server, not a CDN", async () => {
    const response = await fetch(`${api.url}/docs`, { redirect: "follow" });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/html");
    const html = await response.text();
    const references = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1] ?? "");
    expect(references.length).toBeGreaterThan(0);
    for (const reference of references) expect(reference).not.toMatch(/^(https?:)?\/\//);
    expect(html).not.toMatch(/cdn\.jsdelivr|unpkg\.com|fonts\.(googleapis|scalar)\.com/);
    // Only Purse's documentation: the vendor's toolbar (deploy offer), AI agent and MCP prompt are off.
    expect(html).toMatch(/"showDeveloperTools":\s*"never"/);
    expect(html).toMatch(/"agent":\s*\{\s*"disabled":\s*true\s*\}/);
    expect(html).toMatch(/"mcp":\s*\{\s*"disabled":\s*true\s*\}/);
    const scripts = references.filter((reference) => reference.endsWith(".js"));
    expect(scripts.length).toBeGreaterThan(0);
    for (const script of scripts) {
      const asset = await fetch(new URL(script, `${api.url}/docs/`));
      expect(asset.status, script).toBe(200);
    }
  });
});

interface OpenApiOperation {
  security?: Record<string, string[]>[];
  parameters?: { name: string; in: string; required?: boolean }[];
  requestBody?: { content: Record<string, { schema: { properties?: Record<string, unknown> } }> };
  responses: Record<string, { content?: Record<string, { schema: unknown }> }>;
}

interface OpenApi {
  openapi: string;
  info: { title: string };
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: { securitySchemes: Record<string, unknown>; schemas: Record<string, unknown> };
}
