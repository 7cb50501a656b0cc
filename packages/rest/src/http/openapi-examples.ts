/**
 * The demo fixture's values (fixtures/demo.json, what `npm start` seeds), so every example body on
 * the reference page works as is against a fresh `npm start`.
 */
export const demoValues = {
  clientId: "acme",
  clientSecret: "acme-secret",
  formToken: "acme-form-token",
  merchantWallet: "U100000010",
  partnerWallet: "U100000020",
} as const;

/**
 * The request body examples of the routes that are no operation's (RFC 6749's token routes),
 * keyed by operationId; an operation's route states its own (`RouteContract.example`).
 */
export const tokenRouteExamples: Readonly<Record<string, Record<string, unknown>>> = {
  issueToken: {
    grant_type: "client_credentials",
    client_id: demoValues.clientId,
    client_secret: demoValues.clientSecret,
    scope: "api",
  },
  revokeToken: { token: "<access_token from POST /token>", token_type_hint: "access_token" },
};
