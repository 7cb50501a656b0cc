import { describe, expect, it } from "vitest";
import { HashQueue, hashQueueFull } from "./hash-queue.ts";

/** A hash the test finishes by hand, and a record of which ones started. */
function gatedHashes() {
  const started: number[] = [];
  const finishers = new Map<number, () => void>();
  const hash = (id: number) => () =>
    new Promise<number>((resolve) => {
      started.push(id);
      finishers.set(id, () => resolve(id));
    });
  const finish = (id: number) => finishers.get(id)?.();
  return { started, hash, finish };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe("HashQueue", () => {
  it("runs at most `running` hashes, queues `waiting` more in order, and refuses the next at once", async () => {
    const queue = new HashQueue({ running: 2, waiting: 2 });
    const { started, hash, finish } = gatedHashes();
    const answers = [1, 2, 3, 4, 5].map((id) => queue.run(hash(id)));
    await settle();
    expect(started).toEqual([1, 2]);
    expect(await answers[4]).toBe(hashQueueFull);
    finish(2);
    await settle();
    expect(started).toEqual([1, 2, 3]);
    finish(1);
    await settle();
    expect(started).toEqual([1, 2, 3, 4]);
    finish(3);
    finish(4);
    expect(await Promise.all(answers.slice(0, 4))).toEqual([1, 2, 3, 4]);
  });

  it("frees a place when a hash throws, and takes new work once emptied", async () => {
    const queue = new HashQueue({ running: 1, waiting: 0 });
    await expect(queue.run(() => Promise.reject(new Error("unreadable")))).rejects.toThrow("unreadable");
    expect(await queue.run(async () => "first")).toBe("first");
    expect(await queue.run(async () => "second")).toBe("second");
  });
});
