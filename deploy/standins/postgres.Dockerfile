# A STAND-IN for the official postgres image, for machines that cannot reach Docker Hub (this one,
# docs/deploy.md "Compose, as run here"). Not for production: use the official image there.
# Debian bookworm's PostgreSQL 15 on the local base image; the same environment variables
# (POSTGRES_USER, POSTGRES_PASSWORD, POSTGRES_DB), data directory and pg_isready as the official one.
#   docker build -t purse-standin/postgres:15 -f deploy/standins/postgres.Dockerfile deploy/standins
ARG BASE=node:22-bookworm-slim
FROM ${BASE}
RUN mkdir -p /etc/postgresql-common \
 && echo 'create_main_cluster = false' > /etc/postgresql-common/createcluster.conf \
 && apt-get update \
 && apt-get install -y --no-install-recommends postgresql-15 \
 && rm -rf /var/lib/apt/lists/*
ENV PATH=/usr/lib/postgresql/15/bin:$PATH PGDATA=/var/lib/postgresql/data
RUN mkdir -p "$PGDATA" /var/run/postgresql && chown -R postgres:postgres /var/lib/postgresql /var/run/postgresql
COPY postgres-entrypoint.sh /usr/local/bin/postgres-entrypoint.sh
EXPOSE 5432
STOPSIGNAL SIGINT
ENTRYPOINT ["/usr/local/bin/postgres-entrypoint.sh"]
CMD ["postgres"]
