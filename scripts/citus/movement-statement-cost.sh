#!/usr/bin/env bash
# What a transfer's ledger statement costs PostgreSQL, measured by pg_stat_statements on a
# throwaway PostgreSQL 15 of its own (docs/sharding.md, "Costs"): for each checkout given, a fresh
# database migrated and seeded with the sample world by that checkout's `purse`, its `purse serve`,
# 200 transfers to warm up, then N transfers one after the other through REST (acme and bolt
# sending 1.00 to each other). It prints the ledger statement's mean execution time (the movement's
# one statement: the `insert into postings` it carries, triggers included), PostgreSQL's execution
# time of all statements per transfer, how many statements it ran per transfer (BEGIN and COMMIT
# included: the round trips stay the same if this does) and the wall time per transfer. Run it with
# the checkout before a change and the one after, alternated, in a quiet window:
#
#   scripts/citus/movement-statement-cost.sh /work/wt-before /work/wt-after [rounds] [transfers]
#
# Needs Redis on 127.0.0.1:6379 and the checkouts' npm install; runs PostgreSQL as `postgres`.
set -euo pipefail

rounds=${3:-3}
transfers=${4:-1000}
bin=/usr/lib/postgresql/15/bin
root=$(mktemp -d /tmp/purse-statement-cost.XXXXXX)
chown postgres "$root"
port=$((20000 + RANDOM % 20000))
serve_port=$((port + 1))
fixture="$root/sample.json"

cleanup() {
  [ -n "${serve_pid:-}" ] && kill "$serve_pid" 2>/dev/null || true
  su postgres -c "$bin/pg_ctl -D $root/data -m immediate stop" >/dev/null 2>&1 || true
  rm -rf "$root"
}
trap cleanup EXIT

su postgres -c "$bin/initdb -D $root/data -U postgres --auth=trust" >/dev/null
cat >>"$root/data/postgresql.conf" <<EOF
port = $port
listen_addresses = '127.0.0.1'
unix_socket_directories = '$root'
shared_preload_libraries = 'pg_stat_statements'
pg_stat_statements.track = top
fsync = off
EOF
su postgres -c "$bin/pg_ctl -D $root/data -l $root/log -w start" >/dev/null

psql_() { psql -h 127.0.0.1 -p "$port" -U postgres -Atq "$@"; }

# The sample world as `purse seed` takes it, written by the first checkout's testing package.
(cd "$1" && npx tsx --conditions=source -e "import('@purse/testing').then(({ sampleFixture }) =>
  require('node:fs').writeFileSync('$fixture', JSON.stringify(sampleFixture())))")

run() {
  local checkout=$1 name=$2
  psql_ -d postgres -c "create database $name"
  psql_ -d "$name" -c "create extension pg_stat_statements"
  local url="postgresql://postgres@127.0.0.1:$port/$name"
  export DATABASE_URL=$url PURSE_SECRET_KEY=statement-cost-secret-key-of-32-chars REDIS_URL=redis://127.0.0.1:6379
  export PURSE_SOURCE=1 LOG_LEVEL=silent PURSE_RATE_LIMIT_PER_MINUTE=1000000 PURSE_WEBHOOK_WORKER=off
  export PURSE_REDIS_PREFIX=$name PORT=$serve_port
  node "$checkout/packages/server/bin/purse.js" migrate >/dev/null
  node "$checkout/packages/server/bin/purse.js" seed "$fixture" >/dev/null
  node "$checkout/packages/server/bin/purse.js" serve >/dev/null 2>&1 &
  serve_pid=$!
  for _ in $(seq 1 120); do curl -sf "http://127.0.0.1:$serve_port/readyz" >/dev/null && break; sleep 0.5; done
  COST_PORT=$serve_port COST_TRANSFERS=$transfers COST_URL=$url node - <<'EOF'
const { COST_PORT: port, COST_TRANSFERS: transfers, COST_URL: url } = process.env;
const base = `http://127.0.0.1:${port}`;
const pg = require(require.resolve("pg", { paths: [process.env.DATABASE_CHECKOUT ?? process.cwd()] }));
(async () => {
  const tokenOf = (client) =>
    fetch(`${base}/token`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ grant_type: "client_credentials", client_id: client, client_secret: `${client}-secret` }),
    })
      .then((r) => r.json())
      .then((answer) => answer.access_token);
  // acme and bolt send 1.00 back and forth (the minimum), so no balance runs out.
  const sides = [
    { token: await tokenOf("acme"), from: "U100000010", to: "U100000020" },
    { token: await tokenOf("bolt"), from: "U100000020", to: "U100000010" },
  ];
  const move = async (n) => {
    const side = sides[Number(String(n).replace(/\D/g, "")) % 2];
    const answer = await fetch(`${base}/api/transaction/transfer`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${side.token}` },
      body: JSON.stringify({ wallet_from: side.from, wallet_to: side.to, amount: "1.00", payment_id: `cost-${n}` }),
    });
    if (answer.status !== 200) throw new Error(`transfer ${n}: ${answer.status} ${await answer.text()}`);
  };
  for (let n = 0; n < 200; n++) await move(`warm-${n}`);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query("select pg_stat_statements_reset()");
  const started = performance.now();
  for (let n = 0; n < Number(transfers); n++) await move(n);
  const wall = performance.now() - started;
  const { rows } = await client.query(`select
      (select sum(calls) from pg_stat_statements where query like '%insert into postings%') as calls,
      (select sum(total_exec_time) / sum(calls) from pg_stat_statements where query like '%insert into postings%') as statement_ms,
      (select sum(total_exec_time) from pg_stat_statements where dbid = (select oid from pg_database where datname = current_database())) as all_ms,
      (select sum(calls) from pg_stat_statements where dbid = (select oid from pg_database where datname = current_database())) as all_calls`);
  await client.end();
  const [row] = rows;
  console.log(JSON.stringify({
    transfers: Number(transfers),
    ledgerStatementCalls: Number(row.calls),
    ledgerStatementMeanMs: Number(Number(row.statement_ms).toFixed(4)),
    postgresMsPerTransfer: Number((Number(row.all_ms) / Number(transfers)).toFixed(4)),
    statementsPerTransfer: Number((Number(row.all_calls) / Number(transfers)).toFixed(2)),
    wallMsPerTransfer: Number((wall / Number(transfers)).toFixed(3)),
  }));
})().catch((error) => { console.error(error); process.exit(1); });
EOF
  kill "$serve_pid"
  wait "$serve_pid" 2>/dev/null || true
  serve_pid=
}

for round in $(seq 1 "$rounds"); do
  for checkout in "$1" "$2"; do
    printf '%s round %s %s load %s: ' "$(date -u +%T)" "$round" "$checkout" "$(cut -d' ' -f1-3 /proc/loadavg)"
    DATABASE_CHECKOUT=$checkout run "$checkout" "cost_${round}_$(basename "$checkout" | tr -c 'a-z0-9\n' '_')"
  done
done
