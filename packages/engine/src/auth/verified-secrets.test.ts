import { createTestEngine, type TestEngine } from "@purse/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EngineDependencies } from "../engine-dependencies.ts";
import { PurseError } from "../errors/index.ts";
import { tokenRouteLimits } from "../rate-limit/abuse-limits.ts";
import { MemoryRateLimiter } from "../rate-limit/memory-rate-limiter.ts";
import { requestToken } from "./issue-token.ts";
import { rotateClientSecret } from "./rotate-client-credentials.ts";
import { VerifiedSecrets } from "./verified-secrets.ts";

/**
 * `/token` for a client that asks before every call: a secret this process verified lately skips
 * the slow hash and is no guess for the flood limit, so the client's own calls in flight never
 * fill it; a rotated secret is not remembered into working.
 */
describe("client secrets verified lately", () => {
  let engine: TestEngine;
  let deps: EngineDependencies;

  beforeAll(async () => {
    engine = await createTestEngine();
    deps = {
      ...engine.deps,
      // One guess a minute per client id and address; room for the tokens themselves.
      rateLimiter: new MemoryRateLimiter({ limitPerMinute: 1, routeLimits: tokenRouteLimits(100) }),
      verifiedSecrets: new VerifiedSecrets({ ttlMs: 60_000 }),
    };
  });
  afterAll(() => engine.close());

  const ask = (clientId: string, secret: string, address: string) =>
    requestToken(deps, { grantType: "client_credentials", clientId, clientSecret: secret }, address).then(
      (answer) => ("access_token" in answer ? "token" : `429 after ${answer.retryAfterSeconds} s`),
      (error: unknown) => (PurseError.is(error) ? error.message : String(error)),
    );

  it("lets a known secret's calls in flight past a flood limit of one, where an unknown one's second waits", async () => {
    // Unknown: the first call's hash holds the one place; its twin in flight is refused.
    const unknown = await Promise.all([
      ask("bolt", "bolt-secret", "10.0.0.1"),
      ask("bolt", "bolt-secret", "10.0.0.1"),
    ]);
    expect(unknown.sort()).toEqual([expect.stringMatching(/^429 after \d+ s$/), "token"]);
    // Known now (verified once): ten at once from one address, none a guess.
    const known = await Promise.all(Array.from({ length: 10 }, () => ask("bolt", "bolt-secret", "10.0.0.2")));
    expect(known).toEqual(Array(10).fill("token"));
  });

  it("refuses a remembered secret once rotated away, and counts it a guess then", async () => {
    expect(await ask("cafe", "cafe-secret", "10.0.0.3")).toBe("token");
    const fresh = await rotateClientSecret(deps.db, "cafe", 0);
    expect(await ask("cafe", "cafe-secret", "10.0.0.4")).toBe("invalid_client");
    // That failure was charged to its address: even the new secret waits there.
    expect(await ask("cafe", fresh, "10.0.0.4")).toMatch(/^429 after \d+ s$/);
    expect(await ask("cafe", fresh, "10.0.0.5")).toBe("token");
  });
});
