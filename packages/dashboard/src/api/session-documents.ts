import { send } from "./client.ts";

// The dashboard's session and chart fields (docs/dashboard.md), on the public API for every client.
// They arrive in packages/graphql/schema.graphql with the session API (branch dash-server); until
// then they are sent as text with their agreed result types written out here, and become typed
// documents checked by gql.tada like the others once the schema has them.

export interface BalancePoint {
  readonly day: string;
  readonly balance: string;
}

type SignInResult =
  | { readonly __typename: "MutationSignInSuccess"; readonly data: { readonly name: string } }
  | { readonly __typename: "PurseError"; readonly message: string };

const signInText = `mutation DashboardSignIn($login: String!, $password: String!) {
  signIn(login: $login, password: $password) {
    __typename
    ... on MutationSignInSuccess { data { login name expiresAt } }
    ... on PurseError { message }
  }
}`;

/** Null when signed in (the server set the session cookie), else the refusal's message. */
export async function signIn(login: string, password: string): Promise<string | null> {
  const { signIn: result } = await send<{ signIn: SignInResult }>(signInText, { login, password });
  return result.__typename === "PurseError" ? result.message : null;
}

export async function signOut(): Promise<void> {
  await send<{ signOut: boolean }>("mutation DashboardSignOut { signOut }", {});
}

const balanceHistoryText = `query DashboardBalanceHistory($wallet: String!, $from: String) {
  balanceHistory(wallet: $wallet, from: $from) { day balance }
}`;

export async function balanceHistory(
  wallet: string,
  from: string,
  signal?: AbortSignal,
): Promise<readonly BalancePoint[]> {
  const answer = await send<{ balanceHistory: BalancePoint[] }>(balanceHistoryText, { wallet, from }, signal);
  return answer.balanceHistory;
}
