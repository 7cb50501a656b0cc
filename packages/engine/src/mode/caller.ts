import type { Actor } from "../auth/actor.ts";
import { authenticate, verifiedToken } from "../auth/authenticate.ts";
import { findLiveToken } from "../auth/credential-store.ts";
import type { EngineDependencies } from "../engine-dependencies.ts";
import { PurseError } from "../errors/index.ts";
import { hashOpaqueToken, opaqueTokenOwner } from "../secrets/index.ts";
import { engineFor } from "./engine-for.ts";
import { withTestClock } from "./test-clock.ts";
import { testClockAdvance } from "./test-clock-store.ts";
import { testEngine } from "./test-engine.ts";

/** Who calls, and the engine of the mode their credential is for (on their test clock in test mode). */
export interface Caller {
  readonly deps: EngineDependencies;
  readonly actor: Actor;
}

/**
 * Resolves a bearer token (or a dashboard session) to its caller, as `authenticate` does, in the
 * mode the token names. A test token lives by its merchant's test clock: it expires when that
 * clock passes its expiry, and the engine it gets reads time from that clock.
 */
export async function resolveCaller(
  deps: EngineDependencies,
  token: string | null | undefined,
): Promise<Caller> {
  const engine = engineFor(deps, token);
  if (engine.db.mode === "live") return { deps: engine, actor: await authenticate(engine, token) };
  if (!token) throw new PurseError("UNAUTHORIZED");
  const row = await engine.db.lookUp((runner) =>
    findLiveToken(runner, hashOpaqueToken(token), engine.now(), opaqueTokenOwner(token)),
  );
  if (!row) throw new PurseError("UNAUTHORIZED");
  const { actor, expiresAt } = verifiedToken(row);
  const advanced = await engine.db.lookUp((runner) => testClockAdvance(runner, actor.userId));
  const clocked = withTestClock(engine, advanced);
  if (expiresAt.getTime() <= clocked.now().getTime()) throw new PurseError("UNAUTHORIZED");
  return { deps: clocked, actor };
}

/** The engine of `userId`'s test data on their test clock (the dashboard's test mode, operator verbs). */
export async function testEngineOf(deps: EngineDependencies, userId: number): Promise<EngineDependencies> {
  const test = testEngine(deps);
  const advanced = await test.db.lookUp((runner) => testClockAdvance(runner, userId));
  return withTestClock(test, advanced);
}
