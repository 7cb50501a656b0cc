#!/usr/bin/env bash
# Builds Citus from the vendored source (../shared/vendor/citus, see its README: no source host is
# reachable from these machines) and installs it into the machine's PostgreSQL (pg_config), once.
#
# The build is staged (make install DESTDIR=...) into a cache outside the checkout, keyed by the
# Citus tag and the PostgreSQL minor version, because the compile costs ~5 minutes of two cores and
# a new checkout or worktree must not pay it again: a later run only copies the staged files, and a
# run where Citus is already installed does nothing.
#
#   scripts/citus/build.sh            build when not cached, install when not installed
#   CITUS_VENDOR_DIR=...              where citus-<version>.tar.gz and the patches are
#   PURSE_CITUS_CACHE=...             cache root (default /var/cache/purse-citus)
set -euo pipefail

citus_version=13.2.2
tag="v$citus_version"
repo=$(cd "$(dirname "$0")/../.." && pwd)
vendor=${CITUS_VENDOR_DIR:-$repo/../shared/vendor/citus}
cache_root=${PURSE_CITUS_CACHE:-/var/cache/purse-citus}

log() { printf 'citus: %s\n' "$*"; }
fail() { printf 'citus: %s\n' "$*" >&2; exit 1; }

command -v pg_config >/dev/null || fail "pg_config not found: install postgresql-server-dev-15"
pg_version=$(pg_config --version | sed -n 's/^PostgreSQL \([0-9][0-9]*\.[0-9][0-9]*\).*/\1/p')
[ -n "$pg_version" ] || fail "cannot read the PostgreSQL version from '$(pg_config --version)'"
pkglibdir=$(pg_config --pkglibdir)
extension_dir="$(pg_config --sharedir)/extension"

installed_version() {
  # The control file's default_version names the SQL version (13.2-1), not the release; the
  # library's presence with that control file is what CREATE EXTENSION needs.
  [ -f "$pkglibdir/citus.so" ] && [ -f "$extension_dir/citus.control" ] &&
    sed -n "s/^default_version = '\(.*\)'/\1/p" "$extension_dir/citus.control"
}

cache="$cache_root/$tag-pg$pg_version"
stage="$cache/stage"
# Citus 13.2.x installs SQL version 13.2-<n> as the control file's default.
sql_version_prefix="${citus_version%.*}-"

current=$(installed_version || true)
if [ -n "$current" ]; then
  case "$current" in
  "$sql_version_prefix"*)
    log "Citus $current already installed for PostgreSQL $pg_version ($pkglibdir/citus.so); nothing to do"
    exit 0
    ;;
  *) fail "Citus $current is installed for PostgreSQL $pg_version, not $tag: remove it first" ;;
  esac
fi

if [ ! -f "$cache/complete" ]; then
  tarball="$vendor/citus-$citus_version.tar.gz"
  [ -f "$tarball" ] || fail "no $tarball (set CITUS_VENDOR_DIR)"
  for header in curl/curl.h lz4.h zstd.h krb5.h openssl/ssl.h; do
    [ -f "/usr/include/$header" ] || [ -f "/usr/include/x86_64-linux-gnu/$header" ] ||
      fail "missing /usr/include/$header: apt-get install postgresql-server-dev-15 libcurl4-openssl-dev liblz4-dev libzstd-dev libkrb5-dev libssl-dev"
  done
  work=$(mktemp -d "${TMPDIR:-/tmp}/purse-citus-build.XXXXXX")
  trap 'rm -rf "$work"' EXIT
  log "unpacking $tarball"
  tar -xzf "$tarball" -C "$work"
  src="$work/citus-$citus_version"
  [ -d "$src" ] || src=$(find "$work" -mindepth 1 -maxdepth 1 -type d | head -n 1)

  # PostgreSQL 15.20 declares and exports have_createdb_privilege(), which Citus 13.2.2 also
  # defines as a static inline: the compile stops unless Citus's copy is left out (README there).
  if grep -q 'have_createdb_privilege' "$(pg_config --includedir-server)/commands/dbcommands.h" 2>/dev/null &&
    grep -q 'have_createdb_privilege' "$src/src/include/pg_version_compat.h"; then
    log "PostgreSQL $pg_version declares have_createdb_privilege(): applying pg15.20-have_createdb_privilege.patch"
    patch -d "$src" -p1 --forward --quiet <"$vendor/pg15.20-have_createdb_privilege.patch"
  fi

  # Heavy: wait while a timed benchmark runs (the lead's quiet window), then compile at the
  # lowest priority so the other work on the machine keeps its share.
  if [ -x /work/briefs/wait-quiet.sh ]; then /work/briefs/wait-quiet.sh; fi
  jobs=$(nproc 2>/dev/null || echo 2)
  log "configure (PostgreSQL $pg_version, $(pg_config --bindir))"
  (cd "$src" && nice -n 19 ./configure --quiet PG_CONFIG="$(command -v pg_config)") >"$work/configure.log" 2>&1 ||
    { tail -n 30 "$work/configure.log" >&2; fail "configure failed"; }
  log "make -j$jobs (about 5 minutes on two cores; log in $work/make.log)"
  started=$(date +%s)
  (
    cd "$src" && nice -n 19 make -j"$jobs" >"$work/make.log" 2>&1
  ) &
  make_pid=$!
  while kill -0 "$make_pid" 2>/dev/null; do
    sleep 30
    kill -0 "$make_pid" 2>/dev/null &&
      log "  compiling: $(($(date +%s) - started)) s, $(find "$src/src" -name '*.o' -o -name '*.bc' | wc -l) objects and bitcode files"
  done
  wait "$make_pid" || { tail -n 30 "$work/make.log" >&2; fail "make failed"; }
  log "compiled in $(($(date +%s) - started)) s; staging into $stage"
  rm -rf "$stage"
  mkdir -p "$stage"
  (cd "$src" && make install DESTDIR="$stage") >"$work/install.log" 2>&1 ||
    { tail -n 30 "$work/install.log" >&2; fail "make install failed"; }
  printf 'Citus %s for PostgreSQL %s, built %s\n' "$tag" "$pg_version" "$(date -u +%FT%TZ)" >"$cache/complete"
else
  log "using the cached build in $cache"
fi

log "installing into $(dirname "$pkglibdir") and $extension_dir"
cp -a "$stage/." /
log "installed: Citus $(installed_version) ($pkglibdir/citus.so)"
