/**
 * Every failure the engine can report, with the spec's exact message text, HTTP status and
 * translation key. Adapters map errors through this one table, so REST, GraphQL and tRPC can
 * never disagree about what a failure means. Adding a code without a row does not compile.
 */
export type ErrorKind =
  | "validation" // the request is well-formed but breaks a rule: 422
  | "unauthenticated" // no valid credentials: 401
  | "forbidden" // credentials valid, role wrong: 403
  | "not_found" // lookup missed, or belongs to someone else: 404
  | "conflict_busy" // a concurrent duplicate or rate limit: 422 (the spec's choice)
  | "unavailable" // a dependency (lock quorum) is down, or a movement ran out of time: 503
  | "oauth"; // the token endpoint's RFC 6749 errors, rendered as {"error": code}

export interface ErrorDefinition {
  /** The spec's message text; `%name%` placeholders are filled from the error's params. */
  readonly message: string;
  readonly status: 400 | 401 | 403 | 404 | 422 | 503;
  readonly kind: ErrorKind;
  readonly translation?: string;
}

export const errorCatalogue = {
  /** A required field is missing or empty. */
  BLANK: { message: "This value should not be blank.", status: 422, kind: "validation" },
  /** An amount is zero or negative. */
  NOT_POSITIVE: { message: "This value should be positive.", status: 422, kind: "validation" },
  /** An amount is not a decimal number. */
  NOT_NUMERIC: { message: "This value should be of type numeric.", status: 422, kind: "validation" },
  /** An amount has more decimals than the currency's precession allows (contract: validation error). */
  TOO_PRECISE: {
    message: "This value should have at most %precession% decimal places.",
    status: 422,
    kind: "validation",
  },
  /** A field has the wrong type or shape (for example an object where a string belongs). */
  INVALID_VALUE: { message: "This value is not valid.", status: 422, kind: "validation" },
  /** A text is longer than its field allows; refused before any work is done with it. */
  TOO_LONG: {
    message: "This value is too long. It should have %limit% characters or less.",
    status: 422,
    kind: "validation",
  },
  /** A date is not of the form YYYY-MM-DD. */
  INVALID_DATE: { message: "This value is not a valid date.", status: 422, kind: "validation" },
  /** A redirect or notification URL that is not an absolute http(s) URL without credentials. */
  INVALID_URL: { message: "This value is not a valid URL.", status: 422, kind: "validation" },
  /** A number is outside the allowed range (page, itemsPerPage). */
  OUT_OF_RANGE: {
    message: "This value should be between %min% and %max%.",
    status: 422,
    kind: "validation",
  },
  /** Receiver wallet missing, inactive, the sender's own wallet, or owned by the sender. */
  WALLET_TO_NOT_EXISTS: { message: "Wallet to not exists", status: 422, kind: "validation" },
  /** Sender wallet missing, inactive, or not the caller's. */
  WALLET_FROM_NOT_EXISTS: { message: "Wallet from not exists", status: 422, kind: "validation" },
  MIN_AMOUNT: {
    message: "Minimum amount exceeded %min% for %currency%",
    status: 422,
    kind: "validation",
  },
  /** Above the currency maximum, or a credit that would pass the receiver's amountLimit. */
  MAX_AMOUNT: {
    message: "Maximum amount exceeded %max% for %currency%",
    status: 422,
    kind: "validation",
  },
  CURRENCY_DISABLED: { message: "Currency is disabled", status: 422, kind: "validation" },
  DIRECTION_INACTIVE: { message: "Direction not active", status: 422, kind: "validation" },
  CURRENCIES_NOT_EQUAL: { message: "Currencies are not equals", status: 422, kind: "validation" },
  /** Transfer: the sender cannot pay amount plus commission. */
  INSUFFICIENT_FUNDS: {
    message: "balance - amount - commission < 0",
    status: 422,
    kind: "validation",
  },
  /** Checkout: the payer's wallet cannot cover the amount. */
  CHECKOUT_AMOUNT_NOT_CORRECT: { message: "Amount is not correct", status: 422, kind: "validation" },
  /** Hosted page: the payer's wallet cannot cover the amount. */
  PAY_INSUFFICIENT_FUNDS: {
    message: "Deposit your wallet, you not have funds",
    status: 422,
    kind: "validation",
  },
  SENDER_BLOCKED: {
    message: "User is blocked",
    status: 422,
    kind: "validation",
    translation: "server_error.sender_account_is_blocked",
  },
  RECIPIENT_BLOCKED: {
    message: "User is blocked",
    status: 422,
    kind: "validation",
    translation: "server_error.recipient_account_is_blocked",
  },
  /** Checkout `id` or transfer `payment_id` reused with a different request. */
  ORDER_ID_NOT_UNIQUE: { message: "Order id is not unique", status: 422, kind: "validation" },
  /** Operator payout or reversal: the wallet would go below zero. */
  OPERATOR_INSUFFICIENT_FUNDS: {
    message: "Wallet %wallet% has %balance% %currency%, not enough for this",
    status: 422,
    kind: "validation",
  },
  /** A transaction is reversed at most once. */
  ALREADY_REVERSED: {
    message: "Transaction %id% is already reversed by %by%",
    status: 422,
    kind: "validation",
  },
  /** Reversals, transactions without postings and voucher movements are not reversed (see docs/operations.md). */
  NOT_REVERSIBLE: {
    message: "Transaction %id% cannot be reversed: %reason%",
    status: 422,
    kind: "validation",
  },
  /** An operator's idempotency key was used before for a different operation. */
  OPERATOR_KEY_REUSED: {
    message: "Idempotency key already used for a different operation (transaction %id%)",
    status: 422,
    kind: "validation",
  },
  /**
   * Refund: no paid checkout into one of the caller's wallets has that transaction id or checkout
   * id. Not found, not paid and someone else's get this one answer, so ids cannot be probed.
   */
  REFUND_NOT_REFUNDABLE: { message: "Transaction cannot be refunded", status: 422, kind: "validation" },
  /** Refund: more than the checkout's amount less what was refunded already (nothing, when all was). */
  REFUND_EXCEEDS_REFUNDABLE: {
    message: "Refund amount exceeds the refundable amount",
    status: 422,
    kind: "validation",
  },
  /** Refund: the merchant's wallet cannot pay the refund back (the contract's words). */
  REFUND_INSUFFICIENT_FUNDS: {
    message: "Deposit your wallet, you not have funds",
    status: 422,
    kind: "validation",
  },
  /** Checkout `user_info` reused. */
  USER_INFO_NOT_UNIQUE: { message: "User info is not unique", status: 422, kind: "validation" },
  SIGNATURE_NOT_IDENTICAL: { message: "Signature not identical", status: 422, kind: "validation" },
  ROUTE_LOCKED: {
    message: "Route locked to avoid duplication",
    status: 422,
    kind: "conflict_busy",
  },
  RATE_LIMITED: {
    message: "Method locked please try again later",
    status: 422,
    kind: "conflict_busy",
  },
  CAPTCHA_INVALID: { message: "Captcha string", status: 422, kind: "validation" },
  HASH_NOT_VALID: { message: "Hash is not valid", status: 422, kind: "validation" },
  SCOPE_MISSED: { message: "Sorry scope missed", status: 403, kind: "forbidden" },
  UNAUTHORIZED: { message: "Unauthorized", status: 401, kind: "unauthenticated" },
  /**
   * The dashboard's sign-in: an unknown login, a wrong password and a blocked user all get this one
   * answer, so it never tells which logins exist or which part was wrong.
   */
  SIGN_IN_FAILED: { message: "Login or password is not valid", status: 422, kind: "validation" },
  VOUCHER_ACTIVATION_DISABLED: {
    message: "Voucher activation disabled",
    status: 422,
    kind: "validation",
  },
  VOUCHER_INVALID: { message: "Voucher invalid", status: 422, kind: "validation" },
  VOUCHER_CLOSED: { message: "Voucher closed", status: 422, kind: "validation" },
  ONLY_USD_WALLET: { message: "Only USD wallet allowed", status: 422, kind: "validation" },
  /** The activating user is blocked (voucher confirm). */
  USER_BLOCKED: { message: "User is blocked", status: 422, kind: "validation" },
  NOT_FOUND: { message: "Not found", status: 404, kind: "not_found" },
  /** A test-mode verb (fund a test wallet, move a test clock) called with a live token. */
  TEST_MODE_ONLY: {
    message: "Only a test token (test_…) may do this: it acts on test data only.",
    status: 403,
    kind: "forbidden",
  },
  /** PostgreSQL cannot be reached (refused, shut down, connection lost, pool exhausted): retry. */
  DATABASE_UNAVAILABLE: {
    message: "Service temporarily unavailable, try again shortly.",
    status: 503,
    kind: "unavailable",
  },
  /** The checkout link's 30 minutes are over; the merchant must create a new one. */
  CHECKOUT_EXPIRED: { message: "Payment link expired", status: 422, kind: "validation" },
  /** Route locks need a Redlock majority; without one, money never moves unlocked. */
  LOCK_UNAVAILABLE: {
    message: "Service temporarily unavailable, please try again later",
    status: 503,
    kind: "unavailable",
  },
  /**
   * A money movement could not finish safely inside its route lock's lifetime (a wallet row held
   * by another payment too long, say): it was rolled back, nothing moved, a retry is welcome.
   */
  SERVICE_BUSY: {
    message: "Service busy, please try again later",
    status: 503,
    kind: "unavailable",
  },
  /** RFC 6749 5.2: a required parameter is missing or malformed. */
  OAUTH_INVALID_REQUEST: { message: "invalid_request", status: 400, kind: "oauth" },
  /** RFC 6749 5.2: only `client_credentials` is offered. */
  OAUTH_UNSUPPORTED_GRANT_TYPE: { message: "unsupported_grant_type", status: 400, kind: "oauth" },
  /** RFC 6749 5.2 (contract: 401): unknown client or wrong secret. */
  OAUTH_INVALID_CLIENT: { message: "invalid_client", status: 401, kind: "oauth" },
  /** RFC 6749 5.2: a scope this service does not grant. */
  OAUTH_INVALID_SCOPE: { message: "invalid_scope", status: 400, kind: "oauth" },
} as const satisfies Record<string, ErrorDefinition>;

export type ErrorCode = keyof typeof errorCatalogue;
