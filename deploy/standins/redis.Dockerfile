# A STAND-IN for the official redis image, for machines that cannot reach Docker Hub (this one,
# docs/deploy.md "Compose, as run here"). Not for production: use the official image there.
# Debian bookworm's Redis 7.0 on the local base image, run like the official image: redis-server
# without a config file, protected mode off (the official image builds it so; Debian's binary keeps
# it on and would refuse the other containers).
#   docker build -t purse-standin/redis:7 -f deploy/standins/redis.Dockerfile deploy/standins
ARG BASE=node:22-bookworm-slim
FROM ${BASE}
RUN apt-get update \
 && apt-get install -y --no-install-recommends redis-server \
 && rm -rf /var/lib/apt/lists/*
COPY redis-entrypoint.sh /usr/local/bin/redis-entrypoint.sh
EXPOSE 6379
USER redis
WORKDIR /var/lib/redis
ENTRYPOINT ["/usr/local/bin/redis-entrypoint.sh"]
CMD ["redis-server"]
