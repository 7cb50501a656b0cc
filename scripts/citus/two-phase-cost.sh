#!/usr/bin/env bash
# What a transfer between owners on two workers costs on a Citus cluster, against the same two-row
# transfer on one worker and on a plain table of the coordinator (docs/sharding.md, "Costs").
#
#   scripts/citus/two-phase-cost.sh <coordinator-url> [seconds]
#
# Each case is pgbench (one client, so the figure is latency, not throughput) running
#   begin; update ... where user_id = :from; update ... where user_id = :to; commit;
# over a table of its own, which it creates and drops: Purse's own movement does not run on a
# distributed schema yet, so this measures what Citus adds to the same shape of transaction (a
# second worker's round trips and the two-phase commit), not Purse's movement itself.
set -euo pipefail
url=${1:?usage: two-phase-cost.sh <coordinator-url> [seconds]}
seconds=${2:-20}
pgbench=${PGBENCH:-/usr/lib/postgresql/15/bin/pgbench}
work=$(mktemp -d "${TMPDIR:-/tmp}/purse-two-phase.XXXXXX")
trap 'psql -X -q "$url" -c "drop table if exists purse_two_phase_distributed, purse_two_phase_plain" >/dev/null 2>&1; rm -rf "$work"' EXIT

psql -X -q -v ON_ERROR_STOP=1 "$url" >/dev/null <<'SQL'
create table purse_two_phase_distributed (user_id bigint primary key, balance bigint not null);
create table purse_two_phase_plain (user_id bigint primary key, balance bigint not null);
select create_distributed_table('purse_two_phase_distributed', 'user_id');
insert into purse_two_phase_distributed select g, 1000000000 from generate_series(1, 1000) g;
insert into purse_two_phase_plain select g, 1000000000 from generate_series(1, 1000) g;
SQL

# Two owners on different workers, and two on the same worker (by their shard's placement).
pair() {
  psql -X -At "$url" -c "
    with placed as (
      select user_id, (select nodeport from citus_shards s
        where s.shardid = get_shard_id_for_distribution_column('purse_two_phase_distributed', user_id)) as port
      from generate_series(1, 1000) user_id)
    select a.user_id || ' ' || b.user_id from placed a join placed b on a.user_id < b.user_id
    where (a.port $1 b.port) order by a.user_id, b.user_id limit 1"
}
read -r cross_from cross_to <<<"$(pair '<>')"
read -r same_from same_to <<<"$(pair '=')"

run() { # name table from to
  cat >"$work/$1.sql" <<SQL
begin;
update $2 set balance = balance - 1 where user_id = $3;
update $2 set balance = balance + 1 where user_id = $4;
commit;
SQL
  "$pgbench" -n -c 1 -T "$seconds" -f "$work/$1.sql" "$url" 2>/dev/null |
    awk -v name="$1" '/latency average/ { lat = $4 } /^tps/ { tps = $3 } END { printf "%-28s latency %s ms  (%s transfers/s, one client)\n", name, lat, tps }'
}
echo "load before: $(uptime | sed 's/.*load average: //')"
run plain-table purse_two_phase_plain 1 2
run one-worker purse_two_phase_distributed "$same_from" "$same_to"
run two-workers purse_two_phase_distributed "$cross_from" "$cross_to"
echo "load after: $(uptime | sed 's/.*load average: //')"
