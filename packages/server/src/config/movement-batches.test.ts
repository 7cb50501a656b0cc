import { describe, expect, it } from "vitest";
import { readConfig } from "./config.ts";

const postgres = { DATABASE_URL: "postgresql://postgres@127.0.0.1:5432/purse" };

describe("PURSE_MOVEMENT_BATCHES: transfers' group commit", () => {
  it("keeps two of the pool's connections for other work by default, one transaction on the embedded database", () => {
    expect(readConfig({ ...postgres, PURSE_DATABASE_POOL_SIZE: "5" }).movementBatches).toEqual({
      inFlight: 3,
      batchSize: 32,
      leaveAt: 8,
    });
    expect(readConfig({ ...postgres, PURSE_DATABASE_POOL_SIZE: "2" }).movementBatches?.inFlight).toBe(1);
    expect(readConfig({}).movementBatches).toEqual({ inFlight: 1, batchSize: 32, leaveAt: 8 });
  });

  it("is off at 0: each transfer in a transaction of its own", () => {
    expect(readConfig({ ...postgres, PURSE_MOVEMENT_BATCHES: "0" }).movementBatches).toBeNull();
  });

  it("takes the transactions in flight and the batch size as told, and refuses what is not a count", () => {
    expect(
      readConfig({ ...postgres, PURSE_MOVEMENT_BATCHES: "2", PURSE_MOVEMENT_BATCH_SIZE: "8" })
        .movementBatches,
    ).toEqual({ inFlight: 2, batchSize: 8, leaveAt: 8 });
    expect(() => readConfig({ ...postgres, PURSE_MOVEMENT_BATCHES: "-1" })).toThrow(
      /^PURSE_MOVEMENT_BATCHES="-1": /,
    );
    expect(() => readConfig({ ...postgres, PURSE_MOVEMENT_BATCH_SIZE: "0" })).toThrow(
      /^PURSE_MOVEMENT_BATCH_SIZE="0": /,
    );
  });
});
