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
          externalId
          description
          currency { code }
          walletFrom { number ownedByMe }
          walletTo { number ownedByMe }
        }
      }
      pageInfo { endCursor hasNextPage }
      totals { currency count completed moneyIn moneyOut net exact }
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
      url
    }
  }
`);

/** One transaction by id or order id (everything REST's `show` answers): the search and the detail. */
export const transactionQuery = graphql(`
  query DashboardTransaction($id: Int, $externalId: String) {
    transaction(id: $id, externalId: $externalId) {
      id
      externalId
      type
      status
      amount
      commission
      currencyCode
      refundOf
      refunded
      refunds {
        id
        amount
        createdAt
      }
      deliveries {
        kind
        messageId
        url
        eventType
        status
        attempts {
          attempt
          attemptedAt
          statusCode
          error
        }
      }
      processingPay {
        paymentId
        transactionId
        walletFrom
        walletTo
        amount
        status
        cancel
      }
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
