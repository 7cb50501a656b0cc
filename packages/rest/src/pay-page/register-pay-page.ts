import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { type EngineDependencies, getCheckoutPage, PurseError, payCheckout } from "@purse/engine";
import { z } from "zod";
import type { RestApp } from "../http/route-context.ts";
import { checkoutPage, closedPage, donePage } from "./page-templates.ts";
import { payScript } from "./pay-script.ts";

const tokenParams = z.object({ token: z.string() });
const formBody = z.object({
  login: z.string().optional(),
  password: z.string().optional(),
  captcha: z.string().optional(),
  action: z.string().optional(),
});

/** The ALTCHA widget, served from its package: the page needs no third-party host. */
async function altchaWidget(): Promise<string> {
  const entry = createRequire(import.meta.url).resolve("altcha");
  return readFile(join(dirname(entry), "altcha.min.js"), "utf8");
}

/**
 * The hosted payment page at `PAY_URL/<token>`: server-rendered, works without JavaScript (the
 * form posts here), and with it submits in place and follows the shop's redirect.
 */
export function registerPayPage(app: RestApp, deps: EngineDependencies): void {
  const payPath = new URL(deps.options.payUrl).pathname.replace(/\/+$/, "") || "/pay";
  const context = (token: string) => ({ token, payPath, captcha: deps.captcha.enabled });
  const hide = { hide: true };
  let widget: Promise<string> | undefined;

  app.get(`${payPath}/:token`, { schema: { ...hide, params: tokenParams } }, async (request, reply) => {
    const view = await getCheckoutPage(deps, request.params.token);
    reply.type("text/html; charset=utf-8").header("cache-control", "no-store");
    if (view.state === "open") return checkoutPage(view, context(request.params.token));
    return reply.code(view.state === "unknown" ? 404 : 200).send(closedPage(view.state, view));
  });

  app.post(
    `${payPath}/:token`,
    { schema: { ...hide, params: tokenParams, body: formBody } },
    async (request, reply) => {
      const token = request.params.token;
      reply.type("text/html; charset=utf-8").header("cache-control", "no-store");
      try {
        const result = await payCheckout(deps, { token, ...request.body, clientAddress: request.ip });
        if (result.redirectUrl) return reply.redirect(result.redirectUrl, 303);
        return donePage(result.status);
      } catch (error) {
        if (!PurseError.is(error)) throw error;
        const view = await getCheckoutPage(deps, token);
        if (view.state !== "open")
          return reply.code(view.state === "unknown" ? 404 : 200).send(closedPage(view.state, view));
        return reply.code(error.status).send(checkoutPage(view, context(token), error.message));
      }
    },
  );

  app.get(`${payPath}-assets/pay.js`, { schema: hide }, async (_request, reply) =>
    reply
      .type("text/javascript; charset=utf-8")
      .header("cache-control", "public, max-age=300")
      .send(payScript),
  );
  app.get(`${payPath}-assets/altcha.js`, { schema: hide }, async (_request, reply) => {
    widget ??= altchaWidget();
    return reply
      .type("text/javascript; charset=utf-8")
      .header("cache-control", "public, max-age=86400")
      .send(await widget);
  });
}
