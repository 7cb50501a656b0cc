# syntax=docker/dockerfile:1
# Multi-stage image of Purse: build the JavaScript once, ship it with production dependencies only,
# run as an unprivileged user, report health from /readyz. See docs/deploy.md.

FROM node:22-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json turbo.json tsconfig.base.json ./
COPY packages packages
COPY examples examples
COPY test/package.json test/package.json
RUN npm ci --no-audit --no-fund
RUN npm run build

FROM node:22-bookworm-slim AS dependencies
WORKDIR /app
COPY package.json package-lock.json ./
COPY --from=build /app/packages packages
COPY --from=build /app/examples examples
COPY test/package.json test/package.json
# Production dependencies only: no Node-from-npm (the image has Node 22 itself).
# The test-support workspace (packages/testing) still brings vitest and, through it, tsx and
# esbuild (`npm ls vitest --omit=dev`); purse runs its bundle and needs none of them.
RUN npm ci --omit=dev --no-audit --no-fund --ignore-scripts=false && npm cache clean --force

FROM node:22-bookworm-slim
ENV NODE_ENV=production PORT=3000 HOST=0.0.0.0
# glibc: blocks of 1 MiB and more (argon2's 19 MiB per secret check) go back to the system when
# freed, instead of staying in a thread's arena: about 70 MB less resident (docs/deploy.md, Memory).
ENV MALLOC_MMAP_THRESHOLD_=1048576
# V8 collects request garbage before the old generation grows past 256 MB: ~180 MB resident under
# load instead of 205 to 290 MB (docs/deploy.md, Memory). AsyncLocalStorage without promise hooks
# (Node 24's default; Node 22 needs the flag, Node 24 refuses it): CPU per transfer −20 %.
ENV NODE_OPTIONS="--max-old-space-size=256 --experimental-async-context-frame"
WORKDIR /app
COPY --from=dependencies --chown=root:root /app /app
USER node
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# SIGTERM starts the graceful shutdown (requests in flight finish).
STOPSIGNAL SIGTERM
CMD ["node", "packages/server/bin/purse.js", "serve"]
