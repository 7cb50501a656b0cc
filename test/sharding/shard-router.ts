import type { EngineDependencies } from "@purse/engine";

export interface Shard {
  readonly name: string;
  readonly deps: EngineDependencies;
}

/**
 * The routing table: which shard holds a user, and which user holds a wallet number. In
 * production it is a small table of its own (docs/sharding.md), read through a cache; here a map.
 */
export class ShardRouter {
  readonly #shards = new Map<string, Shard>();
  readonly #userShard = new Map<number, string>();
  readonly #walletUser = new Map<string, number>();

  addShard(shard: Shard): void {
    this.#shards.set(shard.name, shard);
  }

  place(userId: number, shardName: string, walletNumbers: readonly string[]): void {
    this.#userShard.set(userId, shardName);
    for (const number of walletNumbers) this.#walletUser.set(number, userId);
  }

  shardOfWallet(number: string): Shard {
    const userId = this.#walletUser.get(number);
    const name = userId === undefined ? undefined : this.#userShard.get(userId);
    const shard = name === undefined ? undefined : this.#shards.get(name);
    if (!shard) throw new Error(`wallet ${number} is on no shard`);
    return shard;
  }

  userOfWallet(number: string): number {
    const userId = this.#walletUser.get(number);
    if (userId === undefined) throw new Error(`wallet ${number} is in no routing entry`);
    return userId;
  }

  shard(name: string): Shard {
    const shard = this.#shards.get(name);
    if (!shard) throw new Error(`no shard ${name}`);
    return shard;
  }

  all(): Shard[] {
    return [...this.#shards.values()];
  }
}
