import { PurseError } from "../errors/index.ts";

export interface HashQueueOptions {
  /** Slow hashes running at once. */
  readonly running: number;
  /** Hashes waiting for a place; one more is refused at once. */
  readonly waiting: number;
}

/** What `HashQueue.run` answers when its queue is full: the caller refuses, nothing was hashed. */
export const hashQueueFull = Symbol("hash queue full");

/**
 * A bound on the slow secret hashes a process runs (a client secret's scrypt: 16 MiB and tens of
 * milliseconds of a core each, on libuv's thread pool; a user's password's argon2id alike). Two hundred clients asking their first tokens at once
 * would otherwise put two hundred hashes on the pool's four threads, ahead of every file and DNS
 * job, and the last would answer seconds later; past a short queue the caller is told to come
 * back (a 429 with Retry-After on `/token`), which costs nothing, rather than waiting ever longer.
 * First come, first served; a finished hash hands its place to the next waiting one directly.
 */
export class HashQueue {
  readonly #options: HashQueueOptions;
  readonly #waiting: Array<() => void> = [];
  #running = 0;

  constructor(options: HashQueueOptions) {
    this.#options = options;
  }

  /** `hash`'s answer once it ran, or `hashQueueFull` at once (and `hash` never called). */
  async run<T>(hash: () => Promise<T>): Promise<T | typeof hashQueueFull> {
    if (this.#running < this.#options.running) this.#running += 1;
    else if (this.#waiting.length < this.#options.waiting)
      await new Promise<void>((resolve) => this.#waiting.push(resolve));
    else return hashQueueFull;
    try {
      return await hash();
    } finally {
      const next = this.#waiting.shift();
      if (next) next();
      else this.#running -= 1;
    }
  }
}

/**
 * `hash`'s answer, run in `queue` (the process's queue of slow hashes; at once without one). Past
 * the queue, Service busy, come back in a second: nothing was hashed. `/token`'s client secrets and
 * users' passwords alike.
 */
export async function inHashQueue<T>(
  queue: { run<R>(hash: () => Promise<R>): Promise<R | typeof hashQueueFull> } | undefined,
  hash: () => Promise<T>,
): Promise<T> {
  const answer = queue ? await queue.run(hash) : await hash();
  if (answer === hashQueueFull) throw new PurseError("SERVICE_BUSY", undefined, {}, { retryAfterSeconds: 1 });
  return answer;
}
