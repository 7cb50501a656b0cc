/**
 * The same client from Node, end to end against a running Purse (CI runs it against `purse serve`
 * on the demo data): a token, the wallets, a transfer, and the transfer's event from the
 * subscription, with type and status by name. Prints one JSON line; exits 1 on any mismatch.
 *
 *   PURSE_URL=http://localhost:3000 PURSE_CLIENT_ID=acme PURSE_CLIENT_SECRET=acme-secret npm start
 */
import type { TransactionUpdate } from "purse-client";
import { transactionStatuses, transactionTypes } from "purse-client";
import { createPurse } from "./purse.ts";

const baseUrl = process.env["PURSE_URL"] ?? "http://localhost:3000";
const walletFrom = process.env["PURSE_WALLET_FROM"] ?? "U100000010";
const walletTo = process.env["PURSE_WALLET_TO"] ?? "U100000020";

async function token(): Promise<string> {
  const response = await fetch(`${baseUrl}/token`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      grant_type: "client_credentials",
      client_id: process.env["PURSE_CLIENT_ID"] ?? "acme",
      client_secret: process.env["PURSE_CLIENT_SECRET"] ?? "acme-secret",
      scope: "api",
    }),
  });
  const body = (await response.json()) as { access_token?: string };
  if (!body.access_token) throw new Error(`POST /token answered ${response.status}`);
  return body.access_token;
}

const purse = createPurse({ baseUrl, token: await token() });
const wallets = await purse.wallets.query();

const updates: TransactionUpdate[] = [];
let opened: () => void = () => undefined;
const started = new Promise<void>((resolve) => {
  opened = resolve;
});
const subscription = purse.transactionUpdated.subscribe(undefined, {
  onStarted: () => opened(),
  onData: (update) => updates.push(update),
  onError: (error) => console.error(`subscription: ${error.message}`),
});
await started;
// The stream is open; give the server a moment to join this user's events before moving money.
await new Promise((resolve) => setTimeout(resolve, 300));

const transfer = await purse.transfer.mutate({
  walletFrom,
  walletTo,
  amount: "1.25",
  paymentId: `example-${Date.now()}`,
});
const deadline = Date.now() + 10_000;
while (!updates.some((update) => update.transactionId === transfer.id) && Date.now() < deadline) {
  await new Promise((resolve) => setTimeout(resolve, 100));
}
subscription.unsubscribe();
const event = updates.find((update) => update.transactionId === transfer.id);
const page = await purse.transactions.query({ first: 5 });
const listed = page.nodes.find((node) => node.id === transfer.id);

const result = {
  wallets: wallets.map((wallet) => `${wallet.number} ${wallet.currency.code}`),
  transferId: transfer.id,
  event: event && { type: event.type, status: event.status },
  listed: listed && {
    type: listed.type,
    status: listed.status,
    from: listed.walletFrom,
    to: listed.walletTo,
    currency: listed.currency,
  },
};
console.log(JSON.stringify(result));
const named = (value: { type: string; status: string } | undefined) =>
  value !== undefined &&
  (transactionTypes as readonly string[]).includes(value.type) &&
  (transactionStatuses as readonly string[]).includes(value.status);
if (!named(result.event) || !named(result.listed) || listed?.walletFrom !== walletFrom) process.exit(1);
