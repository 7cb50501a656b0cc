export { userIdByLogin } from "../auth/user-store.ts";
export * from "./admin-catalogue.ts";
export * from "./admin-users.ts";
export * from "./admin-wallets.ts";
export * from "./operator-access.ts";
export * from "./operator-movement.ts";
export * from "./pay-out-wallet.ts";
export * from "./reverse-transaction.ts";
