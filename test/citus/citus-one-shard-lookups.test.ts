import { createHash, randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCheckout } from "../support/checkout-helpers.ts";
import { type CitusCluster, ensureCitusInstalled, startCitusCluster } from "../support/citus-cluster.ts";
import { type DistributedPurse, distributedPurse } from "../support/distributed-purse.ts";
import { purseCli } from "../support/purse-cli.ts";

/**
 * docs/sharding.md, "Lookups that know only a hash": an access token and a checkout link carry
 * their owner's user id in front of their random part, so that on Citus the token's verification
 * and the checkout's lookup by its link read the owner's shard alone; tokens and links made before
 * keep working (over every shard). Which shards a statement read is what the coordinator says it
 * sent to the workers (`citus.log_remote_commands`, logged at NOTICE), picked out by the hash.
 */
const vendored = fileURLToPath(new URL("../../../shared/vendor/citus/citus-13.2.2.tar.gz", import.meta.url));
const installed = existsSync("/usr/lib/postgresql/15/lib/citus.so");

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");
/** A token or link as Purse made them before they carried an owner: the prefix, then 32 random bytes. */
const ownerless = (prefix: string) => `${prefix}_${randomBytes(32).toString("base64url")}`;

describe.skipIf(!installed && !existsSync(vendored))("lookups by a hash on a distributed Purse", () => {
  let cluster: CitusCluster;
  let purse: DistributedPurse;
  const query = (text: string, values: unknown[] = []) =>
    cluster.coordinator.query(text, values, purse.database.name);

  /**
   * The shards of `table` that statements holding `mark` (a checkout link's hash; for a token's
   * verification, whose hash goes as a parameter of its prepared statement, its join to `users`)
   * were sent to while `work` ran.
   */
  async function shardsRead(
    table: string,
    mark: string | RegExp,
    work: () => Promise<void>,
  ): Promise<Set<string>> {
    const from = (await readFile(cluster.coordinator.logFile, "utf8")).length;
    await work();
    const sent = (await readFile(cluster.coordinator.logFile, "utf8"))
      .slice(from)
      .split(/\n(?=\d{4}-\d\d-\d\d )/)
      .filter(
        (entry) =>
          entry.includes("NOTICE:  issuing") &&
          (typeof mark === "string" ? entry.includes(mark) : mark.test(entry)),
      );
    return new Set(sent.flatMap((entry) => entry.match(new RegExp(`\\b${table}_\\d+\\b`, "g")) ?? []));
  }

  beforeAll(async () => {
    await ensureCitusInstalled();
    cluster = await startCitusCluster();
    purse = await distributedPurse(cluster, `purse_citus_lookups_${process.pid}`);
    // Every statement the coordinator sends a worker, in its log.
    for (const setting of ["citus.log_remote_commands = on", "log_min_messages = notice"])
      await cluster.coordinator.query(`alter system set ${setting}`);
    await cluster.coordinator.query("select pg_reload_conf()");
  }, 30 * 60_000);
  afterAll(async () => {
    await purse?.api.close();
    await cluster?.stop();
  });

  it("verifies an access token on its owner's shard alone; one made before tokens carried their owner still works", async () => {
    const { api } = purse;
    // The verification's statement: the only one that joins a token to its user.
    const verification = "public.users_";
    const token = await api.token("acme");
    expect(token).toMatch(/^pat_1_[A-Za-z0-9_-]{43}$/);
    const wallets = async (bearer: string) =>
      (await api.call("GET", "/api/wallets", { token: bearer })).status;
    let status = 0;
    const read = await shardsRead("access_tokens", verification, async () => {
      status = await wallets(token);
    });
    expect(status).toBe(200);
    expect(read.size).toBe(1);

    // Issued before (stored as Purse stored it): found by its hash over every shard.
    const old = ownerless("pat");
    const [client] = (await query("select id from clients where client_id = 'acme'")) as { id: string }[];
    await query(
      `insert into access_tokens (token_hash, client_id, user_id, scope, expires_at)
       values ($1, $2, 1, 'api', now() + interval '1 hour')`,
      [sha256(old), client?.id],
    );
    const oldRead = await shardsRead("access_tokens", verification, async () => {
      status = await wallets(old);
    });
    expect(status).toBe(200);
    expect(oldRead.size).toBeGreaterThan(1);

    // The owner is covered by the hash: a token with another owner's id is a token nobody issued.
    expect(await wallets(token.replace(/^pat_1_/, "pat_2_"))).toBe(401);
    // Revoked (RFC 7009) by its owner's shard, then refused.
    expect((await api.call("POST", "/token/revoke", { body: { token } })).status).toBe(200);
    await expect.poll(() => wallets(token)).toBe(401);
  }, 60_000);

  it("finds a checkout by its link on its merchant's shard alone, and pays it; a link made before links carried their merchant still opens", async () => {
    const { api } = purse;
    const checkout = await createCheckout(api, { url: "https://shop.example" }, "2.00");
    expect(checkout.token).toMatch(/^chk_1_[A-Za-z0-9_-]{43}$/);
    let status = 0;
    const read = await shardsRead("checkouts", sha256(checkout.token), async () => {
      status = (await fetch(checkout.url)).status;
    });
    expect(status).toBe(200);
    expect(read.size).toBe(1);
    const paid = await shardsRead("checkouts", sha256(checkout.token), async () => {
      status = (
        await api.call("POST", "/api/processing/pay", {
          body: { token: checkout.token, login: "bolt", password: "bolt-pass", action: "pay" },
        })
      ).status;
    });
    expect(status).toBe(200);
    expect(paid.size).toBe(1);

    // A link made before: its checkout found by the hash over every shard.
    const before = await createCheckout(api, { url: "https://shop.example" }, "3.00");
    const old = ownerless("chk");
    await query("update checkouts set token_hash = $1 where payment_id = $2", [
      sha256(old),
      before.paymentId,
    ]);
    const oldUrl = `${before.url.slice(0, before.url.lastIndexOf("/"))}/${old}`;
    const oldRead = await shardsRead("checkouts", sha256(old), async () => {
      status = (await fetch(oldUrl)).status;
    });
    expect(status).toBe(200);
    expect(oldRead.size).toBeGreaterThan(1);
    // Another merchant's id in front of the same random part: no such link.
    expect((await fetch(checkout.url.replace("/chk_1_", "/chk_2_"))).status).toBe(404);
  }, 60_000);

  it("runs the operator's lookups by a wallet number, a client and a delivery on their owner's shard alone: purse wallets status, clients revoke-tokens, webhooks resend", async () => {
    const { api } = purse;
    const ran = async (args: string[]) => {
      const run = await purseCli(purse.database, args);
      expect(run.stderr, `purse ${args.join(" ")}`).toBe("");
      expect(run.code).toBe(0);
      return run.stdout;
    };
    // A wallet by its number: its owner (bolt) read from `wallet_numbers` first.
    let said = "";
    const closed = await shardsRead("wallets", "U100000020", async () => {
      said = await ran(["wallets", "status", "U100000020", "deleted"]);
    });
    expect(said).toContain("Wallet U100000020 is DELETED.");
    expect(closed.size).toBe(1);
    expect(await ran(["wallets", "list", "--status", "DELETED"])).toMatch(/^U100000020\tDELETED\t/m);
    expect(await ran(["wallets", "status", "U100000020", "active"])).toContain(
      "Wallet U100000020 is ACTIVE.",
    );

    // A client's tokens: its user (bolt) is the owner of each.
    const token = await api.token("bolt");
    // The coordinator sends `now()` as its value: the statement is picked out by what it sets.
    const revoked = await shardsRead("access_tokens", /SET revoked_at = /, async () => {
      said = await ran(["clients", "revoke-tokens", "bolt"]);
    });
    expect(said).toContain("live access token(s) of bolt");
    expect(revoked.size).toBe(1);
    await expect.poll(async () => (await api.call("GET", "/api/wallets", { token })).status).toBe(401);

    // A delivery by the reference the list shows: its merchant (acme, user 1), then its id.
    const checkout = await createCheckout(api, { url: "https://shop.example" }, "2.50");
    const paid = await api.call("POST", "/api/processing/pay", {
      body: { token: checkout.token, login: "bolt", password: "bolt-pass", action: "pay" },
    });
    expect(paid.status).toBe(200);
    const deliveries = JSON.parse(await ran(["--json", "webhooks", "list"])) as {
      id: number;
      reference: string;
      url: string;
    }[];
    const delivery = deliveries.find((found) => found.url.startsWith("https://shop.example"));
    expect(delivery?.reference).toBe(`1/${delivery?.id}`);
    const requeue = /webhook_deliveries_\d+ .*SET status = 'pending'/s;
    const resent = await shardsRead("webhook_deliveries", requeue, async () => {
      said = await ran(["webhooks", "resend", delivery?.reference ?? ""]);
    });
    expect(said).toContain(`Delivery ${delivery?.reference} is queued`);
    expect(resent.size).toBe(1);
    // Its id alone still finds it, over every shard; another merchant's reference finds none.
    const byId = await shardsRead("webhook_deliveries", requeue, async () => {
      said = await ran(["webhooks", "resend", String(delivery?.id)]);
    });
    expect(said).toContain(`Delivery ${delivery?.id} is queued`);
    expect(byId.size).toBeGreaterThan(1);
    const other = await purseCli(purse.database, ["webhooks", "resend", `2/${delivery?.id}`]);
    expect(other.stderr).toContain("no such webhook delivery");
  }, 90_000);
});
