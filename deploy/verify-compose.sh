#!/usr/bin/env bash
# Runs compose.yaml end to end and prints each result. Run by hand on a machine with Docker and
# Compose (v2 `docker compose` or v1.29 `docker-compose`); it is NOT run in CI (CI has no Docker).
#
#   deploy/verify-compose.sh            # uses purse:local if it exists, builds it otherwise
#   deploy/verify-compose.sh --build    # rebuilds purse:local from this tree first
#
# Steps: start PostgreSQL, three Redis nodes and two Purse processes (project `purse-verify`, its
# own volume); wait for both processes' /readyz 200 and Docker's health check; seed
# fixtures/demo.json through process 1; take a token and make a transfer through process 1, read
# it through process 2; stop one Redis node: /readyz still 200 and a transfer still succeeds (2 of
# 3 is a Redlock majority); stop a second: /readyz 503 naming both and a transfer refused; start
# both again: ready and paying again; then `down -v`, whatever happened (PURSE_VERIFY_KEEP=1
# keeps the stack up for a look). Exit code 0 only if every check passed.
#
# Where Docker Hub is unreachable, build the stand-ins in deploy/standins/ and point the script at
# them: PURSE_POSTGRES_IMAGE=purse-standin/postgres:15 PURSE_REDIS_IMAGE=purse-standin/redis:7.
# Uses ports 3001 and 3002 on the host, curl and python3.
set -uo pipefail
cd "$(dirname "$0")/.."

export DOCKER_BUILDKIT="${DOCKER_BUILDKIT:-0}" # the classic builder: no frontend to fetch
# Compose 1.29 gives up on a Docker API call after 60 s; creating a container copies the whole image
# on the vfs storage driver, which took longer than that on a loaded machine here.
export COMPOSE_HTTP_TIMEOUT="${COMPOSE_HTTP_TIMEOUT:-600}"
export PURSE_SECRET_KEY="${PURSE_SECRET_KEY:-$(openssl rand -base64 48)}"
project="${PURSE_VERIFY_PROJECT:-purse-verify}"
if docker compose version > /dev/null 2>&1; then
  compose=(docker compose -p "$project")
  version=$(docker compose version | head -n 1)
elif command -v docker-compose > /dev/null; then
  compose=(docker-compose -p "$project")
  version=$(docker-compose version | head -n 1)
else
  echo "neither 'docker compose' nor 'docker-compose' is installed" >&2
  exit 2
fi
p1=http://127.0.0.1:3001
p2=http://127.0.0.1:3002
failures=0

step() { printf '\n== %s\n' "$*"; }
pass() { printf 'PASS  %s\n' "$*"; }
fail() {
  printf 'FAIL  %s\n' "$*"
  failures=$((failures + 1))
}
# status_and_body URL [curl args...]: prints "<status> <body>" on one line.
status_and_body() {
  local url=$1
  shift
  local out
  out=$(curl -s -m 30 -w '\n%{http_code}' "$@" "$url")
  printf '%s %s' "${out##*$'\n'}" "${out%$'\n'*}"
}
json_field() { python3 -c 'import json,sys; d=json.load(sys.stdin); print(eval("d"+sys.argv[1]))' "$1" 2> /dev/null; }
readyz() { status_and_body "$1/readyz"; }
transfer() { # base_url token amount
  status_and_body "$1/api/transaction/transfer" -X POST -H "Authorization: Bearer $2" \
    -H 'Content-Type: application/json' \
    -d "{\"wallet_from\":\"U100000010\",\"wallet_to\":\"U100000020\",\"amount\":\"$3\"}"
}
cleanup() {
  if [ "${PURSE_VERIFY_KEEP:-0}" = 1 ]; then
    echo "PURSE_VERIFY_KEEP=1: the stack stays up (${compose[*]} down -v to remove it)"
    return
  fi
  step "${compose[*]} down -v"
  "${compose[@]}" down -v 2>&1 | grep -v "\.\.\. *$" | tail -n 4
}

step "${compose[*]} up -d ($version)"
"${compose[@]}" down -v > /dev/null 2>&1 # leftovers of an interrupted run of this project only
trap cleanup EXIT
[ "${1:-}" = --build ] && { "${compose[@]}" build purse-1 || exit 1; }
if ! "${compose[@]}" up -d 2>&1; then
  fail "the stack did not start"
  exit 1
fi

step "waiting for /readyz 200 on both Purse processes (up to 180 s)"
started=$SECONDS
for url in $p1 $p2; do
  until [ "$(readyz $url | cut -d' ' -f1)" = 200 ] || [ $((SECONDS - started)) -gt 180 ]; do sleep 2; done
  result=$(readyz $url)
  if [ "${result%% *}" = 200 ]; then pass "$url/readyz after $((SECONDS - started)) s: $result"; else fail "$url/readyz: $result"; fi
done
if [ "$failures" -gt 0 ]; then
  "${compose[@]}" logs --tail 30 purse-1 purse-2
  exit 1
fi

step "waiting for Docker's health check (the image's HEALTHCHECK on /readyz) to say healthy"
for service in purse-1 purse-2; do
  container=$("${compose[@]}" ps -q $service)
  health=
  until [ "$health" = healthy ] || [ $((SECONDS - started)) -gt 240 ]; do
    sleep 2
    health=$(docker inspect -f '{{.State.Health.Status}}' "$container")
  done
  if [ "$health" = healthy ]; then pass "$service $health after $((SECONDS - started)) s"; else fail "$service: $health"; fi
done

step "seed fixtures/demo.json through process 1 (purse seed inside the container)"
if out=$("${compose[@]}" exec -T purse-1 node packages/server/bin/purse.js seed /dev/stdin < fixtures/demo.json 2>&1); then
  pass "$out"
else
  fail "$out"
fi

step "token and transfer through process 1, read back through process 2"
token=$(curl -s -m 30 -X POST $p1/token -H 'Content-Type: application/json' \
  -d '{"grant_type":"client_credentials","client_id":"acme","client_secret":"acme-secret","scope":"api"}' |
  json_field '["access_token"]')
if [ -n "$token" ]; then pass "token from process 1 (${#token} characters)"; else fail "no token from process 1"; fi
result=$(transfer $p1 "$token" 10.00)
echo "process 1 transfer: $result"
id=$(printf '%s' "${result#* }" | json_field '["data"]["id"]')
if [ "${result%% *}" = 200 ] && [ -n "$id" ]; then pass "transfer $id through process 1"; else fail "transfer through process 1"; fi
result=$(status_and_body "$p2/api/transaction/show?id=$id" -H "Authorization: Bearer $token")
echo "process 2 show: $result"
if [ "${result%% *}" = 200 ] && [[ $result == *"$id"* ]]; then pass "process 2 reads transaction $id"; else fail "process 2 read of $id"; fi

step "stop redis-c: 2 of 3 nodes answer, a Redlock majority"
"${compose[@]}" stop redis-c 2>&1 | tail -n 1
for url in $p1 $p2; do
  result=$(readyz $url)
  if [ "${result%% *}" = 200 ]; then pass "$url/readyz: $result"; else fail "$url/readyz: $result"; fi
done
for url in $p1 $p2; do
  begun=$(date +%s%N)
  result=$(transfer $url "$token" 1.00)
  took=$((($(date +%s%N) - begun) / 1000000))
  if [ "${result%% *}" = 200 ]; then pass "transfer through $url in $took ms: $result"; else fail "transfer through $url in $took ms: $result"; fi
done

step "stop redis-b too: 1 of 3 answers, no majority"
"${compose[@]}" stop redis-b 2>&1 | tail -n 1
for url in $p1 $p2; do
  result=$(readyz $url)
  if [ "${result%% *}" = 503 ] && [[ $result == *redis-b* ]] && [[ $result == *redis-c* ]]; then
    pass "$url/readyz: $result"
  else
    fail "$url/readyz (503 naming redis-b and redis-c expected): $result"
  fi
done
begun=$(date +%s%N)
result=$(transfer $p1 "$token" 1.00)
took=$((($(date +%s%N) - begun) / 1000000))
if [ "${result%% *}" != 200 ]; then pass "transfer refused in $took ms: $result"; else fail "transfer accepted without a majority: $result"; fi

step "start redis-b and redis-c again: ready and paying again"
"${compose[@]}" start redis-b redis-c 2>&1 | tail -n 2
started=$SECONDS
until [ "$(readyz $p1 | cut -d' ' -f1)" = 200 ] && [ "$(readyz $p2 | cut -d' ' -f1)" = 200 ] ||
  [ $((SECONDS - started)) -gt 60 ]; do sleep 1; done
for url in $p1 $p2; do
  result=$(readyz $url)
  if [ "${result%% *}" = 200 ] && [[ $result == *'"redis":"ok"'* ]]; then pass "$url/readyz after $((SECONDS - started)) s: $result"; else fail "$url/readyz: $result"; fi
done
result=$(transfer $p2 "$token" 1.00)
if [ "${result%% *}" = 200 ]; then pass "transfer through process 2: $result"; else fail "transfer through process 2: $result"; fi
"${compose[@]}" ps
docker logs --since 5m "$("${compose[@]}" ps -q purse-1)" 2>&1 | grep -v '"msg":"\(incoming request\|request completed\)"' | cut -c1-300 | sed 's/^/purse-1 log: /'

step "summary"
if [ "$failures" = 0 ]; then echo "all checks passed"; else echo "$failures check(s) failed"; fi
[ "$failures" = 0 ]
