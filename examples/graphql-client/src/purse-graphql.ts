/** Typed GraphQL documents and one fetch-based executor: the variables and the answer are typed. */
import { graphql } from "./gql/gql.ts";
import type { TypedDocumentString } from "./gql/graphql.ts";

export const Wallets = graphql(`
  query Wallets {
    wallets { number amount currency { code } }
  }
`);

export const RecentTransactions = graphql(`
  query RecentTransactions($first: Int!, $filter: TransactionFilter) {
    transactions(first: $first, filter: $filter) {
      edges { node { id type status amount currency { code } walletFrom { number } walletTo { number } } }
    }
  }
`);

export interface GraphqlConnection {
  readonly baseUrl: string;
  readonly token: string;
}

/** Runs one typed document against Purse's /graphql with the bearer token. */
export async function execute<Result, Variables>(
  connection: GraphqlConnection,
  document: TypedDocumentString<Result, Variables>,
  ...[variables]: Variables extends Record<string, never> ? [] : [Variables]
): Promise<Result> {
  const response = await fetch(`${connection.baseUrl.replace(/\/+$/, "")}/graphql`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/graphql-response+json",
      authorization: `Bearer ${connection.token}`,
    },
    body: JSON.stringify({ query: document.toString(), variables }),
  });
  const body = (await response.json()) as { data?: Result; errors?: { message: string }[] };
  if (body.errors?.length || body.data === undefined) {
    throw new Error(body.errors?.map((error) => error.message).join("; ") ?? `HTTP ${response.status}`);
  }
  return body.data;
}
