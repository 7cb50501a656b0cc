/**
 * Against a running Purse (CI: `purse serve` on the demo data): the wallets and the latest
 * transfers, typed from the schema. Prints one JSON line; exits 1 if the names are not Purse's.
 *
 *   PURSE_URL=http://localhost:3000 PURSE_TOKEN=... npm start
 */
import { execute, RecentTransactions, Wallets } from "./purse-graphql.ts";

const connection = {
  baseUrl: process.env["PURSE_URL"] ?? "http://localhost:3000",
  token: process.env["PURSE_TOKEN"] ?? "",
};

const { wallets } = await execute(connection, Wallets);
const { transactions } = await execute(connection, RecentTransactions, {
  first: 5,
  filter: { type: "TRANSFER" },
});
const nodes = transactions.edges.map(({ node }) => ({
  id: node.id,
  type: node.type,
  status: node.status,
  amount: `${node.amount} ${node.currency?.code ?? "?"}`,
  from: node.walletFrom?.number ?? null,
  to: node.walletTo?.number ?? null,
}));
console.log(JSON.stringify({ wallets: wallets.map((wallet) => wallet.number), transactions: nodes }));
const statuses: readonly string[] = ["PENDING", "FAIL", "SUCCESS", "CANCEL"];
if (nodes.length === 0 || nodes.some((node) => node.type !== "TRANSFER" || !statuses.includes(node.status))) {
  process.exit(1);
}
