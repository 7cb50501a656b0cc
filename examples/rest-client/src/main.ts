import { runDemo } from "./purse-client.ts";

// Against `npm start`'s demo data: BASE_URL=http://localhost:3000 npm start -w @purse/example-rest-client
const result = await runDemo(
  process.env["BASE_URL"] ?? "http://localhost:3000",
  { clientId: "acme", clientSecret: "acme-secret" },
  { walletFrom: "U100000010", walletTo: "U100000020", amount: "1.00" },
);
console.log(`transfer ${result.transferId}; wallets:`, result.wallets);
