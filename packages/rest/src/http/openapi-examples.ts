import { checkoutSignature } from "@purse/engine";

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

const checkoutFields = {
  wallet_to: demoValues.merchantWallet,
  wallet_from: demoValues.partnerWallet,
  amount: "10.00",
  id: "order-1001",
};

/** A request body example per operation that takes a body, keyed by operationId. */
export const requestBodyExamples: Readonly<Record<string, Record<string, unknown>>> = {
  issueToken: {
    grant_type: "client_credentials",
    client_id: demoValues.clientId,
    client_secret: demoValues.clientSecret,
    scope: "api",
  },
  revokeToken: { token: "<access_token from POST /token>", token_type_hint: "access_token" },
  createCheckout: {
    ...checkoutFields,
    // Really verifies: the demo merchant's form token signs the fields above (docs/signing.md).
    signature: checkoutSignature(checkoutFields, demoValues.formToken),
    success_url: "https://shop.example/success",
    cancel_url: "https://shop.example/cancel",
    status_url: "https://shop.example/purse/webhook",
    user_info: "payer-1001",
  },
  payCheckout: {
    token: "<the last part of the payment link's URL>",
    login: "bolt",
    password: "bolt-pass",
    captcha: "<the captcha widget's payload>",
    action: "pay",
  },
  transferFunds: {
    wallet_from: demoValues.merchantWallet,
    wallet_to: demoValues.partnerWallet,
    amount: "10.00",
    payment_id: "transfer-1001",
    description: "Invoice 1001",
  },
  refundCheckout: {
    external_id: "order-1001",
    amount: "5.00",
    reason: "One item returned",
  },
  buyVoucher: { amount: "25.00", wallet_from: demoValues.partnerWallet, additional: "" },
  buyVoucherByConfirm: { amount: "25.00", wallet_from: demoValues.partnerWallet, additional: "" },
  confirmVoucherActivation: {
    voucher_number: "V-0001",
    voucher_code: "1111-2222-3333",
    wallet_to: demoValues.merchantWallet,
    additional: "",
  },
};
