import createClient from "openapi-fetch";
import type { paths } from "./purse-api.generated.ts";

/** A Purse REST client typed from the committed OpenAPI document (packages/rest/openapi.json). */
export function pursePayments(baseUrl: string) {
  return createClient<paths>({ baseUrl });
}

export interface DemoRun {
  readonly token: string;
  readonly wallets: { number: string; amount: number; currency: string }[];
  readonly transferId: number;
}

/** Token, wallets, transfer: the first three calls of an integration, every one typed. */
export async function runDemo(
  baseUrl: string,
  credentials: { clientId: string; clientSecret: string },
  transfer: { walletFrom: string; walletTo: string; amount: string },
): Promise<DemoRun> {
  const purse = pursePayments(baseUrl);
  const issued = await purse.POST("/token", {
    body: {
      grant_type: "client_credentials",
      client_id: credentials.clientId,
      client_secret: credentials.clientSecret,
      scope: "api",
    },
  });
  if (!issued.data) throw new Error(`token: ${JSON.stringify(issued.error)}`);
  const token = issued.data.access_token;
  const headers = { authorization: `Bearer ${token}` };

  const listed = await purse.GET("/api/wallets", { headers });
  if (!listed.data) throw new Error(`wallets: ${listed.error?.message}`);

  const moved = await purse.POST("/api/transaction/transfer", {
    headers,
    body: { wallet_from: transfer.walletFrom, wallet_to: transfer.walletTo, amount: transfer.amount },
  });
  // Errors come back in the contract's shape: { status: false, message, errors?, translation? }.
  if (!moved.data) throw new Error(`transfer: ${moved.error?.message}`);

  return {
    token,
    wallets: listed.data.data.map((wallet) => ({
      number: wallet.number,
      amount: wallet.amount,
      currency: wallet.currency.code,
    })),
    transferId: moved.data.data.id,
  };
}
