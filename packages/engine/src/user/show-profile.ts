import type { Actor } from "../auth/actor.ts";
import { requireAccess } from "../auth/authenticate.ts";
import { findUser } from "../auth/user-store.ts";
import type { EngineDependencies } from "../engine-dependencies.ts";
import { formatTimestamp } from "../output/timestamps.ts";

/**
 * The caller's profile in the shape existing clients read. Purse keeps a user's name, role and
 * creation time; everything those clients know from elsewhere (contact details, documents,
 * per-user commissions, sign-in tracking) Purse does not store, and answers `null` rather than
 * inventing it. No secret ever appears: `codephrase` is always null.
 */
export interface UserProfileView {
  readonly id: number;
  readonly email: null;
  readonly fullname: string;
  /** `YYYY-MM-DD HH:MM:SS`, UTC. */
  readonly dateCreated: string;
  readonly country: null;
  readonly city: null;
  readonly address: null;
  readonly zipcode: null;
  readonly phone: null;
  readonly lastlogin: null;
  readonly lastip: null;
  /** Purse's commissions are per currency and operation (see the wallet list), not per user. */
  readonly withdrawCommission: null;
  readonly processingCommission: null;
  readonly documentUploaded: null;
  readonly documentVerify: null;
  /** Partners are the exchangers (their checkouts and transfers are labelled Sell and Buy Funds). */
  readonly isExcharger: boolean;
  readonly codephrase: null;
}

/** The profile of the user behind the token, never anyone else's. */
export async function showProfile(deps: EngineDependencies, actor: Actor): Promise<UserProfileView> {
  requireAccess(actor);
  const row = await deps.db.fresh((em) => findUser(em, actor.userId));
  if (!row) throw new Error(`user ${actor.userId} behind a valid token is gone`);
  return {
    id: row.id,
    email: null,
    fullname: row.name,
    dateCreated: formatTimestamp(row.createdAt),
    country: null,
    city: null,
    address: null,
    zipcode: null,
    phone: null,
    lastlogin: null,
    lastip: null,
    withdrawCommission: null,
    processingCommission: null,
    documentUploaded: null,
    documentVerify: null,
    isExcharger: row.role === "partner",
    codephrase: null,
  };
}
