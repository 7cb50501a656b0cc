import { Readable } from "node:stream";
import { exportTransactions } from "@purse/engine";
import type { FastifyReply } from "fastify";
import { z } from "zod";
import { actorOf, bearerOrSessionAuth, sessionEngineOf } from "../http/bearer.ts";
import type { RegisterRoute } from "../http/route-context.ts";
import { bearerErrors, bearerSecurity } from "../schemas/common.ts";
import { exportTransactionsQuery } from "./export-transactions.schemas.ts";

/**
 * GET /api/transactions/export: the whole filtered history as CSV (merchants only), streamed page
 * by page; a client that goes away stops the export at the next page.
 */
export const registerExportTransactions: RegisterRoute = (app, deps) => {
  app.get(
    "/api/transactions/export",
    {
      onRequest: bearerOrSessionAuth(deps),
      schema: {
        operationId: "exportTransactions",
        tags: ["Transactions"],
        summary:
          "The caller's transactions as CSV, newest first (merchants only; bearer or dashboard session)",
        security: bearerSecurity,
        querystring: exportTransactionsQuery,
        // The 200 is text/csv, streamed (never serialized: fastify sends a stream as it is).
        response: {
          200: z
            .string()
            .describe(
              "text/csv; charset=utf-8: id,created_at,type,status,wallet_from,wallet_to,currency,amount_from,amount_to,commission,external_id,refund_of,description",
            ),
          ...bearerErrors,
        },
      },
    },
    async (request, reply) => {
      const query = request.query;
      const abort = new AbortController();
      // The socket closing before the end (a cancelled download) stops the reading.
      reply.raw.on("close", () => abort.abort());
      const engine = await sessionEngineOf(request, query.mode);
      const csv = exportTransactions(
        engine,
        actorOf(request),
        {
          from: query.from ?? null,
          until: query.until ?? null,
          walletNumber: query.wallet ?? null,
          type: query.type ?? null,
          status: query.status ?? null,
          minAmount: query.minAmount ?? null,
          maxAmount: query.maxAmount ?? null,
        },
        { signal: abort.signal },
      );
      // The schema's 200 documents the CSV for clients; a stream is sent as it is, never serialized,
      // so the reply is used untyped here.
      const streamed: FastifyReply = reply;
      return (
        streamed
          .header("content-type", "text/csv; charset=utf-8")
          // Test data's file says so, beside a live export in the same downloads folder.
          .header(
            "content-disposition",
            `attachment; filename="${engine.db.mode === "test" ? "test-transactions" : "transactions"}.csv"`,
          )
          .header("cache-control", "no-store")
          .send(Readable.from(csv, { objectMode: false }))
      );
    },
  );
};
