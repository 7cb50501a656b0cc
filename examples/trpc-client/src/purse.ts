/**
 * A typed Purse client for a browser or Node: queries and mutations over HTTP, the
 * `transactionUpdated` subscription over Server-Sent Events. Both send the bearer token in the
 * Authorization header; a browser's own EventSource cannot send headers, so the subscription uses
 * the `eventsource` ponyfill with a fetch that adds it (tRPC's httpSubscriptionLink docs: custom
 * headers through a ponyfill). The token never goes into a URL.
 */
import { createTRPCClient, httpLink, httpSubscriptionLink, splitLink } from "@trpc/client";
import { EventSource } from "eventsource";
import type { AppRouter } from "purse-client";

export interface PurseConnection {
  /** Where Purse answers, e.g. "http://localhost:3000". */
  readonly baseUrl: string;
  /** An access token from POST /token (client credentials). */
  readonly token: string;
}

export function createPurse({ baseUrl, token }: PurseConnection) {
  const url = `${baseUrl.replace(/\/+$/, "")}/trpc`;
  const authorization = `Bearer ${token}`;
  return createTRPCClient<AppRouter>({
    links: [
      splitLink({
        condition: (operation) => operation.type === "subscription",
        true: httpSubscriptionLink({
          url,
          EventSource,
          eventSourceOptions: () => ({
            fetch: (input, init) => fetch(input, { ...init, headers: { ...init.headers, authorization } }),
          }),
        }),
        false: httpLink({ url, headers: () => ({ authorization }) }),
      }),
    ],
  });
}

export type Purse = ReturnType<typeof createPurse>;
