/**
 * Purse's typed front-end surface: the tRPC router's type and the contract it carries (inputs,
 * outputs, error codes, enum names). Types only, apart from the enum names as constants; a front
 * end pairs it with `@trpc/client` of the same version as the `@trpc/server` peer.
 */
import type { AppRouter } from "@purse/trpc";
import type { inferRouterError, inferRouterInputs, inferRouterOutputs } from "@trpc/server";

export type { AppRouter };

/** Every procedure's input, by name: `PurseInputs["transfer"]`. */
export type PurseInputs = inferRouterInputs<AppRouter>;
/** Every procedure's output, by name: `PurseOutputs["transactions"]["nodes"][number]`. */
export type PurseOutputs = inferRouterOutputs<AppRouter>;

/** The `data` of a refusal: `purseCode` is the engine's stable code, `field` the input it names. */
export type PurseErrorData = inferRouterError<AppRouter>["data"];
/** The engine's stable error codes (`INSUFFICIENT_FUNDS`, `ROUTE_LOCKED`, ...). */
export type PurseErrorCode = NonNullable<PurseErrorData["purseCode"]>;

export type Wallet = PurseOutputs["wallets"][number];
export type TransactionPage = PurseOutputs["transactions"];
export type TransactionNode = TransactionPage["nodes"][number];
export type TransactionDetail = PurseOutputs["transaction"];
export type TransactionSearch = NonNullable<PurseInputs["transactions"]>;
export type TransferInput = PurseInputs["transfer"];
export type TransferResult = PurseOutputs["transfer"];
export type CheckoutInput = PurseInputs["checkout"];
export type CheckoutResult = PurseOutputs["checkout"];
/** One event of the `transactionUpdated` subscription. */
export type TransactionUpdate =
  PurseOutputs["transactionUpdated"] extends AsyncIterable<infer Event> ? Event : never;

/** Transaction types by name, as tRPC and GraphQL give them (REST keeps the numbers 1, 2, 3). */
export const transactionTypes = ["TRANSFER", "DEPOSIT", "WITHDRAW"] as const;
export type TransactionType = (typeof transactionTypes)[number];

/** Transaction statuses by name (REST's numbers 1 to 4, in that order). */
export const transactionStatuses = ["PENDING", "FAIL", "SUCCESS", "CANCEL"] as const;
export type TransactionStatus = (typeof transactionStatuses)[number];

/** Compiles only while A and B are the same type: the names above cannot drift from the router's. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const sameNames: [
  Same<TransactionType, TransactionNode["type"]>,
  Same<TransactionStatus, TransactionNode["status"]>,
  Same<TransactionType, TransactionUpdate["type"]>,
  Same<TransactionStatus, TransactionUpdate["status"]>,
] = [true, true, true, true];
void sameNames;
