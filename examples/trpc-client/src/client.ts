/**
 * A typed Purse client: every procedure, input and output is checked by the compiler against the
 * server's AppRouter. Run it against a server: `PURSE_URL=http://localhost:3000 PURSE_TOKEN=... npm start`
 * (get a token with POST /token).
 */
import type { AppRouter } from "@purse/trpc";
import { createTRPCClient, httpLink, TRPCClientError } from "@trpc/client";

const baseUrl = process.env["PURSE_URL"] ?? "http://localhost:3000";
const token = process.env["PURSE_TOKEN"] ?? "";

export const purse = createTRPCClient<AppRouter>({
  links: [httpLink({ url: `${baseUrl}/trpc`, headers: () => ({ authorization: `Bearer ${token}` }) })],
});

/** Moves money between two wallets and reports either the transaction or the spec's message. */
export async function pay(walletFrom: string, walletTo: string, amount: string): Promise<string> {
  try {
    const result = await purse.transfer.mutate({
      walletFrom,
      walletTo,
      amount,
      paymentId: `example-${Date.now()}`,
    });
    return `transaction ${result.id}: ${result.message}`;
  } catch (error) {
    // The payload carries the stable engine code next to the spec's message.
    if (error instanceof TRPCClientError)
      return `refused (${error.data?.purseCode ?? "?"}): ${error.message}`;
    throw error;
  }
}

async function main(): Promise<void> {
  const wallets = await purse.wallets.query();
  for (const wallet of wallets) console.log(`${wallet.number}: ${wallet.amount} ${wallet.currency.code}`);
  const page = await purse.transactions.query({ first: 5 });
  console.log(`latest ${page.nodes.length} transactions; totals:`, page.totals);
  const [from] = wallets;
  if (from) console.log(await pay(from.number, "U100000020", "1.00"));
}

if (process.argv[1]?.endsWith("client.ts")) await main();
