import type { SwaggerTransformObject } from "@fastify/swagger";
import { jsonSchemaTransformObject } from "fastify-type-provider-zod";
import { operationRoutes } from "../routes/operation-routes.generated.ts";
import { requiredParameterMark } from "../schemas/common.ts";
import { tokenRouteExamples } from "./openapi-examples.ts";
import { addAnswerHeaders, answerHeaderComponents } from "./openapi-headers.ts";

/**
 * fastify-type-provider-zod puts every schema with an id into the document twice (an `Input` and
 * an output variant) whether used or not; keep only the component schemas something refers to.
 */
export const transformObject: SwaggerTransformObject = (documentObject) => {
  const document = jsonSchemaTransformObject(documentObject);
  addRequestBodyExamples(document.paths);
  markRequiredParameters(document.paths);
  addAnswerHeaders(document.paths);
  if (!("components" in document) || !document.components?.schemas) return document;
  document.components.headers = { ...document.components.headers, ...answerHeaderComponents };
  const schemas = document.components.schemas;
  const used = new Set<string>();
  const pending = referencedSchemas(document.paths);
  while (pending.length > 0) {
    const name = pending.pop();
    if (name === undefined || used.has(name)) continue;
    used.add(name);
    pending.push(...referencedSchemas(schemas[name]));
  }
  // The schemas object is the transform's own fresh copy, so trimming it in place is safe.
  for (const name of Object.keys(schemas)) {
    if (!used.has(name)) Reflect.deleteProperty(schemas, name);
  }
  return document;
};

const schemaReference = /^#\/components\/schemas\/(.+)$/;

function referencedSchemas(node: unknown): string[] {
  if (typeof node !== "object" || node === null) return [];
  const found: string[] = [];
  for (const [key, value] of Object.entries(node)) {
    const match = key === "$ref" && typeof value === "string" ? schemaReference.exec(value) : null;
    if (match?.[1]) found.push(decodeURIComponent(match[1]));
    else found.push(...referencedSchemas(value));
  }
  return found;
}

interface OperationLike {
  operationId?: string;
  requestBody?: { content?: Record<string, { example?: unknown }> };
  parameters?: { required?: boolean; schema?: Record<string, unknown> }[];
}

/** Parameters marked by `documentedAsRequired`: required in the document, the mark removed. */
function markRequiredParameters(paths: unknown): void {
  if (typeof paths !== "object" || paths === null) return;
  for (const item of Object.values(paths as Record<string, Record<string, OperationLike>>)) {
    for (const operation of Object.values(item)) {
      for (const parameter of operation.parameters ?? []) {
        if (parameter.schema?.[requiredParameterMark] !== true) continue;
        Reflect.deleteProperty(parameter.schema, requiredParameterMark);
        parameter.required = true;
      }
    }
  }
}

/** Every request body example by operationId: the token routes', and each operation route's own. */
const requestBodyExamples: Readonly<Record<string, unknown>> = {
  ...tokenRouteExamples,
  ...Object.fromEntries(
    Object.values(operationRoutes).flatMap((route) =>
      route.example === undefined ? [] : route.operationIds.map((id) => [id, route.example]),
    ),
  ),
};

/** Each body-taking operation's example, on every content type it accepts (JSON, form, multipart). */
function addRequestBodyExamples(paths: unknown): void {
  if (typeof paths !== "object" || paths === null) return;
  for (const item of Object.values(paths as Record<string, Record<string, OperationLike>>)) {
    for (const operation of Object.values(item)) {
      const example = operation.operationId ? requestBodyExamples[operation.operationId] : undefined;
      if (!example || !operation.requestBody?.content) continue;
      for (const media of Object.values(operation.requestBody.content)) media.example ??= example;
    }
  }
}
