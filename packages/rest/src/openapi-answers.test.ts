import SwaggerParser from "@apidevtools/swagger-parser";
import type { OpenAPIV3_1 } from "openapi-types";
import { describe, expect, it } from "vitest";
import { readCommittedOpenApi } from "./write-openapi.ts";

type Operation = OpenAPIV3_1.OperationObject;
type Schema = Record<string, unknown>;

const committed = async () => JSON.parse(await readCommittedOpenApi()) as OpenAPIV3_1.Document;

function operations(document: OpenAPIV3_1.Document): [string, Operation][] {
  return Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
    Object.entries(item ?? {}).map(([method, operation]): [string, Operation] => [
      `${method.toUpperCase()} ${path}`,
      operation as Operation,
    ]),
  );
}

const errorBody = { $ref: "#/components/schemas/Error" };
const bodyOf = (operation: Operation, status: string) =>
  (operation.responses?.[status] as OpenAPIV3_1.ResponseObject | undefined)?.content?.["application/json"]
    ?.schema;

/** Every schema in the document, with where it sits. */
function schemas(node: unknown, at = "#"): [string, Schema][] {
  if (typeof node !== "object" || node === null) return [];
  const found: [string, Schema][] = "type" in node ? [[at, node as Schema]] : [];
  for (const [key, value] of Object.entries(node)) found.push(...schemas(value, `${at}/${key}`));
  return found;
}

describe("packages/rest/openapi.json types what a client gets", () => {
  it("passes swagger-parser's validation (OpenAPI 3.1 schema, references, parameters)", async () => {
    await expect(SwaggerParser.validate(await committed())).resolves.toBeDefined();
  });

  it("documents every answer a client can get, each with its body", async () => {
    const document = await committed();
    for (const [name, operation] of operations(document)) {
      const statuses = Object.keys(operation.responses ?? {});
      const bearer = JSON.stringify(operation.security ?? []).includes("bearer");
      const expected = [
        "500",
        "503",
        ...(operation.requestBody ? ["400", "413", "415"] : []),
        ...(bearer ? ["401", "403", "422"] : []),
      ];
      expect(statuses, name).toEqual(expect.arrayContaining(expected));
      // /token's own refusals are RFC 6749's {"error": ...}; everything else answers the contract's Error.
      const oauth = name.endsWith(" /token") || name.endsWith(" /token/revoke");
      const errorStatuses = ["401", "403", "404", "413", "415", "422", "500", "503"].filter(
        (code) => statuses.includes(code) && !(oauth && code === "401"),
      );
      for (const status of errorStatuses) {
        expect(bodyOf(operation, status), `${name} ${status}`).toEqual(errorBody);
      }
    }
    const answers = Object.fromEntries(
      operations(document).map(([name, operation]) => [name, Object.keys(operation.responses ?? {})]),
    );
    for (const lookup of [
      "GET /api/wallet-exists",
      "GET /api/transaction/show",
      "GET /api/wallets/search/{wallet_number}",
    ])
      expect(answers[lookup], lookup).toContain("404");
    expect(answers["POST /token"]).toContain("429");
  });

  it("gives history type and status as enums of the specification's numbers, processing_pay.status as names", async () => {
    const document = await committed();
    const history = document.paths?.["/api/transactions/histories"]?.get;
    const parameter = (name: string) =>
      (history?.parameters as OpenAPIV3_1.ParameterObject[] | undefined)?.find((p) => p.name === name)
        ?.schema;
    expect(parameter("type")).toMatchObject({ type: "integer", enum: [1, 2, 3] });
    expect(parameter("status")).toMatchObject({ type: "integer", enum: [1, 2, 3, 4] });
    const item = document.components?.schemas?.["HistoryItem"] as { properties: Record<string, Schema> };
    expect(item.properties["type"]).toMatchObject({ type: "integer", enum: [1, 2, 3] });
    expect(item.properties["status"]).toMatchObject({ type: "integer", enum: [1, 2, 3, 4] });
    const detail = document.components?.schemas?.["TransactionDetail"] as {
      properties: { processing_pay: { properties: Record<string, Schema> } };
    };
    expect(detail.properties.processing_pay.properties["status"]).toMatchObject({
      type: "string",
      enum: ["SUCCESS", "PENDING", "FAIL", "CANCEL"],
    });
  });

  it("requires what the routes need (wallet-exists' two numbers) and carries no keyword meaningless for its type", async () => {
    const document = await committed();
    const walletExists = document.paths?.["/api/wallet-exists"]?.get
      ?.parameters as OpenAPIV3_1.ParameterObject[];
    expect(walletExists.map((parameter) => [parameter.name, parameter.required])).toEqual([
      ["number_to", true],
      ["number_from", true],
    ]);
    const stringKeywords = ["maxLength", "minLength", "pattern"];
    const meaningless = schemas(document).filter(
      ([, schema]) =>
        ![schema["type"]].flat().includes("string") && stringKeywords.some((keyword) => keyword in schema),
    );
    expect(meaningless.map(([at]) => at)).toEqual([]);
    expect(JSON.stringify(document)).not.toContain("x-purse-required");
  });
});
