import {
  csrfHeaderName,
  csrfRefusalMessages,
  type RequestCredential,
  requestCredential,
} from "@purse/engine";
import type { Plugin } from "graphql-yoga";

/** Who a request acts for, read from its headers (the Authorization header wins over the cookie). */
export function credentialOf(request: Request): {
  credential: RequestCredential;
  refusal: ReturnType<typeof requestCredential>["refusal"];
} {
  return requestCredential({
    authorization: request.headers.get("authorization"),
    cookie: request.headers.get("cookie"),
    csrf: request.headers.get(csrfHeaderName),
    fetchSite: request.headers.get("sec-fetch-site"),
  });
}

/**
 * Refuses, before the request is parsed or anything runs, a request that carries the session
 * cookie without proof that it comes from Purse's own pages (request-credential.ts): HTTP 403 in
 * GraphQL's error shape. GraphiQL's page and CORS preflights are answered by yoga's own plugins
 * before this one runs; they execute nothing.
 */
export function refuseForgedSessionRequests(): Plugin {
  return {
    onRequest({ request, endResponse, fetchAPI }) {
      const { refusal } = credentialOf(request);
      if (refusal === null) return;
      endResponse(
        new fetchAPI.Response(
          JSON.stringify({
            errors: [{ message: csrfRefusalMessages[refusal], extensions: { code: refusal } }],
          }),
          { status: 403, headers: { "content-type": "application/json; charset=utf-8" } },
        ),
      );
    },
  };
}
