import { listVouchers } from "@purse/engine";
import { actorOf, bearerAuth } from "../http/bearer.ts";
import type { RegisterRoute } from "../http/route-context.ts";
import { bearerSecurity, ok } from "../schemas/common.ts";
import { listVouchersQuery, listVouchersResponses, purchasedVoucher } from "./list-vouchers.schemas.ts";

/** GET /api/vouchers?page=N: the vouchers the caller bought, with their codes (beyond the spec). */
export const registerListVouchers: RegisterRoute = (app, deps) => {
  app.get(
    "/api/vouchers",
    {
      onRequest: bearerAuth(deps),
      schema: {
        operationId: "listVouchers",
        tags: ["Vouchers"],
        summary: "The caller's purchased vouchers, newest first, with their codes",
        security: bearerSecurity,
        querystring: listVouchersQuery,
        response: listVouchersResponses,
      },
    },
    async (request) => {
      const { items, meta } = await listVouchers(deps, actorOf(request), { page: request.query.page });
      return ok({
        items: items.map(purchasedVoucher),
        meta: { page: meta.page, per_page: meta.perPage, total: meta.total, last_page: meta.lastPage },
      });
    },
  );
};
