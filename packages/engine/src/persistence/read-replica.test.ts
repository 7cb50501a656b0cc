import type { MikroORM } from "@mikro-orm/core";
import { describe, expect, it } from "vitest";
import { ReadRouting } from "./read-replica.ts";

/** Routing whose lookups are given their work directly: no database is asked here. */
const routing = () =>
  new ReadRouting({} as MikroORM, () => {
    throw new Error("not used by lookUp");
  });

describe("a lookup (a bearer token's check) while the primary does not answer", () => {
  it("asks the replica once the primary has kept it waiting, then goes there for a while", async () => {
    const reads = routing();
    const started = Date.now();
    const asked: string[] = [];
    const hanging = () => {
      asked.push("primary");
      return new Promise<string>(() => undefined);
    };
    const replica = async () => {
      asked.push("replica");
      return "from the replica";
    };
    expect(await reads.lookUp(hanging, replica)).toBe("from the replica");
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(await reads.lookUp(hanging, replica)).toBe("from the replica");
    // The second went straight to the replica: the primary is left alone after it kept one waiting.
    expect(asked).toEqual(["primary", "replica", "replica"]);
  });

  it("answers from the primary when it answers, and passes a refusal on as the answer", async () => {
    const reads = routing();
    expect(
      await reads.lookUp(
        async () => "from the primary",
        async () => "from the replica",
      ),
    ).toBe("from the primary");
    await expect(
      reads.lookUp(
        async () => {
          throw new Error("not found");
        },
        async () => "from the replica",
      ),
    ).rejects.toThrow("not found");
  });
});
