import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { copyFile, readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { checkoutSignature, openDatabase, secretBoxFromKey, seedFixture } from "@purse/engine";
import { freePort, httpClient, sampleFixture, testRedisUrl } from "@purse/testing";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  runPurse,
  type ServeProcess,
  secretKey,
  startServe,
  waitUntil,
} from "../operations/purse-process.ts";
import { eventually, postgresOwnedDir } from "../support/postgres-cluster.ts";
import { type MerchantSite, startMerchantSite } from "../support/webhook-receiver.ts";

/**
 * Issue 26, contract "Failover": a real primary failover under transfer load, with the deployment
 * files of deploy/ha/ (Patroni with synchronous_mode, etcd as its store, HAProxy routing by
 * Patroni's /primary and /replica checks), all on loopback ports of the test's own. The leader's
 * postmaster is killed with SIGKILL while eight merchants move money through `purse serve`.
 * CI installs the packages (.ci/run); elsewhere, without them, the test says loudly it is skipped.
 */
const haDir = fileURLToPath(new URL("../../deploy/ha/", import.meta.url));
const programs = { patroni: "/usr/bin/patroni", etcd: "/usr/bin/etcd", haproxy: "/usr/sbin/haproxy" };
const missing = Object.values(programs).filter((path) => !existsSync(path));
if (missing.length > 0) {
  const message = `SKIPPED the Patroni failover test: ${missing.join(", ")} not installed (apt-get install patroni etcd-server haproxy; .ci/run does)`;
  console.warn(`\n${"!".repeat(message.length)}\n${message}\n${"!".repeat(message.length)}\n`);
  // CI installs them: there a missing program is a failure, not a skip.
  if (process.env["CI"] === "true") throw new Error(message);
}

const merchants = 8;
const loadBeforeKillMs = 5_000;
const loadAfterKillMs = 12_000;
const loadAfterSwitchoverMs = 10_000;
/**
 * Once the disruptions are over, how long a call still unanswered keeps being retried: past it the
 * call is counted unanswered (and the test fails with its figures) rather than retried until the
 * test's own time limit ends it with none.
 */
const retryAfterStopMs = 20_000;

interface Node {
  readonly name: string;
  readonly pgPort: number;
  readonly apiPort: number;
  readonly dataDir: string;
  process: ChildProcess;
}

describe.skipIf(missing.length > 0)("a Patroni primary failover under transfer load", () => {
  let root: string;
  const children: ChildProcess[] = [];
  const nodes: Node[] = [];
  let serve: ServeProcess;
  let site: MerchantSite;
  let rwUrl: string;
  const password = randomBytes(12).toString("hex");
  const log: string[] = [];

  const spawnLogged = (name: string, command: string, args: string[], env: NodeJS.ProcessEnv = {}) => {
    const child = spawn(command, args, {
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const keep = (chunk: Buffer) => {
      for (const line of chunk.toString().split("\n")) if (line) log.push(`[${name}] ${line}`);
      if (log.length > 4_000) log.splice(0, log.length - 4_000);
    };
    child.stdout?.on("data", keep);
    child.stderr?.on("data", keep);
    children.push(child);
    return child;
  };
  const api = async (node: Node, path: string) => {
    const response = await fetch(`http://127.0.0.1:${node.apiPort}${path}`, {
      signal: AbortSignal.timeout(2_000),
    });
    return {
      status: response.status,
      body: (await response.json().catch(() => null)) as Record<string, unknown>,
    };
  };
  const cluster = async () => {
    for (const node of nodes) {
      const answer = await api(node, "/cluster").catch(() => null);
      if (answer?.status === 200)
        return answer.body["members"] as { name: string; role: string; state: string }[];
    }
    return [];
  };

  beforeAll(async () => {
    root = await postgresOwnedDir("purse-ha-");
    const config = join(root, "patroni.yml");
    await copyFile(join(haDir, "patroni.yml"), config);
    const etcdPort = await freePort();
    const etcdPeer = await freePort();
    spawnLogged("etcd", programs.etcd, [
      "--name=e1",
      `--data-dir=${join(root, "etcd")}`,
      `--listen-client-urls=http://127.0.0.1:${etcdPort}`,
      `--advertise-client-urls=http://127.0.0.1:${etcdPort}`,
      `--listen-peer-urls=http://127.0.0.1:${etcdPeer}`,
      `--initial-advertise-peer-urls=http://127.0.0.1:${etcdPeer}`,
      `--initial-cluster=e1=http://127.0.0.1:${etcdPeer}`,
    ]);
    await eventually(async () => (await fetch(`http://127.0.0.1:${etcdPort}/health`)).ok, "etcd");

    const startNode = async (name: string) => {
      const node: Node = {
        name,
        pgPort: await freePort(),
        apiPort: await freePort(),
        dataDir: join(root, name),
        process: undefined as unknown as ChildProcess,
      };
      const env = {
        PATRONI_NAME: name,
        PATRONI_RESTAPI_LISTEN: `127.0.0.1:${node.apiPort}`,
        PATRONI_RESTAPI_CONNECT_ADDRESS: `127.0.0.1:${node.apiPort}`,
        PATRONI_POSTGRESQL_LISTEN: `127.0.0.1:${node.pgPort}`,
        PATRONI_POSTGRESQL_CONNECT_ADDRESS: `127.0.0.1:${node.pgPort}`,
        PATRONI_POSTGRESQL_DATA_DIR: node.dataDir,
        PATRONI_ETCD3_HOSTS: `'127.0.0.1:${etcdPort}'`,
        PATRONI_SUPERUSER_PASSWORD: password,
        PATRONI_REPLICATION_PASSWORD: password,
        PATRONI_LOG_LEVEL: "WARNING",
      };
      // PostgreSQL refuses to run as root: Patroni and its PostgreSQL run as `postgres`.
      node.process =
        process.getuid?.() === 0
          ? spawnLogged(name, "runuser", [
              "-u",
              "postgres",
              "--",
              "/usr/bin/env",
              ...Object.entries(env).map(([k, v]) => `${k}=${v}`),
              programs.patroni,
              config,
            ])
          : spawnLogged(name, programs.patroni, [config], env);
      nodes.push(node);
      return node;
    };
    const first = await startNode("node1");
    await eventually(async () => (await api(first, "/primary")).status === 200, "node1 leading", 60_000);
    await Promise.all([startNode("node2"), startNode("node3")]);
    await eventually(
      async () => {
        const members = await cluster();
        return (
          members.some(
            (member) => member.role === "sync_standby" && ["running", "streaming"].includes(member.state),
          ) && members.filter((member) => ["running", "streaming"].includes(member.state)).length === 3
        );
      },
      "a synchronous standby and three running members",
      90_000,
    );

    const rwPort = await freePort();
    const roPort = await freePort();
    const statsPort = await freePort();
    spawnLogged("haproxy", programs.haproxy, ["-db", "-f", join(haDir, "haproxy.cfg")], {
      HAPROXY_RW_BIND: `127.0.0.1:${rwPort}`,
      HAPROXY_RO_BIND: `127.0.0.1:${roPort}`,
      HAPROXY_STATS_BIND: `127.0.0.1:${statsPort}`,
      ...Object.fromEntries(
        nodes.flatMap((node, index) => [
          [`PG_NODE${index + 1}`, `127.0.0.1:${node.pgPort}`],
          [`PG_NODE${index + 1}_API_PORT`, String(node.apiPort)],
        ]),
      ),
    });
    // HAProxy counts every server up until its checks say otherwise (3 × 3 s): wait until the
    // read-write side has exactly the leader and the read-only side the two replicas.
    await eventually(
      async () => {
        const csv = await (await fetch(`http://127.0.0.1:${statsPort}/;csv`)).text();
        const up = (proxy: string) =>
          csv.split("\n").filter((line) => {
            const fields = line.split(",");
            return fields[0] === proxy && fields[1]?.startsWith("node") && fields[17] === "UP";
          }).length;
        return up("primary") === 1 && up("replicas") === 2;
      },
      "HAProxy's checks to settle",
      30_000,
    );
    const url = (port: number, database: string) =>
      `postgresql://postgres:${password}@127.0.0.1:${port}/${database}`;
    await eventually(
      async () => {
        const client = new pg.Client({ connectionString: url(rwPort, "postgres") });
        await client.connect();
        try {
          await client.query("create database purse");
        } finally {
          await client.end();
        }
        return true;
      },
      "HAProxy's read-write port",
      30_000,
    );
    rwUrl = url(rwPort, "purse");
    const seeding = await openDatabase({ kind: "postgres", url: rwUrl }, { poolSize: 2 });
    try {
      await seeding.migrate();
      await seedFixture(seeding, secretBoxFromKey(secretKey), failoverFixture());
    } finally {
      await seeding.close();
    }
    site = await startMerchantSite();
    serve = await startServe({
      PURSE_WEBHOOK_ALLOW_PRIVATE: "on",
      DATABASE_URL: rwUrl,
      DATABASE_READ_URL: url(roPort, "purse"),
      REDIS_URL: testRedisUrl,
      PURSE_REDIS_PREFIX: `ha-${process.pid}`,
      PURSE_RATE_LIMIT_PER_MINUTE: "1000000",
      LOG_LEVEL: "warn",
    });
    await waitUntil(serve, "/readyz");
  }, 240_000);

  afterAll(async () => {
    await serve?.stop();
    await site?.close();
    // Patroni stops its PostgreSQL on SIGTERM (through runuser, which passes the signal on).
    for (const child of children.reverse()) {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    }
    await Promise.all(
      children.map((child) =>
        child.exitCode !== null || child.signalCode !== null
          ? undefined
          : new Promise<void>((resolve) => {
              const timer = setTimeout(() => {
                child.kill("SIGKILL");
                resolve();
              }, 20_000);
              child.once("exit", () => {
                clearTimeout(timer);
                resolve();
              });
            }),
      ),
    );
    if (root) await rm(root, { recursive: true, force: true });
  }, 60_000);

  it("loses and doubles nothing, answers 503 (never 500) during the outage and recovers within 10 s", async () => {
    const client = httpClient(serve.url);
    const tokens = await Promise.all(
      Array.from({ length: merchants }, (_, index) => client.token(`m${index + 1}`)),
    );
    const statuses = new Map<string, number>();
    const count = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + 1);
    const acknowledged = new Map<string, { id: number; at: number }>();
    let retried = 0;
    let missingRetryAfter = 0;
    /** A disruption: its time, the answers to calls sent from then until the first 200 after it. */
    interface Disruption {
      readonly name: string;
      readonly node: string;
      readonly at: number;
      firstOk: number;
      readonly answers: Map<string, number>;
    }
    const disruptions: Disruption[] = [];
    let stopAt = Number.POSITIVE_INFINITY;
    const givenUp = () => Date.now() > stopAt + retryAfterStopMs;
    const unanswered: string[] = [];
    // Each step's time since the load began, printed with the figures: where a slow run went.
    const startedAt = Date.now();
    const timeline: string[] = [];
    const mark = (step: string) => timeline.push(`${((Date.now() - startedAt) / 1000).toFixed(1)} s ${step}`);

    const worker = async (index: number) => {
      for (let sequence = 0; Date.now() < stopAt; sequence++) {
        const paymentId = `m${index + 1}-${sequence}`;
        // A payment is retried with the same payment_id until it is answered: never given up.
        for (let attempt = 0; ; attempt++) {
          if (givenUp()) {
            unanswered.push(paymentId);
            return;
          }
          if (attempt > 0) retried++;
          const sentAt = Date.now();
          const answer = await fetch(`${serve.url}/api/transaction/transfer`, {
            method: "POST",
            headers: { authorization: `Bearer ${tokens[index]}`, "content-type": "application/json" },
            body: JSON.stringify({
              wallet_from: walletOf(index + 1),
              wallet_to: sinkWallet,
              amount: "1.00",
              payment_id: paymentId,
            }),
            // Longer than the route lock: a hang past it is a failure of its own.
            signal: AbortSignal.timeout(15_000),
          }).then(
            async (response) => ({
              status: response.status,
              body: await response.json().catch(() => null),
              headers: response.headers,
            }),
            (error: Error) => ({ status: 0, body: { error: error.name }, headers: new Headers() }),
          );
          const key =
            answer.status === 0
              ? `no answer (${(answer.body as { error: string }).error})`
              : String(answer.status);
          count(statuses, key);
          for (const disruption of disruptions) {
            if (sentAt >= disruption.at && disruption.firstOk === Number.POSITIVE_INFINITY) {
              count(disruption.answers, key);
            }
          }
          if (answer.status === 503 && !answer.headers.get("retry-after")) missingRetryAfter++;
          if (answer.status === 200) {
            const id = (answer.body as { data: { id: number } }).data.id;
            acknowledged.set(paymentId, { id, at: Date.now() });
            for (const disruption of disruptions) {
              if (sentAt >= disruption.at) disruption.firstOk = Math.min(disruption.firstOk, Date.now());
            }
            break;
          }
          if (answer.status >= 400 && answer.status < 500 && answer.status !== 409 && answer.status !== 429) {
            throw new Error(`payment ${paymentId} refused: ${answer.status} ${JSON.stringify(answer.body)}`);
          }
          await new Promise((resolve) => setTimeout(resolve, 200));
        }
      }
    };
    // Beside the transfers, a shop's checkouts paid through the outage: each paid one must reach
    // the shop's webhook exactly once (the outbox survives the switch, the dispatcher neither loses
    // nor repeats a delivery), and an unpaid one never.
    const checkoutAnswers = new Map<string, number>();
    // Each paid checkout is then half refunded by the shop with an Idempotency-Key, retried with
    // the same key until answered: a refund that committed but was answered 503 replays on the
    // retry, never refunds twice.
    const shopToken = await client.token("shop");
    const refunded = new Map<string, number>();
    const refundOnce = async (paymentId: string) => {
      for (;;) {
        if (givenUp()) {
          unanswered.push(`refund ${paymentId}`);
          return;
        }
        const answer = await fetch(`${serve.url}/api/processing/refund`, {
          method: "POST",
          headers: {
            authorization: `Bearer ${shopToken}`,
            "content-type": "application/json",
            "idempotency-key": `refund-${paymentId}`,
          },
          body: JSON.stringify({ external_id: paymentId, amount: "1.00", reason: "failover" }),
          signal: AbortSignal.timeout(15_000),
        }).then(
          async (response) => ({ status: response.status, body: await response.json().catch(() => null) }),
          () => ({ status: 0, body: null }),
        );
        count(checkoutAnswers, `refund ${answer.status}`);
        if (answer.status === 200) {
          refunded.set(paymentId, (answer.body as { data: { id: number } }).data.id);
          return;
        }
        if (answer.status >= 400 && answer.status < 500 && answer.status !== 409 && answer.status !== 429) {
          throw new Error(`refund of ${paymentId} refused: ${answer.status} ${JSON.stringify(answer.body)}`);
        }
        await sleep(200);
      }
    };
    const shopWorker = async () => {
      for (let sequence = 0; Date.now() < stopAt; sequence++) {
        const paymentId = `shop-${sequence}`;
        const fields = { wallet_to: shopWallet, wallet_from: payerWallet, amount: "2.00", id: paymentId };
        const created = await postJson("/api/processing/checkout", {
          ...fields,
          signature: checkoutSignature(fields, "shop-form-token"),
          success_url: `${site.url}/success`,
          cancel_url: `${site.url}/cancel`,
          status_url: `${site.url}/webhook`,
          user_info: `payer-${paymentId}`,
        });
        count(checkoutAnswers, `create ${created.status}`);
        if (created.status !== 200) {
          await sleep(200);
          continue;
        }
        const url = (created.body as { data: { url: string } }).data.url;
        const token = url.slice(url.lastIndexOf("/") + 1);
        // Paid again with the same link until answered: a payment that committed but was answered
        // 503 is refused on the retry (the link is used), never paid twice.
        for (;;) {
          if (givenUp()) {
            unanswered.push(`pay ${paymentId}`);
            return;
          }
          const paid = await postJson("/api/processing/pay", {
            token,
            login: "payer",
            password: "payer-pass",
            action: "pay",
          });
          count(checkoutAnswers, `pay ${paid.status}`);
          if (paid.status === 200) await refundOnce(paymentId);
          if (
            paid.status === 200 ||
            (paid.status >= 400 && paid.status < 500 && paid.status !== 409 && paid.status !== 429)
          )
            break;
          await sleep(200);
        }
      }
    };
    // Beside the money, a merchant reading through the outage with a token it had before: history,
    // balances and a GraphQL search come from the replicas (DATABASE_READ_URL), authentication
    // included, while the primary is gone; each read sent from the leader's death until the first
    // transfer answered after it is counted.
    const readsDuringOutage = new Map<string, number>();
    const today = new Date().toISOString().slice(0, 10);
    const reads = [
      { path: `/api/transactions/histories?startDate=${today}&endDate=${today}&page=1&itemsPerPage=5` },
      { path: "/api/wallets" },
      { path: "/graphql", body: { query: "{ transactions(first: 5) { edges { node { id } } } }" } },
    ];
    const readerWorker = async () => {
      for (let sequence = 0; Date.now() < stopAt; sequence++) {
        const read = reads[sequence % reads.length] as { path: string; body?: unknown };
        const sentAt = Date.now();
        const answer = await fetch(`${serve.url}${read.path}`, {
          method: read.body ? "POST" : "GET",
          headers: {
            authorization: `Bearer ${tokens[0]}`,
            ...(read.body ? { "content-type": "application/json" } : {}),
          },
          ...(read.body ? { body: JSON.stringify(read.body) } : {}),
          signal: AbortSignal.timeout(15_000),
        }).then(
          (response) => response.status,
          () => 0,
        );
        const [killedLeader] = disruptions;
        if (killedLeader && sentAt >= killedLeader.at && sentAt < killedLeader.firstOk) {
          count(readsDuringOutage, `${read.path.split("?")[0]} ${answer}`);
        }
        await sleep(100);
      }
    };
    const postJson = (path: string, body: unknown) =>
      fetch(`${serve.url}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(15_000),
      }).then(
        async (response) => ({ status: response.status, body: await response.json().catch(() => null) }),
        () => ({ status: 0, body: null }),
      );
    const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    const leaderNode = async () => {
      const leader = (await cluster()).find((member) => member.role === "leader");
      const node = nodes.find((candidate) => candidate.name === leader?.name);
      if (!node) throw new Error("no leader");
      return node;
    };
    const disrupt = (name: string, node: Node) => {
      const disruption = {
        name,
        node: node.name,
        at: Date.now(),
        firstOk: Number.POSITIVE_INFINITY,
        answers: new Map(),
      };
      disruptions.push(disruption);
      return disruption;
    };

    const disruptionsDone = (async () => {
      try {
        await sleep(loadBeforeKillMs);
        // 1. The leader's postmaster dies: the synchronous standby is promoted.
        const killed = await leaderNode();
        const pid = Number((await readFile(join(killed.dataDir, "postmaster.pid"), "utf8")).split("\n")[0]);
        disrupt("leader postmaster SIGKILL", killed);
        process.kill(pid, "SIGKILL");
        mark(`${killed.name}'s postmaster killed`);
        await sleep(loadAfterKillMs);
        // 2. A switchover: the new leader is demoted and restarted read-only while HAProxy still
        // routes to it until its checks fail, the window in which connections land on a standby.
        await eventually(
          async () =>
            (await cluster()).some((member) => member.role === "sync_standby" && member.state !== "stopped"),
          "a synchronous standby again",
          60_000,
        );
        mark("a synchronous standby again");
        const leader = await leaderNode();
        const answer = await fetch(`http://127.0.0.1:${leader.apiPort}/switchover`, {
          method: "POST",
          body: JSON.stringify({ leader: leader.name }),
        });
        if (answer.status !== 200)
          throw new Error(`switchover refused: ${answer.status} ${await answer.text()}`);
        // Patroni answers once the new leader is promoted and the old one restarts read-only.
        disrupt("switchover", leader);
        mark(`${leader.name} switched over`);
        await sleep(loadAfterSwitchoverMs);
      } finally {
        stopAt = Date.now();
        mark("load stopped");
      }
    })();
    await Promise.all([
      disruptionsDone,
      shopWorker(),
      readerWorker(),
      ...Array.from({ length: merchants }, (_, index) => worker(index)),
    ]);
    mark("every call answered or given up");

    const [killed, switched] = disruptions;
    const recovery = (disruption: Disruption | undefined) =>
      disruption ? (disruption.firstOk - disruption.at) / 1000 : Number.NaN;
    const newLeader = (await cluster()).find((member) => member.role === "leader")?.name;
    // The acknowledged payments, each exactly once, in the new primary's ledger.
    const queryRows = async <Row extends pg.QueryResultRow>(text: string) => {
      const db = new pg.Client({
        connectionString: rwUrl,
        connectionTimeoutMillis: 10_000,
        query_timeout: 30_000,
      });
      await db.connect();
      return (await db.query<Row>(text).finally(() => db.end())).rows;
    };
    const storedRows = await queryRows<{ external_id: string; n: string; id: string; amount_minor: string }>(
      `select external_id, count(*) as n, min(id) as id, min(amount_minor) as amount_minor
         from transactions where external_id like 'm%-%' group by external_id`,
    );
    const stored = { rows: storedRows };
    const paidCheckouts = await queryRows<{ payment_id: string }>(
      "select payment_id from checkouts where payment_id like 'shop-%' and status = 3",
    );
    const paidIds = paidCheckouts.map((row) => row.payment_id);
    // Every acknowledged refund once in the ledger, half of its checkout, under the id answered.
    const refundRows = await queryRows<{ payment_id: string; n: string; id: string; amount_minor: string }>(
      `select c.payment_id, count(*) as n, min(r.id) as id, min(r.amount_minor) as amount_minor
         from transactions r join checkouts c on c.transaction_id = r.refund_of
         where c.payment_id like 'shop-%' group by c.payment_id`,
    );
    const refundFound = new Map(refundRows.map((row) => [row.payment_id, row]));
    const refundsLost = [...refunded.keys()].filter((id) => !refundFound.has(id));
    const refundsDoubled = refundRows.filter((row) => Number(row.n) !== 1 || row.amount_minor !== "100");
    const refundsWrongId = [...refunded].filter(
      ([paymentId, id]) => Number(refundFound.get(paymentId)?.id) !== id,
    );
    const webhooksFor = (paymentId: string) =>
      site.received.filter((webhook) => JSON.parse(webhook.body).payment_id === paymentId);
    // Waited for, not required here: a webhook missing after the wait fails below, with the figures.
    // A delivery leased by a commit the dying primary made but never answered goes again once its
    // lease (the dispatcher's 60 s) runs out: the wait outlasts it.
    await eventually(
      async () => paidIds.every((id) => webhooksFor(id).length > 0),
      "every paid checkout's webhook",
      75_000,
    ).catch(() => undefined);
    mark("paid checkouts' webhooks waited for");
    // Time for a repeated delivery to show up, had one been scheduled.
    await sleep(3_000);
    const webhookMissing = paidIds.filter((id) => webhooksFor(id).length === 0);
    const webhookCounts = new Map<string, number>();
    for (const webhook of site.received) count(webhookCounts, JSON.parse(webhook.body).payment_id as string);
    const deliveredTwice = [...webhookCounts].filter(([, times]) => times > 1);
    const deliveredUnpaid = [...webhookCounts.keys()].filter((id) => !paidIds.includes(id));
    const notSuccess = paidIds.filter((id) =>
      webhooksFor(id).some((webhook) => JSON.parse(webhook.body).status !== "SUCCESS"),
    );
    const found = new Map(stored.rows.map((row) => [row.external_id, row]));
    const lost = [...acknowledged.keys()].filter((paymentId) => !found.has(paymentId));
    const doubled = stored.rows.filter((row) => Number(row.n) !== 1);
    const wrongId = [...acknowledged].filter(
      ([paymentId, answer]) => Number(found.get(paymentId)?.id) !== answer.id,
    );
    const wrongAmount = stored.rows.filter((row) => row.amount_minor !== "100");
    // Still serving after all that: had it stopped, say how, with what it printed last.
    expect(
      serve.child.exitCode ?? serve.child.signalCode,
      `purse serve ended during the test; its last output:\n${serve.output().slice(-6_000)}`,
    ).toBeNull();
    // A retry of an answered payment replays its transaction.
    const [someId, someAnswer] = [...acknowledged].find(([paymentId]) => paymentId.startsWith("m1-")) ?? [];
    const replay = await fetch(`${serve.url}/api/transaction/transfer`, {
      method: "POST",
      headers: { authorization: `Bearer ${tokens[0]}`, "content-type": "application/json" },
      body: JSON.stringify({
        wallet_from: walletOf(1),
        wallet_to: sinkWallet,
        amount: "1.00",
        payment_id: someId,
      }),
      signal: AbortSignal.timeout(15_000),
    });
    const replayed = (await replay.json()) as { data: { id: number } };
    const audit = await runPurse(["audit", "--json"], { DATABASE_URL: rwUrl });
    mark("audited");

    const figures = {
      killed: killed?.node,
      recoverySeconds: recovery(killed),
      duringOutage: Object.fromEntries(killed?.answers ?? []),
      switchedOver: switched?.node,
      switchoverRecoverySeconds: recovery(switched),
      duringSwitchover: Object.fromEntries(switched?.answers ?? []),
      leaderAtEnd: newLeader,
      acknowledged: acknowledged.size,
      foundInLedger: stored.rows.length,
      lost: lost.length,
      doubled: doubled.length,
      retriedCalls: retried,
      statuses: Object.fromEntries(statuses),
      auditExit: audit.code,
      checkoutAnswers: Object.fromEntries(checkoutAnswers),
      readsDuringOutage: Object.fromEntries(readsDuringOutage),
      checkoutsPaid: paidIds.length,
      refundsAcknowledged: refunded.size,
      refundsInLedger: refundRows.length,
      webhooksReceived: site.received.length,
      webhooksDeliveredTwice: deliveredTwice.length,
      webhooksMissing: webhookMissing.length,
      unanswered: unanswered.length,
      timeline,
    };
    console.log(`Patroni failover figures: ${JSON.stringify(figures)}`);
    if (lost.length || doubled.length || unanswered.length || !(recovery(killed) <= 10))
      console.log(log.slice(-200).join("\n"));

    expect(newLeader).toBeDefined();
    expect(switched?.node).not.toBe(killed?.node);
    expect(newLeader).not.toBe(switched?.node);
    expect(unanswered).toEqual([]);
    expect(lost).toEqual([]);
    expect(doubled).toEqual([]);
    expect(wrongId).toEqual([]);
    expect(wrongAmount).toEqual([]);
    expect(stored.rows.length).toBe(acknowledged.size);
    expect(statuses.get("500") ?? 0).toBe(0);
    expect([...statuses.keys()].filter((key) => !["200", "503", "409"].includes(key))).toEqual([]);
    expect(missingRetryAfter).toBe(0);
    expect(recovery(killed)).toBeLessThanOrEqual(10);
    expect(recovery(switched)).toBeLessThanOrEqual(10);
    expect(replay.status).toBe(200);
    expect(replayed.data.id).toBe(someAnswer?.id);
    expect(audit.code, audit.output).toBe(0);
    expect(paidIds.length).toBeGreaterThan(0);
    expect(deliveredTwice).toEqual([]);
    expect(refunded.size).toBeGreaterThan(0);
    expect(refundsLost).toEqual([]);
    expect(refundsDoubled).toEqual([]);
    expect(refundsWrongId).toEqual([]);
    expect(webhookMissing).toEqual([]);
    expect(deliveredUnpaid).toEqual([]);
    expect(notSuccess).toEqual([]);
    // Reads answered through the outage: sent while only the replicas were up, every one a 200.
    expect([...readsDuringOutage.values()].reduce((sum, n) => sum + n, 0)).toBeGreaterThan(0);
    expect([...readsDuringOutage.keys()].filter((key) => !key.endsWith(" 200"))).toEqual([]);
    expect(serve.child.exitCode).toBeNull();
    // The load's 27 s, a standby's return (at most 60 s), the retries past the load (20 s), the
    // webhooks (75 s), the audit: each step bounded on its own, so the figures always print.
  }, 240_000);
});

const sinkWallet = "U200000900";
const shopWallet = "U200000800";
const payerWallet = "U200000700";
function walletOf(merchant: number): string {
  return `U2000000${String(merchant).padStart(2, "0")}`;
}

/** Eight merchants with a well-funded USD wallet each, paying one sink: no route lock is shared. */
function failoverFixture() {
  const base = sampleFixture();
  const ids = Array.from({ length: 8 }, (_, index) => index + 1);
  return {
    ...base,
    users: [
      ...ids.map((n) => ({
        id: 100 + n,
        name: `Merchant ${n}`,
        role: "merchant",
        login: `m${n}`,
        password: `m${n}-pass`,
      })),
      { id: 190, name: "Sink", role: "merchant", login: "sink", password: "sink-pass" },
      { id: 180, name: "Shop", role: "merchant", login: "shop", password: "shop-pass" },
      { id: 170, name: "Payer", role: "merchant", login: "payer", password: "payer-pass" },
    ],
    clients: [
      ...ids.map((n) => ({
        user_id: 100 + n,
        client_id: `m${n}`,
        client_secret: `m${n}-secret`,
        form_token: `m${n}-form-token`,
      })),
      { user_id: 180, client_id: "shop", client_secret: "shop-secret", form_token: "shop-form-token" },
    ],
    wallets: [
      ...ids.map((n) => ({
        id: 200 + n,
        user_id: 100 + n,
        number: walletOf(n),
        currency: "USD",
        amount: "1000000.00",
        amountLimit: "100000000.00",
      })),
      ...[
        { id: 280, user_id: 180, number: shopWallet, amount: "0.00" },
        { id: 270, user_id: 170, number: payerWallet, amount: "1000000.00" },
      ].map((wallet) => ({ ...wallet, currency: "USD", amountLimit: "100000000.00" })),
      {
        id: 290,
        user_id: 190,
        number: sinkWallet,
        currency: "USD",
        amount: "0.00",
        amountLimit: "100000000.00",
      },
    ],
    vouchers: [],
  };
}
