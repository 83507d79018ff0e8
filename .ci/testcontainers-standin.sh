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
# shellcheck source=standin-lib.sh
. "$ROOT/.ci/standin-lib.sh"

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
  stop_engine
  exit 0
fi
[ "${1:-up}" = up ] || fail "unknown argument \"$1\" (expected: up or down)"

ensure_packages
ensure_engine

# --- stand-in image ----------------------------------------------------------------------------------------
# Not needed in the image: the cluster postgresql-common creates at install time.
postgres_tree() {
  [ -x "$1/usr/lib/postgresql/15/bin/postgres" ] || fail "debootstrap gave no /usr/lib/postgresql/15/bin/postgres"
  rm -rf "$1"/etc/postgresql/15/main "$1"/var/lib/postgresql/15
}
rootfs_tarball "$ROOTFS_TAR" "$SUITE" "$PACKAGES" postgres_tree
import_rootfs "$ROOTFS_TAR" "$BASE_IMAGE"

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
