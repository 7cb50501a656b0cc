import { graphql } from "./graphql.ts";

// Every document the dashboard sends, checked against packages/graphql/schema.graphql.

export const meQuery = graphql(`
  query DashboardMe {
    me { id name role }
  }
`);

export const walletsQuery = graphql(`
  query DashboardWallets {
    wallets {
      number
      amount
      status
      currency { code name prefix }
    }
  }
`);

export const transactionsQuery = graphql(`
  query DashboardTransactions($first: Int, $after: String, $filter: TransactionFilter) {
    transactions(first: $first, after: $after, filter: $filter) {
      edges {
        cursor
        node {
          id
          createdAt
          type
          status
          amount
          amountFrom
          amountTo
          commission
          description
          currency { code }
          walletFrom { number ownedByMe }
          walletTo { number ownedByMe }
        }
      }
      pageInfo { endCursor hasNextPage }
      totals { currency count amount commission exact }
    }
  }
`);

export const checkoutsQuery = graphql(`
  query DashboardCheckouts($before: String, $limit: Int) {
    checkouts(before: $before, limit: $limit) {
      paymentId
      amount
      commission
      currency
      status
      createdAt
      expiredAt
      completedAt
      walletFrom
      walletTo
      refunded
    }
  }
`);

export const statementQuery = graphql(`
  query DashboardStatement($wallet: String!, $from: String!, $to: String) {
    statement(wallet: $wallet, from: $from, to: $to) {
      __typename
      ... on QueryStatementSuccess {
        data {
          wallet
          currency
          from
          to
          openingBalance
          closingBalance
          totalIn
          totalOut
          lines { transactionId }
        }
      }
      ... on PurseError { message field }
    }
  }
`);

/** Only which transaction changed: the dashboard re-reads what it shows (one source of truth). */
export const liveSubscription = graphql(`
  subscription DashboardLive {
    transactionUpdated { transactionId at }
  }
`);
