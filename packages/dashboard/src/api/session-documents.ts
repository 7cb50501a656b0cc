import { request } from "./client.ts";
import { graphql, type ResultOf } from "./graphql.ts";

// The dashboard's session and chart fields (docs/dashboard.md), on the public API for every client.

export const signInMutation = graphql(`
  mutation DashboardSignIn($login: String!, $password: String!) {
    signIn(login: $login, password: $password) {
      __typename
      ... on MutationSignInSuccess { data { login name expiresAt } }
      ... on PurseError { message }
    }
  }
`);

const signOutMutation = graphql(`
  mutation DashboardSignOut {
    signOut
  }
`);

export const balanceHistoryQuery = graphql(`
  query DashboardBalanceHistory($wallet: String!, $from: String) {
    balanceHistory(wallet: $wallet, from: $from) { day balance }
  }
`);

export type BalancePoint = ResultOf<typeof balanceHistoryQuery>["balanceHistory"][number];

/** Null when signed in (the server set the session cookie), else the refusal's message. */
export async function signIn(login: string, password: string): Promise<string | null> {
  const { signIn: result } = await request(signInMutation, { login, password });
  return result.__typename === "PurseError" ? result.message : null;
}

export async function signOut(): Promise<void> {
  await request(signOutMutation, {});
}

export async function balanceHistory(
  wallet: string,
  from: string,
  signal?: AbortSignal,
): Promise<readonly BalancePoint[]> {
  return (await request(balanceHistoryQuery, { wallet, from }, signal)).balanceHistory;
}
