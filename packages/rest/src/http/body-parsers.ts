import formBody from "@fastify/formbody";
import type { FastifyInstance } from "fastify";

/**
 * JSON bodies: an empty body counts as `{}` (so missing fields get the spec's "blank" message),
 * malformed JSON gets the contract's error shape. `/token` also takes form-encoded bodies.
 */
export async function registerBodyParsers(app: FastifyInstance): Promise<void> {
  app.removeContentTypeParser(["application/json", "text/plain"]);
  app.addContentTypeParser(
    "application/json",
    { parseAs: "string", bodyLimit: 64 * 1024 },
    (_request, body, done) => {
      const text = String(body).trim();
      if (text === "") return done(null, {});
      try {
        done(null, JSON.parse(text));
      } catch {
        done(Object.assign(new Error("malformed JSON"), { code: "PURSE_MALFORMED_JSON", statusCode: 400 }));
      }
    },
  );
  await app.register(formBody, { bodyLimit: 64 * 1024 });
}
