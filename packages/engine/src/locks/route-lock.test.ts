import { routeLockContract } from "@purse/testing/contracts";
import { MemoryRouteLock } from "./memory-route-lock.ts";

// The Redlock implementation runs the same contract in packages/server/src/composition.
routeLockContract("in-process", async () => new MemoryRouteLock());
