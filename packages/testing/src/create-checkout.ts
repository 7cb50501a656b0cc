import { checkoutSignature } from "@purse/engine";
import type { HttpClient } from "./http-client.ts";

let sequence = 0;

/**
 * Creates a checkout from bolt's wallet to acme's (the sample world) over REST, through the one
 * test client; returns the link, its token and its payment id.
 */
export async function createCheckout(
  api: Pick<HttpClient, "call">,
  site: { url: string },
  amount = "25.00",
): Promise<{ url: string; token: string; paymentId: string }> {
  sequence += 1;
  const paymentId = `order-${process.pid}-${sequence}`;
  const fields = { wallet_to: "U100000010", wallet_from: "U100000020", amount, id: paymentId };
  const response = await api.call<{ data: { url: string } }>("POST", "/api/processing/checkout", {
    body: {
      ...fields,
      signature: checkoutSignature(fields, "acme-form-token"),
      success_url: `${site.url}/success`,
      cancel_url: `${site.url}/cancel`,
      status_url: `${site.url}/webhook`,
      user_info: `payer-${paymentId}`,
    },
  });
  if (response.status !== 200) throw new Error(`checkout: ${JSON.stringify(response.body)}`);
  const url = response.body.data.url;
  return { url, token: url.slice(url.lastIndexOf("/") + 1), paymentId };
}
