import { createTestEngine, type TestEngine } from "@purse/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EngineDependencies } from "../engine-dependencies.ts";
import { PurseError } from "../errors/index.ts";
import { sql } from "../persistence/sql.ts";
import { hashOpaqueToken } from "../secrets/index.ts";
import { transferFunds } from "../transfer/transfer-funds.ts";
import type { Actor } from "./actor.ts";
import { authenticate } from "./authenticate.ts";
import { issueToken, revokeToken } from "./issue-token.ts";
import { inProcessRevocationChannel, TokenCache } from "./token-cache.ts";

const outcome = (promise: Promise<Actor>) =>
  promise.then(
    (actor) => `user ${actor.userId}`,
    (error: unknown) => (PurseError.is(error) ? error.code : String(error)),
  );

describe("token verification cache", () => {
  let engine: TestEngine;
  let deps: EngineDependencies;
  let clock = Date.now();

  beforeAll(async () => {
    engine = await createTestEngine({
      now: () => new Date(clock),
    });
    deps = {
      ...engine.deps,
      tokenCache: new TokenCache({ ttlMs: 60_000, channel: inProcessRevocationChannel() }),
    };
  });
  afterAll(() => engine.close());

  const token = async () =>
    (
      await issueToken(deps, {
        grantType: "client_credentials",
        clientId: "acme",
        clientSecret: "acme-secret",
      })
    ).access_token;

  it("answers a verified token from memory for the cache's lifetime (the bound on a lost message)", async () => {
    const bearer = await token();
    expect(await outcome(authenticate(deps, bearer))).toBe("user 1");
    // Revoked behind the cache's back (no announcement): only the lifetime ends the entry.
    await sql`update access_tokens set revoked_at = now() where token_hash = ${hashOpaqueToken(bearer)}`.execute(
      deps.db.em().getKysely(),
    );
    expect(await outcome(authenticate(deps, bearer))).toBe("user 1");
    const shortLived = {
      ...deps,
      tokenCache: new TokenCache({ ttlMs: 30, channel: inProcessRevocationChannel() }),
    };
    const fresh = await token();
    expect(await outcome(authenticate(shortLived, fresh))).toBe("user 1");
    await sql`update access_tokens set revoked_at = now() where token_hash = ${hashOpaqueToken(fresh)}`.execute(
      deps.db.em().getKysely(),
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await outcome(authenticate(shortLived, fresh))).toBe("UNAUTHORIZED");
  });

  it("refuses a revoked token on the next call, though it was cached", async () => {
    const bearer = await token();
    expect(await outcome(authenticate(deps, bearer))).toBe("user 1");
    await revokeToken(deps, bearer);
    expect(await outcome(authenticate(deps, bearer))).toBe("UNAUTHORIZED");
  });

  it("refuses a cached token once it has expired", async () => {
    const bearer = await token();
    expect(await outcome(authenticate(deps, bearer))).toBe("user 1");
    const saved = clock;
    clock += (deps.options.tokenLifetimeSeconds + 1) * 1000;
    try {
      expect(await outcome(authenticate(deps, bearer))).toBe("UNAUTHORIZED");
    } finally {
      clock = saved;
    }
  });

  it("does not cache a refusal: a token unknown a moment ago works once it exists", async () => {
    const bearer = "token-made-later";
    expect(await outcome(authenticate(deps, bearer))).toBe("UNAUTHORIZED");
    await sql`insert into access_tokens (token_hash, client_id, user_id, scope, expires_at)
      select ${hashOpaqueToken(bearer)}, id, user_id, 'api', now() + interval '1 hour' from clients where client_id = 'acme'`.execute(
      deps.db.em().getKysely(),
    );
    expect(await outcome(authenticate(deps, bearer))).toBe("user 1");
  });

  it("a block is seen at once: the cache holds what a token grants, not whether its user is blocked", async () => {
    const bearer = await token();
    expect(await outcome(authenticate(deps, bearer))).toBe("user 1");
    const actor = await authenticate(deps, bearer);
    await sql`update users set blocked = true where id = ${actor.userId}`.execute(deps.db.em().getKysely());
    try {
      const refused = await transferFunds(deps, await authenticate(deps, bearer), {
        walletFrom: "U100000010",
        walletTo: "U100000030",
        amount: "1.00",
      }).then(
        () => "moved",
        (error: unknown) => (PurseError.is(error) ? error.code : String(error)),
      );
      expect(refused).toBe("SENDER_BLOCKED");
    } finally {
      await sql`update users set blocked = false where id = ${actor.userId}`.execute(
        deps.db.em().getKysely(),
      );
    }
  });
});

describe("TokenCache", () => {
  const actor: Actor = { userId: 7, clientId: 70, role: "merchant", scope: "api" };
  const far = new Date(Date.now() + 3_600_000);

  it("does not store a lookup that was in flight while a revocation arrived", () => {
    const cache = new TokenCache({ ttlMs: 60_000, channel: inProcessRevocationChannel() });
    const generation = cache.generation();
    cache.forget({ tokenHash: "h1" }); // the revocation lands while the database read is in flight
    cache.remember("h1", actor, far, generation);
    expect(cache.lookup("h1", new Date())).toBeUndefined();
  });

  it("forgets by token, by client, by user, and everything after a possibly missed message", () => {
    const channel = inProcessRevocationChannel();
    const cache = new TokenCache({ ttlMs: 60_000, channel });
    const other: Actor = { userId: 8, clientId: 80, role: "partner", scope: "api" };
    const fill = () => {
      cache.remember("a", actor, far, cache.generation());
      cache.remember("b", other, far, cache.generation());
    };
    fill();
    cache.forget({ clientId: 70 });
    expect([cache.lookup("a", new Date()), cache.lookup("b", new Date())]).toEqual([undefined, other]);
    fill();
    cache.forget({ userId: 8 });
    expect([cache.lookup("a", new Date()), cache.lookup("b", new Date())]).toEqual([actor, undefined]);
    fill();
    cache.forget(null);
    expect(cache.size).toBe(0);
  });

  it("trusts an entry only for its lifetime, and never with a lifetime of 0", async () => {
    const short = new TokenCache({ ttlMs: 30, channel: inProcessRevocationChannel() });
    short.remember("a", actor, far, short.generation());
    expect(short.lookup("a", new Date())).toEqual(actor);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(short.lookup("a", new Date())).toBeUndefined();
    const off = new TokenCache({ ttlMs: 0, channel: inProcessRevocationChannel() });
    off.remember("a", actor, far, off.generation());
    expect(off.lookup("a", new Date())).toBeUndefined();
  });

  it("keeps at most maxEntries tokens", () => {
    const cache = new TokenCache({ ttlMs: 60_000, maxEntries: 2, channel: inProcessRevocationChannel() });
    for (const hash of ["a", "b", "c"]) cache.remember(hash, actor, far, cache.generation());
    expect(cache.size).toBe(2);
    expect(cache.lookup("a", new Date())).toBeUndefined();
  });
});
