#!/usr/bin/env bash
# Makes the Testcontainers branch of packages/db runnable on a machine that has no Docker engine and cannot pull
# from Docker Hub (CI's case):
#   1. installs Debian's docker.io and debootstrap with apt-get when dockerd or debootstrap is missing;
#   2. starts dockerd in the background when no engine answers (log: .tools/dockerd.log);
#   3. builds a local stand-in for the official postgres image, unless an up-to-date one is already there:
#      a debootstrap'ed Debian bookworm with PostgreSQL 15 (contrib included), `docker import`ed, plus the
#      Dockerfile and entrypoint in .ci/postgres-standin/ that follow the official image's contract.
# Idempotent and non-interactive; needs root. Prints what it did and how long each step took, and the image to
# use on its last line ("image: NAME"). Exits non-zero with a message naming the step that failed.
#
#   .ci/testcontainers-standin.sh        set everything up (what CI runs before the Testcontainers tests)
#   .ci/testcontainers-standin.sh down   remove the containers started from the stand-in or by Testcontainers
#                                        and stop the dockerd this script started (CI runs it afterwards)
#
# Variables: STANDIN_IMAGE (default api-ref/postgres-standin:15), STANDIN_CACHE (where the debootstrap'ed root
# file system is kept as a tarball, outside the clone so that fresh clones on the same machine reuse it; default
# /var/cache/api-ref-postgres-standin), STANDIN_MIRROR (default: the Debian mirror in /etc/apt/sources.list*),
# STANDIN_REBUILD=1 (build the root file system and the image again).
set -Eeuo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CONTEXT="$ROOT/.ci/postgres-standin"
TOOLS="$ROOT/.tools"
IMAGE=${STANDIN_IMAGE:-api-ref/postgres-standin:15}
SUITE=bookworm
PACKAGES=postgresql,locales # postgresql-15 ships the contrib modules (pg_stat_statements, pg_trgm, ...)
BASE_IMAGE="api-ref/postgres-standin-base:$SUITE"
CACHE=${STANDIN_CACHE:-/var/cache/api-ref-postgres-standin}
ROOTFS_TAR="$CACHE/$SUITE-minbase-${PACKAGES//,/-}.tar"
SOCKET=/var/run/docker.sock
DOCKERD_PID="$TOOLS/dockerd.pid"
DOCKERD_LOG="$TOOLS/dockerd.log"
LABEL=api-ref.standin.inputs

say() { printf '[standin] %s\n' "$*"; }
current="start"
t_step=$(date +%s)
t_all=$t_step
begin() {
  current=$1
  t_step=$(date +%s)
  say "$1 ..."
}
end() { say "  ${1:-done} ($(($(date +%s) - t_step))s)"; }
fail() {
  say "FAILED at step \"$current\": $*" >&2
  exit 1
}
trap 'rc=$?; [ "$BASHPID" = $$ ] && say "FAILED at step \"$current\" (line $LINENO, exit $rc)" >&2' ERR

engine_answers() { docker info >/dev/null 2>&1; }

# --- down ----------------------------------------------------------------------------------------------------
if [ "${1:-up}" = down ]; then
  begin "removing stand-in and Testcontainers containers"
  if command -v docker >/dev/null && engine_answers; then
    ids=$( (docker ps -aq --filter "ancestor=$IMAGE"; docker ps -aq --filter label=org.testcontainers=true) | sort -u)
    if [ -n "$ids" ]; then
      # shellcheck disable=SC2086
      docker rm -f -v $ids >/dev/null
      end "removed $(wc -w <<<"$ids") container(s)"
    else
      end "none"
    fi
  else
    end "no engine answers"
  fi
  begin "stopping dockerd"
  if [ -f "$DOCKERD_PID" ] && pid=$(cat "$DOCKERD_PID") && [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
    kill -TERM "$pid"
    for _ in $(seq 1 60); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
    if kill -0 "$pid" 2>/dev/null; then
      kill -KILL "$pid"
      end "dockerd (pid $pid) did not stop within 30s; killed"
    else
      end "stopped dockerd (pid $pid)"
    fi
    rm -f "$DOCKERD_PID"
  else
    rm -f "$DOCKERD_PID"
    end "not started by this script; left alone"
  fi
  exit 0
fi
[ "${1:-up}" = up ] || fail "unknown argument \"$1\" (expected: up or down)"

[ "$(id -u)" = 0 ] || fail "needs root (apt-get, dockerd, debootstrap); run it as root or with sudo"
mkdir -p "$TOOLS" "$CACHE"

# --- 1. packages -------------------------------------------------------------------------------------------
begin "packages (docker.io, debootstrap)"
missing=()
command -v dockerd >/dev/null || missing+=(docker.io)
command -v debootstrap >/dev/null || missing+=(debootstrap)
if [ ${#missing[@]} -gt 0 ]; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q >"$TOOLS/apt.log" 2>&1 || fail "apt-get update failed; see $TOOLS/apt.log"
  apt-get install -y -q --no-install-recommends "${missing[@]}" >>"$TOOLS/apt.log" 2>&1 ||
    fail "apt-get install ${missing[*]} failed; see $TOOLS/apt.log"
  end "installed ${missing[*]}"
else
  end "already installed"
fi
command -v docker >/dev/null || fail "docker.io is installed but there is no docker client on PATH"

# --- 2. engine ---------------------------------------------------------------------------------------------
begin "Docker engine"
if engine_answers; then
  end "already answering ($(docker version -f '{{.Server.Version}}' 2>/dev/null))"
else
  if [ -n "${DOCKER_HOST:-}" ] && [ "$DOCKER_HOST" != "unix://$SOCKET" ]; then
    fail "DOCKER_HOST=$DOCKER_HOST does not answer; unset it to let this script start dockerd on $SOCKET"
  fi
  setsid dockerd --host="unix://$SOCKET" >"$DOCKERD_LOG" 2>&1 </dev/null &
  echo $! >"$DOCKERD_PID"
  for _ in $(seq 1 120); do
    engine_answers && break
    kill -0 "$(cat "$DOCKERD_PID")" 2>/dev/null || fail "dockerd exited; last lines of $DOCKERD_LOG:
$(tail -n 15 "$DOCKERD_LOG")"
    sleep 0.5
  done
  engine_answers || fail "dockerd did not answer within 60s; see $DOCKERD_LOG"
  end "started dockerd $(docker version -f '{{.Server.Version}}') (pid $(cat "$DOCKERD_PID"), log $DOCKERD_LOG)"
fi

# --- 3. stand-in image -------------------------------------------------------------------------------------
image_label() { docker image inspect -f "{{ index .Config.Labels \"$LABEL\" }}" "$1" 2>/dev/null || true; }
[ "${STANDIN_REBUILD:-}" = 1 ] && rm -f "$ROOTFS_TAR"

begin "root file system (debootstrap --variant=minbase --include=$PACKAGES $SUITE)"
if [ -s "$ROOTFS_TAR" ]; then
  end "cached: $ROOTFS_TAR ($(du -h "$ROOTFS_TAR" | cut -f1))"
else
  mirror=${STANDIN_MIRROR:-}
  if [ -z "$mirror" ]; then
    # The first source of suite $SUITE with component main, in one-line (.list) or deb822 (.sources) format.
    mirror=$(
      cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null |
        awk -v s="$SUITE" '$1 == "deb" { sub(/ \[[^]]*\]/, ""); if ($3 == s) { print $2; exit } }' || true
    )
    [ -n "$mirror" ] || mirror=$(
      cat /etc/apt/sources.list.d/*.sources 2>/dev/null |
        awk -v s="$SUITE" 'BEGIN { RS = ""; FS = "\n" }
          { uri = ""; ok = 0
            for (i = 1; i <= NF; i++) {
              if ($i ~ /^URIs:/) { split($i, a, " "); uri = a[2] }
              if ($i ~ /^Suites:/) { n = split($i, a, " "); for (j = 2; j <= n; j++) if (a[j] == s) ok = 1 }
            }
            if (ok && uri != "") { print uri; exit } }' || true
    )
    [ -n "$mirror" ] || fail "no Debian mirror for $SUITE found in /etc/apt/sources.list*; set STANDIN_MIRROR"
  fi
  tree="$CACHE/rootfs.tmp"
  rm -rf "$tree"
  say "  mirror: $mirror"
  debootstrap --variant=minbase --include="$PACKAGES" "$SUITE" "$tree" "$mirror" >"$TOOLS/debootstrap.log" 2>&1 ||
    fail "debootstrap failed; last lines of $TOOLS/debootstrap.log:
$(tail -n 15 "$TOOLS/debootstrap.log")"
  [ -x "$tree/usr/lib/postgresql/15/bin/postgres" ] || fail "debootstrap gave no /usr/lib/postgresql/15/bin/postgres"
  # Not needed in the image: downloaded packages, package lists, the cluster postgresql-common creates at install
  # time, documentation and message translations (locale.alias stays: localedef reads it).
  rm -rf "$tree"/var/cache/apt/archives/*.deb "$tree"/var/lib/apt/lists/* \
    "$tree"/etc/postgresql/15/main "$tree"/var/lib/postgresql/15 "$tree"/usr/share/doc/* "$tree"/usr/share/man/*
  find "$tree/usr/share/locale" -mindepth 1 -maxdepth 1 -type d -exec rm -rf {} +
  tar -C "$tree" -c . >"$ROOTFS_TAR.tmp"
  mv "$ROOTFS_TAR.tmp" "$ROOTFS_TAR"
  rm -rf "$tree"
  end "built $ROOTFS_TAR ($(du -h "$ROOTFS_TAR" | cut -f1))"
fi

begin "base image $BASE_IMAGE (docker import)"
rootfs_key=$(stat -c '%s-%Y' "$ROOTFS_TAR")
if [ "$(image_label "$BASE_IMAGE")" = "$rootfs_key" ]; then
  end "present"
else
  docker import --change "LABEL $LABEL=$rootfs_key" "$ROOTFS_TAR" "$BASE_IMAGE" >/dev/null
  end "imported"
fi

begin "stand-in image $IMAGE (docker build .ci/postgres-standin)"
inputs=$(cat "$CONTEXT/Dockerfile" "$CONTEXT/docker-entrypoint.sh" <(docker image inspect -f '{{.Id}}' "$BASE_IMAGE") |
  sha256sum | cut -c1-16)
if [ "${STANDIN_REBUILD:-}" != 1 ] && [ "$(image_label "$IMAGE")" = "$inputs" ]; then
  end "present and up to date ($inputs)"
else
  # The legacy builder is part of every engine; BuildKit would need the buildx plugin.
  DOCKER_BUILDKIT=0 docker build -q --build-arg "BASE=$BASE_IMAGE" --label "$LABEL=$inputs" -t "$IMAGE" "$CONTEXT" \
    >"$TOOLS/standin-build.log" 2>&1 || fail "docker build failed; see $TOOLS/standin-build.log:
$(tail -n 15 "$TOOLS/standin-build.log")"
  end "built ($inputs)"

  begin "checking the new image (init, restart into the real server, pg_stat_statements, pg_trgm)"
  name="standin-check-$$"
  docker run -d --name "$name" -e POSTGRES_PASSWORD=check -e POSTGRES_DB=check "$IMAGE" \
    postgres -c shared_preload_libraries=pg_stat_statements >/dev/null
  ready=0
  for _ in $(seq 1 120); do
    ready=$(docker logs "$name" 2>&1 | grep -c 'database system is ready to accept connections' || true)
    [ "$ready" -ge 2 ] && break
    [ "$(docker inspect -f '{{.State.Running}}' "$name")" = true ] || break
    sleep 0.5
  done
  if [ "$ready" -lt 2 ] || ! docker exec "$name" psql -U postgres -d check -v ON_ERROR_STOP=1 -qAt -c \
    "CREATE EXTENSION pg_stat_statements; CREATE EXTENSION pg_trgm; SELECT count(*) >= 0 FROM pg_stat_statements" \
    >/dev/null 2>&1; then
    log=$(docker logs "$name" 2>&1 | tail -n 20)
    docker rm -f -v "$name" >/dev/null 2>&1 || true
    docker rmi "$IMAGE" >/dev/null 2>&1 || true
    fail "the new image does not start as expected (\"ready to accept connections\" seen $ready time(s)):
$log"
  fi
  docker rm -f -v "$name" >/dev/null
  end "ok"
fi

say "ready in $(($(date +%s) - t_all))s; engine: ${DOCKER_HOST:-unix://$SOCKET}"
say "image: $IMAGE"
