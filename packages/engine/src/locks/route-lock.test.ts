import { routeLockContract } from "../testing/route-lock-contract.ts";
import { MemoryRouteLock } from "./memory-route-lock.ts";

// The Redlock implementation runs the same contract in packages/server/src/composition.
routeLockContract("in-process", async () => new MemoryRouteLock());
