import type { RegisterRoute } from "../http/route-context.ts";

/** GET /api/processing/captcha: a fresh challenge for the hosted page's widget (not part of the API). */
export const registerCaptchaChallenge: RegisterRoute = (app, deps) => {
  app.get("/api/processing/captcha", { schema: { hide: true } }, async (_request, reply) =>
    reply.header("cache-control", "no-store").send(await deps.captcha.challenge()),
  );
};
