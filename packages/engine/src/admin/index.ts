export * from "./admin-catalogue.ts";
export * from "./admin-users.ts";
export * from "./admin-wallets.ts";
