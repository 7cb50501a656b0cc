import { z } from "zod";
import type { ContractShape } from "../input/contract-fields.ts";
import type { UserProfileView } from "./show-profile.ts";

const unknown = (description: string) =>
  z.null().describe(`${description}; Purse does not keep it: always null`);

/**
 * The caller's profile in the shape existing clients read; REST's names are these in snake_case
 * (`date_created`, `is_excharger`, ...).
 */
export const profileContract = z
  .object({
    id: z.number(),
    email: unknown("E-mail address"),
    fullname: z.string().describe("The user's name"),
    dateCreated: z.string().describe("YYYY-MM-DD HH:MM:SS, UTC"),
    country: unknown("Country"),
    city: unknown("City"),
    address: unknown("Street address"),
    zipcode: unknown("Postal code"),
    phone: unknown("Phone number"),
    lastlogin: unknown("Last sign-in time"),
    lastip: unknown("Last sign-in address"),
    withdrawCommission: unknown("Per-user withdraw commission (Purse's commissions are per currency)"),
    processingCommission: unknown("Per-user processing commission (Purse's commissions are per currency)"),
    documentUploaded: unknown("Identity document uploaded"),
    documentVerify: unknown("Identity document verified"),
    isExcharger: z.boolean().describe("True for partners (exchangers), false for merchants"),
    codephrase: z.null().describe("Never sent: always null"),
  } satisfies ContractShape<UserProfileView>)
  .describe("The caller's profile as GET /api/user/me shows it; what Purse does not store is null");
