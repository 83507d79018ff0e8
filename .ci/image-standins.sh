#!/usr/bin/env bash
# Builds local stand-ins for the base images that the apps' Dockerfiles name, on a machine that cannot pull from
# Docker Hub (CI's case), so that those Dockerfiles build unchanged:
#   node:24-slim            Debian trixie + Node 24 (this machine's, from the npm registry's node package) + npm
#   python:3.13-slim        Debian trixie + Debian's Python 3.13 with venv
#   oven/bun:<bun>-slim     Debian trixie + the bun binary of the workspace's bun package
# all on api-ref/debian-standin:trixie, a debootstrap'ed Debian trixie (minbase, ca-certificates) that also trusts
# what this machine trusts (.ci/image-standins/debian.Dockerfile says why). The same road as the postgres
# stand-in (.ci/testcontainers-standin.sh; shared steps in .ci/standin-lib.sh).
#
# A name that already holds an image this script did not build (the real node:24-slim, pulled by hand) is left
# alone. Idempotent: an image whose inputs have not changed is not built again. Needs root. Run `pnpm install`
# first (bun's binary comes from node_modules) with Node 24 on PATH.
#
#   .ci/image-standins.sh        build what is missing or out of date
#   .ci/image-standins.sh down   stop the dockerd a stand-in script started
#
# Variables: STANDIN_CACHE (default /var/cache/api-ref-standins: the root file system's tarball and npm's, kept
# outside the clone), STANDIN_MIRROR, STANDIN_REBUILD=1 (everything again).
set -Eeuo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
TOOLS="$ROOT/.tools"
SOURCES="$ROOT/.ci/image-standins"
CACHE=${STANDIN_CACHE:-/var/cache/api-ref-standins}
SUITE=trixie
ROOTFS_TAR="$CACHE/$SUITE-minbase-ca-certificates.tar"
ROOTFS_IMAGE=api-ref/debian-standin-rootfs:$SUITE
DEBIAN_IMAGE=api-ref/debian-standin:$SUITE
NPM_SPEC=npm@11
# shellcheck source=standin-lib.sh
. "$ROOT/.ci/standin-lib.sh"

if [ "${1:-up}" = down ]; then
  stop_engine
  exit 0
fi
[ "${1:-up}" = up ] || fail "unknown argument \"$1\" (expected: up or down)"

node_bin=$(command -v node) || fail "no node on PATH"
[[ "$("$node_bin" --version)" == v24.* ]] || fail "node on PATH is $("$node_bin" --version); the stand-in is Node 24"
# The root devDependency bun: its postinstall puts @oven/bun-<platform>'s binary at bin/bun.exe.
bun_bin="$ROOT/node_modules/bun/bin/bun.exe"
[ -x "$bun_bin" ] || fail "no $bun_bin: run pnpm install first"
bun_version=$("$bun_bin" --version)

# docker-compose (Debian's, 1.29): what CI checks compose.yaml with.
ensure_packages docker-compose:docker-compose
ensure_engine
rootfs_tarball "$ROOTFS_TAR" "$SUITE" ca-certificates
import_rootfs "$ROOTFS_TAR" "$ROOTFS_IMAGE"

# build NAME DOCKERFILE BASE [FILE...]: builds $SOURCES/DOCKERFILE on BASE as NAME, its context the files given
# (copied from where they are, named by their last path component), unless an image built from the same inputs
# holds the name.
build() {
  local name=$1 dockerfile=$2 base=$3 context inputs
  shift 3
  begin "stand-in $name ($dockerfile)"
  context=$(mktemp -d)
  cp "$SOURCES/$dockerfile" "$context/Dockerfile"
  # What a path given leads to, under its own name: a link (nvm's node, a package manager's shim) copied as a
  # link would point outside the context, which Docker refuses.
  for file in "$@"; do cp -a "$(readlink -f "$file")" "$context/$(basename "$file")"; done
  inputs=$( (cd "$context" && find . -type f -print0 | sort -z | xargs -0 sha256sum; docker image inspect -f '{{.Id}}' "$base") |
    sha256sum | cut -c1-16)
  if docker image inspect "$name" >/dev/null 2>&1 && [ -z "$(image_label "$name")" ]; then
    rm -rf "$context"
    end "a real $name is here (not built by this script); left alone"
    return
  fi
  if [ "${STANDIN_REBUILD:-}" != 1 ] && [ "$(image_label "$name")" = "$inputs" ]; then
    rm -rf "$context"
    end "present and up to date ($inputs)"
    return
  fi
  DOCKER_BUILDKIT=0 docker build -q --build-arg "BASE=$base" --label "$LABEL=$inputs" -t "$name" "$context" \
    >"$TOOLS/standin-build.log" 2>&1 || fail "docker build failed; see $TOOLS/standin-build.log:
$(tail -n 15 "$TOOLS/standin-build.log")"
  rm -rf "$context"
  end "built ($inputs)"
}

npm_dir="$CACHE/$NPM_SPEC"
if [ ! -f "$npm_dir/npm/package.json" ]; then
  begin "npm for the node stand-in ($NPM_SPEC from the npm registry)"
  rm -rf "$npm_dir" && mkdir -p "$npm_dir"
  tarball=$(cd "$npm_dir" && npm pack "$NPM_SPEC" --silent) || fail "npm pack $NPM_SPEC failed"
  tar -xzf "$npm_dir/$tarball" -C "$npm_dir" --transform 's,^package,npm,' && rm -f "$npm_dir/$tarball"
  end "npm $(node -p "require('$npm_dir/npm/package.json').version")"
fi

build "$DEBIAN_IMAGE" debian.Dockerfile "$ROOTFS_IMAGE" /etc/ssl/certs/ca-certificates.crt
build node:24-slim node.Dockerfile "$DEBIAN_IMAGE" "$node_bin" "$npm_dir/npm" "$SOURCES/node-entrypoint.sh"
build python:3.13-slim python.Dockerfile "$DEBIAN_IMAGE"
build "oven/bun:$bun_version-slim" bun.Dockerfile "$DEBIAN_IMAGE" "$bun_bin"

say "ready in $(($(date +%s) - t_all))s: node:24-slim, python:3.13-slim, oven/bun:$bun_version-slim"
