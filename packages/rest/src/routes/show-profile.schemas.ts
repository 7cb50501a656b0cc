import { z } from "zod";
import { bearerErrors, envelope } from "../schemas/common.ts";

const unknown = (description: string) =>
  z.null().describe(`${description}; Purse does not keep it: always null`);

/** Field names as existing clients read them (`is_excharger` included). */
const profile = z
  .object({
    id: z.number(),
    email: unknown("E-mail address"),
    fullname: z.string().describe("The user's name"),
    date_created: z.string().describe("YYYY-MM-DD HH:MM:SS, UTC"),
    country: unknown("Country"),
    city: unknown("City"),
    address: unknown("Street address"),
    zipcode: unknown("Postal code"),
    phone: unknown("Phone number"),
    lastlogin: unknown("Last sign-in time"),
    lastip: unknown("Last sign-in address"),
    withdraw_commission: unknown("Per-user withdraw commission (Purse's commissions are per currency)"),
    processing_commission: unknown("Per-user processing commission (Purse's commissions are per currency)"),
    document_uploaded: unknown("Identity document uploaded"),
    document_verify: unknown("Identity document verified"),
    is_excharger: z.boolean().describe("True for partners (exchangers), false for merchants"),
    codephrase: z.null().describe("Never sent: always null"),
  })
  .meta({ id: "UserProfile" });

export type UserProfile = z.infer<typeof profile>;

export const showProfileResponses = {
  200: envelope(profile).describe("The caller's own profile"),
  ...bearerErrors,
} as const;
