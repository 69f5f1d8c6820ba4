# syntax=docker/dockerfile:1
# Multi-stage image: build (compilers, dev dependencies) → small runtime as a non-root user.
# Every step below is also run outside Docker by the project (see README "Docker").

FROM node:22-bookworm-slim AS build
# better-sqlite3 is compiled from source here (no prebuilt binary is downloaded)
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
ENV npm_config_build_from_source=true
COPY package.json package-lock.json ./
# patch-package fixes react-dom (see patches/) when npm ci installs it
COPY patches ./patches
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build \
 && npm prune --omit=dev --no-audit --no-fund

FROM node:22-bookworm-slim AS runtime
ENV NODE_ENV=production \
    DATA_DIR=/data \
    PORT=3000 \
    HOST=0.0.0.0
WORKDIR /app
COPY --from=build /app/package.json /app/package-lock.json /app/tsconfig.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/build ./build
COPY --from=build /app/public ./public
COPY --from=build /app/app ./app
COPY --from=build /app/db ./db
COPY --from=build /app/scripts ./scripts
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# node directly (not npm) so SIGTERM reaches the server and it stops gracefully
# (the same flags as `npm start` in package.json)
CMD ["node", "--max-semi-space-size=4", "--heap-growing-percent=30", "scripts/start.mjs"]
