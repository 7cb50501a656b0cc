import type { Actor } from "../auth/actor.ts";
import { requireAccess } from "../auth/authenticate.ts";
import type { EngineDependencies } from "../engine-dependencies.ts";
import { PurseError } from "../errors/index.ts";
import { refuseNul } from "../input/text-fields.ts";
import { listPurchasedVouchers, type PurchasedVoucherView } from "./purchased-vouchers.ts";

/** Vouchers per page of the buyer's list (the clients that read it send no page size). */
export const vouchersPerPage = 20;

/** Pages beyond this are refused: an offset this large is never a real request. */
export const maxVoucherPage = 100_000;

export interface VoucherPage {
  readonly items: PurchasedVoucherView[];
  readonly meta: { page: number; perPage: number; total: number; lastPage: number };
}

/**
 * The caller's purchased vouchers, newest first, with their codes: only vouchers the caller bought
 * (created) are ever listed, so a code is never shown to anyone but its buyer.
 */
export async function listVouchers(
  deps: EngineDependencies,
  actor: Actor,
  input: { readonly page?: string | number | null },
): Promise<VoucherPage> {
  requireAccess(actor);
  const page = readPage(input.page);
  const { items, total } = await deps.db.read((em) =>
    listPurchasedVouchers(
      em,
      deps.secretBox,
      actor.userId,
      { offset: (page - 1) * vouchersPerPage, limit: vouchersPerPage },
      deps.now(),
    ),
  );
  return {
    items,
    meta: {
      page,
      perPage: vouchersPerPage,
      total,
      lastPage: Math.max(1, Math.ceil(total / vouchersPerPage)),
    },
  };
}

/** `page`: absent or empty means 1; otherwise a whole number from 1 to `maxVoucherPage`. */
function readPage(value: string | number | null | undefined): number {
  if (value === undefined || value === null) return 1;
  const text = refuseNul(String(value).trim(), "page");
  if (text === "") return 1;
  if (!/^-?\d+$/.test(text)) throw new PurseError("NOT_NUMERIC", "page");
  const page = Number(text);
  if (page < 1 || page > maxVoucherPage)
    throw new PurseError("OUT_OF_RANGE", "page", { min: 1, max: maxVoucherPage });
  return page;
}
