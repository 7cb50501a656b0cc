import { countSent, createTestEngine, type TestEngine } from "@purse/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { issueOperatorToken } from "../admin/operator-access.ts";
import type { EngineDependencies } from "../engine-dependencies.ts";
import { PurseError } from "../errors/index.ts";
import { openDatabase } from "../persistence/database.ts";
import { firstRow, sql } from "../persistence/sql.ts";
import { authenticate } from "./authenticate.ts";
import { apiScope, issueToken } from "./issue-token.ts";
import { storeClientToken } from "./store-client-token.ts";
import { inProcessRevocationChannel, TokenCache } from "./token-cache.ts";

/**
 * Contract, "Tokens for clients that ask every call": a client holds at most `maxLiveTokens` live
 * tokens, its oldest revoked first, in the transaction that issues the new one.
 */
describe("the bound on a client's live tokens", () => {
  const bound = 3;
  let engine: TestEngine;
  let deps: EngineDependencies;

  beforeAll(async () => {
    engine = await createTestEngine();
    deps = {
      ...engine.deps,
      options: { ...engine.deps.options, maxLiveTokens: bound },
      // A minute's cache: only the revocation's announcement can end an entry in this test.
      tokenCache: new TokenCache({ ttlMs: 60_000, channel: inProcessRevocationChannel() }),
    };
  });
  afterAll(() => engine.close());

  const issue = async (on: EngineDependencies = deps) =>
    (await issueToken(on, { grantType: "client_credentials", clientId: "acme", clientSecret: "acme-secret" }))
      .access_token;
  const works = (token: string) =>
    authenticate(deps, token).then(
      () => "works",
      (error: unknown) => (PurseError.is(error) ? error.code : String(error)),
    );
  const rowsOfAcme = async () =>
    Number(
      (
        await firstRow(
          deps.db.em(),
          sql<{
            count: string;
          }>`select count(*) as count from access_tokens t join clients c on c.id = t.client_id
            where c.client_id = 'acme' and t.scope = 'api'`,
        )
      )?.count,
    );

  it("revokes the oldest when one more is issued, at once in this process's cache too", async () => {
    const tokens = [await issue(), await issue(), await issue()];
    // Cached now: only the announcement can make them fail before a minute has passed.
    expect(await Promise.all(tokens.map(works))).toEqual(["works", "works", "works"]);
    const fourth = await issue();
    const fifth = await issue();
    expect(await Promise.all([...tokens, fourth, fifth].map(works))).toEqual([
      "UNAUTHORIZED",
      "UNAUTHORIZED",
      "works",
      "works",
      "works",
    ]);
    // Pushed-out tokens are deleted, not kept for the prune: the table holds the bound, no more.
    expect(await rowsOfAcme()).toBe(bound);
  });

  it("holds under parallel issuance from two database pools (two processes' worth)", async () => {
    const other = await openDatabase({ kind: "postgres", url: engine.database.url }, { poolSize: 10 });
    try {
      const elsewhere = { ...deps, db: other };
      const acme = await firstRow(
        deps.db.em(),
        sql<{ id: string; user_id: string }>`
        select id, user_id from clients where client_id = 'acme'`,
      );
      // Straight to the store, past the secret's hash: the hash would space the transactions out.
      const hashes = Array.from({ length: 60 }, (_, index) => `parallel-${index}`);
      await Promise.all(
        hashes.map((tokenHash, index) =>
          storeClientToken(index % 2 === 0 ? deps : elsewhere, {
            tokenHash,
            clientId: Number(acme?.id),
            userId: Number(acme?.user_id),
            scope: apiScope,
            expiresAt: new Date(Date.now() + 60_000),
          }),
        ),
      );
      expect(await rowsOfAcme()).toBe(bound);
    } finally {
      await other.close();
    }
  });

  it("stores a token in one round trip, so the client's row lock never waits on this process", async () => {
    const acme = await firstRow(
      deps.db.em(),
      sql<{ id: string; user_id: string }>`
      select id, user_id from clients where client_id = 'acme'`,
    );
    const sent = await countSent(deps.db, () =>
      storeClientToken(deps, {
        tokenHash: "one-round-trip",
        clientId: Number(acme?.id),
        userId: Number(acme?.user_id),
        scope: apiScope,
        expiresAt: new Date(Date.now() + 60_000),
      }),
    );
    expect(sent.roundTrips).toBe(1);
    expect(sent.statements.map((statement) => statement.name ?? statement.text)).toEqual([
      "begin; set local",
      "set local synchronous_commit",
      "purse_token_lock",
      "purse_token_insert",
      "commit",
    ]);
  });

  it("leaves an operator's token issued through the client alone", async () => {
    const operator = await issueOperatorToken(deps.db, {
      clientId: "acme",
      operator: "ops@example",
      lifetimeSeconds: 600,
      now: deps.now(),
    });
    for (let index = 0; index <= bound; index += 1) await issue();
    expect(await works(operator.accessToken)).toBe("works");
  });
});
