import { createTestEngine, type TestEngine } from "@purse/testing";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { EngineDependencies } from "../engine-dependencies.ts";
import { PurseError } from "../errors/index.ts";
import { sql } from "../persistence/sql.ts";
import { hashOpaqueToken } from "../secrets/index.ts";
import { transferFunds } from "../transfer/transfer-funds.ts";
import type { Actor } from "./actor.ts";
import { authenticate } from "./authenticate.ts";
import { issueToken, revokeToken } from "./issue-token.ts";
import { inProcessRevocationChannel, TokenCache, type VerifiedToken } from "./token-cache.ts";

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
  const other: Actor = { userId: 8, clientId: 80, role: "partner", scope: "api" };
  const far = new Date(Date.now() + 3_600_000);
  // The cache reads its clock from Date.now(): a fake Date is moved forward instead of waited for.
  // Timers stay real, so `settle()` still lets a background renewal run to its end.
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["Date"] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });
  const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
  // As a real wait would: what is already under way finishes, then the time has passed.
  const pass = async (ms: number) => {
    await settle();
    vi.setSystemTime(Date.now() + ms);
  };

  /** A token lookup the test answers by hand, counting how often it was asked. */
  function controlledLookup() {
    const pending: ((found: VerifiedToken | undefined) => void)[] = [];
    return {
      pending,
      lookUp: () => new Promise<VerifiedToken | undefined>((resolve) => pending.push(resolve)),
      answer(found: VerifiedToken | undefined) {
        for (const resolve of pending.splice(0)) resolve(found);
      },
    };
  }
  const finds = (granted: Actor) => async (): Promise<VerifiedToken> => ({ actor: granted, expiresAt: far });
  const findsNothing = async (): Promise<undefined> => undefined;

  it("does not store nor share a lookup that was in flight while a revocation arrived", async () => {
    const cache = new TokenCache({ ttlMs: 60_000, channel: inProcessRevocationChannel() });
    const database = controlledLookup();
    const before = cache.verify("h1", new Date(), database.lookUp);
    cache.forget({ tokenHash: "h1" }); // the revocation lands while the database read is in flight
    // A request after the revocation does not join the read that started before it.
    const after = cache.verify("h1", new Date(), database.lookUp);
    expect(database.pending).toHaveLength(2);
    database.answer({ actor, expiresAt: far });
    expect([await before, await after]).toEqual([actor, actor]);
    expect(cache.size).toBe(1); // only the read made after the revocation is kept
    const stale = controlledLookup();
    const first = cache.verify("h2", new Date(), stale.lookUp);
    cache.forget(null);
    stale.answer({ actor, expiresAt: far });
    await first;
    expect(await cache.verify("h2", new Date(), findsNothing)).toBeUndefined();
  });

  it("shares one lookup among the requests that miss together", async () => {
    const cache = new TokenCache({ ttlMs: 60_000, channel: inProcessRevocationChannel() });
    const database = controlledLookup();
    const answers = [1, 2, 3].map(() => cache.verify("h", new Date(), database.lookUp));
    expect(database.pending).toHaveLength(1);
    database.answer({ actor, expiresAt: far });
    expect(await Promise.all(answers)).toEqual([actor, actor, actor]);
  });

  it("renews a busy token in the background: the request is answered from memory meanwhile", async () => {
    const cache = new TokenCache({ ttlMs: 1_000, channel: inProcessRevocationChannel() });
    expect(await cache.verify("h", new Date(), finds(actor))).toEqual(actor);
    const database = controlledLookup();
    // Early in the entry's lifetime: no lookup at all.
    expect(await cache.verify("h", new Date(), database.lookUp)).toEqual(actor);
    expect(database.pending).toHaveLength(0);
    await pass(800); // in the last quarter of the 1 000 ms
    expect(await cache.verify("h", new Date(), database.lookUp)).toEqual(actor);
    expect(await cache.verify("h", new Date(), database.lookUp)).toEqual(actor);
    expect(database.pending).toHaveLength(1); // one renewal, not one per request
    database.answer({ actor: other, expiresAt: far });
    await settle();
    expect(await cache.verify("h", new Date(), findsNothing)).toEqual(other);
    await pass(300); // past the first lookup's lifetime, inside the renewal's
    expect(await cache.verify("h", new Date(), findsNothing)).toEqual(other);
  });

  it("drops an entry whose renewal finds the token gone, and keeps it when the renewal fails", async () => {
    const cache = new TokenCache({ ttlMs: 1_000, channel: inProcessRevocationChannel() });
    await cache.verify("gone", new Date(), finds(actor));
    await cache.verify("down", new Date(), finds(actor));
    await pass(800);
    expect(await cache.verify("gone", new Date(), findsNothing)).toEqual(actor);
    const failing = () => Promise.reject(new Error("database down"));
    expect(await cache.verify("down", new Date(), failing)).toEqual(actor);
    await settle();
    expect(await cache.verify("gone", new Date(), findsNothing)).toBeUndefined();
    expect(await cache.verify("down", new Date(), findsNothing)).toEqual(actor);
    await pass(300); // past its lifetime: the failing database is asked, and its error is the answer
    await expect(cache.verify("down", new Date(), failing)).rejects.toThrow("database down");
  });

  it("counts an entry's lifetime from when its lookup started", async () => {
    const cache = new TokenCache({ ttlMs: 1_000, channel: inProcessRevocationChannel() });
    const slow = controlledLookup();
    const answer = cache.verify("h", new Date(), slow.lookUp);
    await pass(800); // the read took 800 ms of the 1 000
    slow.answer({ actor, expiresAt: far });
    await answer;
    await pass(300); // fresh for 700 ms more if counted from the answer

    expect(await cache.verify("h", new Date(), findsNothing)).toBeUndefined();
  });

  it("forgets by token, by client, by user, and everything after a possibly missed message", async () => {
    const channel = inProcessRevocationChannel();
    const cache = new TokenCache({ ttlMs: 60_000, channel });
    const cached = (hash: string) => cache.verify(hash, new Date(), findsNothing);
    const fill = async () => {
      await cache.verify("a", new Date(), finds(actor));
      await cache.verify("b", new Date(), finds(other));
    };
    await fill();
    cache.forget({ clientId: 70 });
    expect([await cached("a"), await cached("b")]).toEqual([undefined, other]);
    await fill();
    cache.forget({ userId: 8 });
    expect([await cached("a"), await cached("b")]).toEqual([actor, undefined]);
    await fill();
    cache.forget(null);
    expect(cache.size).toBe(0);
  });

  it("trusts an entry only for its lifetime, and never with a lifetime of 0", async () => {
    const short = new TokenCache({ ttlMs: 30, channel: inProcessRevocationChannel() });
    await short.verify("a", new Date(), finds(actor));
    expect(await short.verify("a", new Date(), findsNothing)).toEqual(actor);
    await pass(50);
    expect(await short.verify("a", new Date(), findsNothing)).toBeUndefined();
    const off = new TokenCache({ ttlMs: 0, channel: inProcessRevocationChannel() });
    await off.verify("a", new Date(), finds(actor));
    expect(off.size).toBe(0);
    expect(await off.verify("a", new Date(), findsNothing)).toBeUndefined();
  });

  it("refuses a cached token past its own expiry", async () => {
    const cache = new TokenCache({ ttlMs: 60_000, channel: inProcessRevocationChannel() });
    const soon = new Date(Date.now() + 1_000);
    await cache.verify("a", new Date(), async () => ({ actor, expiresAt: soon }));
    expect(await cache.verify("a", new Date(), findsNothing)).toEqual(actor);
    expect(await cache.verify("a", new Date(soon.getTime() + 1), findsNothing)).toBeUndefined();
  });

  it("keeps at most maxEntries tokens", async () => {
    const cache = new TokenCache({ ttlMs: 60_000, maxEntries: 2, channel: inProcessRevocationChannel() });
    for (const hash of ["a", "b", "c"]) await cache.verify(hash, new Date(), finds(actor));
    expect(cache.size).toBe(2);
    expect(await cache.verify("a", new Date(), findsNothing)).toBeUndefined();
  });
});
