import formBody from "@fastify/formbody";
import type { FastifyInstance } from "fastify";

const bodyLimit = 64 * 1024;

/**
 * JSON bodies: an empty body counts as `{}` (so missing fields get the spec's "blank" message) and
 * malformed JSON gets the contract's error shape. Nothing else is parsed here, so any other
 * content type is 415. A request without any body is validated as `{}` for the same reason.
 */
export function registerJsonBodies(app: FastifyInstance): void {
  app.removeContentTypeParser(["application/json", "text/plain"]);
  app.addContentTypeParser("application/json", { parseAs: "string", bodyLimit }, (_request, body, done) => {
    const text = String(body).trim();
    if (text === "") return done(null, {});
    try {
      done(null, JSON.parse(text));
    } catch {
      done(Object.assign(new Error("malformed JSON"), { code: "PURSE_MALFORMED_JSON", statusCode: 400 }));
    }
  });
  app.addHook("preValidation", async (request) => {
    if (request.body === undefined && request.routeOptions.schema?.body) request.body = {};
  });
}

/** `application/x-www-form-urlencoded`, for the routes that take it: /token (RFC 6749) and the pay page. */
export async function registerFormBodies(app: FastifyInstance): Promise<void> {
  await app.register(formBody, { bodyLimit });
}
