import {
  checkoutSignature,
  createClient,
  createWallet,
  fundTestWallet,
  type IssuedClient,
} from "@purse/engine";
import type { TestServer } from "./test-server.ts";

/** A merchant's test credentials and test wallets, made as `purse clients create --test` makes them. */
export interface TestAccount {
  readonly client: IssuedClient;
  /** A test access token from POST /token with the test credentials. */
  readonly token: string;
  /** The test wallets by currency code (`test_…` numbers). */
  readonly wallets: Record<string, string>;
}

/**
 * Test credentials for `login`, a funded test wallet per currency in `funds`, and a test token got
 * through `/token` as an integrator gets it.
 */
export async function openTestAccount(
  api: TestServer,
  login: string,
  funds: Record<string, string>,
): Promise<TestAccount> {
  const { runtime } = api.server;
  const testDb = runtime.db.testMode;
  if (!testDb) throw new Error("the server has no test mode");
  const client = await createClient(testDb, runtime.deps.secretBox, login);
  const wallets: Record<string, string> = {};
  for (const [currency, amount] of Object.entries(funds)) {
    const number = await createWallet(testDb, { login, currency, amountLimit: "1000000" });
    if (amount !== "0") await fundTestWallet(runtime.deps, { wallet: number, amount, operator: "tests" });
    wallets[currency] = number;
  }
  const token = await api.token(client.clientId, client.clientSecret);
  return { client, token, wallets };
}

/** A signed checkout into a test wallet (`wallet_to` names test mode), as a merchant's shop makes it. */
export async function createTestCheckout(
  api: TestServer,
  merchant: TestAccount,
  payerWallet: string,
  amount: string,
  paymentId: string,
  site = "https://shop.example",
): Promise<{ url: string; token: string; status: number; body: Record<string, unknown> }> {
  const walletTo = merchant.wallets["USD"] ?? "";
  const fields = { wallet_to: walletTo, wallet_from: payerWallet, amount, id: paymentId };
  const response = await api.call<{ data?: { url: string } }>("POST", "/api/processing/checkout", {
    body: {
      ...fields,
      signature: checkoutSignature(fields, merchant.client.formToken),
      success_url: `${site}/success`,
      cancel_url: `${site}/cancel`,
      status_url: `${site}/status/${paymentId}`,
      user_info: `payer-${paymentId}`,
    },
  });
  const url = response.body.data?.url ?? "";
  return {
    url,
    token: url.slice(url.lastIndexOf("/") + 1),
    status: response.status,
    body: response.body as Record<string, unknown>,
  };
}
