import type { AppRouter } from "@purse/trpc";
import { createTRPCClient, httpLink, TRPCClientError } from "@trpc/client";

/** A tRPC client of a test server over HTTP (httpLink), with a bearer token when given one. */
export function trpcClient(baseUrl: string, token?: string) {
  const headers = token === undefined ? {} : { authorization: `Bearer ${token}` };
  return createTRPCClient<AppRouter>({ links: [httpLink({ url: `${baseUrl}/trpc`, headers })] });
}

/** What `work` returns, or the message of tRPC's refusal of it (any other error is thrown). */
export async function trpcOutcome<T>(work: () => Promise<T>): Promise<T | string> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof TRPCClientError) return error.message;
    throw error;
  }
}
