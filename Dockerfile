# syntax=docker/dockerfile:1
# Multi-stage image (docs/self-hosting.md): the packages are installed once (compilers,
# dev dependencies), the production ones pruned from them in a stage of their own, the
# app built in another; the runtime gets only what runs, as a non-root user.
# A code-only change rebuilds the `build` stage and the last layers: the packages stay.
#
# podman: build with `podman build --format docker` (its default OCI format drops
# HEALTHCHECK).

FROM node:22-bookworm-slim AS deps
# better-sqlite3 is compiled from source here (no prebuilt binary is downloaded)
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
# node-gyp builds against the image's own Node headers (/usr/local/include/node) instead
# of downloading them
ENV npm_config_build_from_source=true \
    npm_config_nodedir=/usr/local
COPY package.json package-lock.json ./
# patch-package fixes react-dom (see patches/) when npm ci installs it
COPY patches ./patches
RUN npm ci --no-audit --no-fund

FROM deps AS runtime-deps
# Production packages only, without what was only needed to build them: TypeScript is an
# optional peer of Remix's runtime that nothing loads; sharp's builds for musl and wasm
# (this is glibc Debian, about 28 MB); better-sqlite3 keeps its compiled module, not the
# SQLite sources and object files (about 27 MB); no source maps, type declarations or
# READMEs.
RUN npm prune --omit=dev --no-audit --no-fund \
 && rm -rf node_modules/typescript node_modules/@img/*musl* node_modules/@img/sharp-wasm32 \
 && cd node_modules/better-sqlite3 \
 && find build -mindepth 1 -not -path 'build/Release' -not -path 'build/Release/better_sqlite3.node' -delete \
 && rm -rf deps src \
 && cd /app \
 && find node_modules \( -name '*.map' -o -name '*.d.ts' -o -name '*.d.mts' -o -name '*.d.cts' -o -name '*.md' -o -name '*.markdown' \) -type f -delete

FROM deps AS build
COPY . .
RUN npm run build

FROM node:22-bookworm-slim AS runtime-base
# tini is PID 1: a stop that comes before node runs any code of ours (node as PID 1 would
# not even see it: the kernel drops signals PID 1 has no handler for) ends the container
# at once, and exited children are reaped.
# Out of the running image (decision 037): Node's C headers (65 MB: nothing is compiled
# here), message translations and manual pages (the server logs in English), npm's own
# documentation, corepack and yarn (the shop runs npm only), apt's caches.
RUN apt-get update \
 && apt-get install -y --no-install-recommends tini \
 && rm -rf /var/lib/apt/lists/* /var/cache/apt/*.bin /var/cache/debconf/*-old /var/log/apt /var/log/dpkg.log \
 && rm -rf /usr/local/include /usr/share/locale/* /usr/share/man/* /usr/share/info/* \
    /usr/local/lib/node_modules/npm/docs /usr/local/lib/node_modules/npm/man \
    /usr/local/lib/node_modules/corepack /usr/local/bin/corepack /opt/yarn-* /usr/local/bin/yarn /usr/local/bin/yarnpkg \
 && mkdir -p /data /uploads /replica && chown node:node /data /uploads /replica

# The base, as one layer without what was taken out above: files removed in a later layer
# of an image still count in its size (and are still downloaded).
FROM scratch AS runtime
COPY --from=runtime-base / /
# the data folder, and mount points for uploads and a Litestream replica on volumes of their
# own (deploy/compose.one-box.yml): a new named volume takes the ownership of its mount
# point. A new shop opens empty: demo data only when asked for (SEED_DEMO=1). MALLOC_ARENA_MAX:
# what `npm start` sets (server/start-command.ts startEnv), as the CMD runs node directly
ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    NODE_ENV=production \
    MALLOC_ARENA_MAX=2 \
    DATA_DIR=/data \
    PORT=3000 \
    HOST=0.0.0.0 \
    SEED_DEMO=0 \
    NPM_CONFIG_UPDATE_NOTIFIER=false
WORKDIR /app
COPY --from=runtime-deps /app/node_modules ./node_modules
COPY package.json package-lock.json ./
# the server and the maintenance scripts, compiled (npm run backup, restore, admin:create,
# migrate, seed run build/server/<name>.js through scripts/run.mjs), and their launchers
COPY --from=build /app/build ./build
COPY --from=build /app/public ./public
COPY server/start.mjs ./server/
COPY scripts/run.mjs ./scripts/
USER node
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# node directly (not npm) under tini, so a stop reaches the server at any time: during
# start-up SIGTERM ends it at once, once it serves it stops gracefully (the same flags as
# `npm start` in package.json)
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "--max-semi-space-size=4", "--heap-growing-percent=30", "server/start.mjs"]
