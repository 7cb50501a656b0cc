import { PurseError } from "@purse/engine";
import type { FastifyInstance } from "fastify";

/**
 * PostgreSQL text cannot hold U+0000, so a NUL in any field would fail deep in a query as a 500.
 * It is never a valid value anywhere in this API: refuse it up front as the field's "not valid".
 */
export function rejectNulCharacters(app: FastifyInstance): void {
  app.addHook("preValidation", (request, _reply, done) => {
    for (const part of [request.params, request.query, request.body]) {
      const field = fieldWithNul(part);
      if (field !== null) return done(new PurseError("INVALID_VALUE", field));
    }
    done();
  });
}

function fieldWithNul(part: unknown): string | null {
  if (typeof part !== "object" || part === null) return null;
  for (const [field, value] of Object.entries(part)) {
    if (containsNul(value)) return field;
  }
  return null;
}

function containsNul(value: unknown, depth = 0): boolean {
  if (typeof value === "string") return value.includes("\u0000");
  if (typeof value !== "object" || value === null || depth > 8) return false;
  return Object.values(value).some((item) => containsNul(item, depth + 1));
}
