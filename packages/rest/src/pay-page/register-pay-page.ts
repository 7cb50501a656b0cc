import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import {
  checkoutPayOperation,
  type EngineDependencies,
  getCheckoutPage,
  isWebUrl,
  PurseError,
  parseContract,
  payCheckout,
} from "@purse/engine";
import type { FastifyReply } from "fastify";
import { z } from "zod";
import type { RestApp } from "../http/route-context.ts";
import { payPageHelmet } from "./page-security.ts";
import { checkoutPage, closedPage, donePage, type PageNonces, returnToShopPage } from "./page-templates.ts";
import { payScript } from "./pay-script.ts";
import { payerMessage } from "./payer-messages.ts";

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
 * Helmet's nonces for this answer. The page's scope must register `registerPageSecurity` (restApi
 * does): without it there would be no policy, so the page refuses to render.
 */
function nonces(reply: FastifyReply): PageNonces {
  const given = (reply as Partial<FastifyReply>).cspNonce;
  if (!given?.script || !given.style)
    throw new Error("The hosted page needs registerPageSecurity on its scope");
  return given;
}

/**
 * The hosted payment page at `PAY_URL/<token>`: server-rendered, works without JavaScript (the
 * form posts here), and with it submits in place and follows the shop's redirect.
 */
export function registerPayPage(app: RestApp, deps: EngineDependencies): void {
  const payPath = new URL(deps.options.payUrl).pathname.replace(/\/+$/, "") || "/pay";
  const context = (token: string, reply: FastifyReply) => ({
    token,
    payPath,
    captcha: deps.captcha.enabled,
    nonces: nonces(reply),
  });
  // Second wall behind the engine's check at creation: the page sends the payer only to an
  // http(s) address without credentials (https only in production).
  const shopAddress = (text: string): string | null => {
    const url = URL.parse(text);
    return url && isWebUrl(url, { requireHttps: deps.options.requireHttpsUrls }) ? url.href : null;
  };
  const hide = { hide: true };
  const page = { ...payPageHelmet, schema: { ...hide, params: tokenParams } };
  let widget: Promise<string> | undefined;
  const script = payScript();

  app.get(`${payPath}/:token`, page, async (request, reply) => {
    const view = await getCheckoutPage(deps, request.params.token);
    reply.type("text/html; charset=utf-8").header("cache-control", "no-store");
    if (view.state === "open") return checkoutPage(view, context(request.params.token, reply));
    return reply.code(view.state === "unknown" ? 404 : 200).send(closedPage(view.state, nonces(reply), view));
  });

  app.post(
    `${payPath}/:token`,
    { ...page, schema: { ...page.schema, body: formBody } },
    async (request, reply) => {
      const token = request.params.token;
      reply.type("text/html; charset=utf-8").header("cache-control", "no-store");
      try {
        // The operation's contract reads the form as it reads the API's body (a blank login...).
        const input = parseContract(checkoutPayOperation.input, { token, ...request.body });
        const result = await payCheckout(deps, { ...input, clientAddress: request.ip });
        const address = shopAddress(result.redirectUrl);
        if (address) return returnToShopPage(result.status, address, nonces(reply));
        return donePage(result.status, nonces(reply));
      } catch (error) {
        if (!PurseError.is(error)) throw error;
        const view = await getCheckoutPage(deps, token);
        if (view.state !== "open")
          return reply
            .code(view.state === "unknown" ? 404 : 200)
            .send(closedPage(view.state, nonces(reply), view));
        return reply
          .code(error.status)
          .send(checkoutPage(view, context(token, reply), payerMessage(error.code, error.message)));
      }
    },
  );

  app.get(`${payPath}-assets/pay.js`, { schema: hide }, async (_request, reply) =>
    reply.type("text/javascript; charset=utf-8").header("cache-control", "public, max-age=300").send(script),
  );
  app.get(`${payPath}-assets/altcha.js`, { schema: hide }, async (_request, reply) => {
    widget ??= altchaWidget();
    return reply
      .type("text/javascript; charset=utf-8")
      .header("cache-control", "public, max-age=86400")
      .send(await widget);
  });
}
