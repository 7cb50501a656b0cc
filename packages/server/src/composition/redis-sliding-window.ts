import type { Redis } from "ioredis";

/**
 * A true sliding window: one sorted set per key and route, scored by call time. For each call in
 * turn, atomically: drop calls older than the window, count, admit if under the limit; a refusal
 * answers how long until the oldest call leaves the window. Refused calls are not recorded, so a
 * client that waits gets back in. An admitted call is a member of its own (a random id), so giving
 * it back removes exactly that call.
 *
 * KEYS: one sorted set per call. ARGV: the window (ms), then per call its time, limit and member.
 * Answers per call: 1 and 0 (admitted), or 0 and the wait in ms (refused).
 */
const slidingWindowsScript = `
local window = tonumber(ARGV[1])
local answers = {}
for i, key in ipairs(KEYS) do
  local at = 2 + (i - 1) * 3
  local now = tonumber(ARGV[at])
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
  if redis.call('ZCARD', key) >= tonumber(ARGV[at + 1]) then
    local oldest = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
    answers[#answers + 1] = 0
    answers[#answers + 1] = tonumber(oldest[2]) + window - now
  else
    redis.call('ZADD', key, now, ARGV[at + 2])
    redis.call('PEXPIRE', key, window)
    answers[#answers + 1] = 1
    answers[#answers + 1] = 0
  end
end
return answers
`;

/**
 * Calls in one script: above this many, a turn's calls go in more than one, so that no single
 * script holds Redis for long.
 */
const maxCallsPerScript = 128;

type ScriptedRedis = Redis & {
  purseSlidingWindows(...args: (string | number)[]): Promise<number[]>;
};

interface Charge {
  readonly key: string;
  readonly now: number;
  readonly limit: number;
  readonly member: string;
  readonly resolve: (answer: readonly [admitted: number, waitMs: number]) => void;
  readonly reject: (error: Error) => void;
}

/**
 * The sliding windows of one Redis node, charged together: the calls of one turn of the event
 * loop (every request read from the sockets in that turn) leave in one script call, one write to
 * the node instead of one each, in the order they were asked for. Until the turn ends no command
 * has left for them, and a node that fails the script fails each of its calls, which each move on
 * to the next node.
 */
export class RedisSlidingWindows {
  readonly #client: ScriptedRedis;
  readonly #windowMs: number;
  #pending: Charge[] = [];

  constructor(client: Redis, windowMs: number) {
    if (!("purseSlidingWindows" in client))
      client.defineCommand("purseSlidingWindows", { lua: slidingWindowsScript });
    this.#client = client as ScriptedRedis;
    this.#windowMs = windowMs;
  }

  /** Charges one call to `key`'s window: [1, 0] admitted, or [0, wait in ms] refused. */
  charge(key: string, now: number, limit: number, member: string): Promise<readonly [number, number]> {
    return new Promise((resolve, reject) => {
      // setImmediate runs once the turn's input is read: every request of the turn is in by then.
      if (this.#pending.length === 0) setImmediate(this.#flush);
      this.#pending.push({ key, now, limit, member, resolve, reject });
    });
  }

  /** Gives one admitted call back. */
  async release(key: string, member: string): Promise<void> {
    await this.#client.zrem(key, member);
  }

  readonly #flush = (): void => {
    const pending = this.#pending;
    this.#pending = [];
    for (let from = 0; from < pending.length; from += maxCallsPerScript) {
      this.#send(pending.slice(from, from + maxCallsPerScript));
    }
  };

  #send(charges: readonly Charge[]): void {
    const args: (string | number)[] = [charges.length];
    for (const charge of charges) args.push(charge.key);
    args.push(this.#windowMs);
    for (const charge of charges) args.push(charge.now, charge.limit, charge.member);
    this.#client.purseSlidingWindows(...args).then(
      (answers) => {
        charges.forEach((charge, index) => {
          charge.resolve([Number(answers[2 * index]), Number(answers[2 * index + 1])]);
        });
      },
      (error: unknown) => {
        const failure = error instanceof Error ? error : new Error(String(error));
        for (const charge of charges) charge.reject(failure);
      },
    );
  }
}
