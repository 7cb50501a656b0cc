#!/bin/sh
# Stand-in entrypoint: redis-server as the official image runs it (protected mode off).
set -eu
if [ "$1" = redis-server ]; then
  shift
  exec redis-server --protected-mode no "$@"
fi
exec "$@"
