# Shared by .ci/testcontainers-standin.sh (the postgres stand-in) and .ci/image-standins.sh (the base images the
# apps' Dockerfiles name): step reporting, Debian's docker.io and debootstrap, a dockerd when none answers, Debian
# root file systems made with debootstrap and cached as tarballs outside the clone, and `docker import`.
# Sourced, not run. The sourcing script sets TOOLS (where logs and dockerd's pid go) before calling anything.

SOCKET=/var/run/docker.sock
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
image_label() { docker image inspect -f "{{ index .Config.Labels \"$LABEL\" }}" "$1" 2>/dev/null || true; }

# Installs docker.io and debootstrap when missing (root only), and the packages named as COMMAND:PACKAGE.
ensure_packages() {
  [ "$(id -u)" = 0 ] || fail "needs root (apt-get, dockerd, debootstrap); run it as root or with sudo"
  mkdir -p "$TOOLS"
  local wanted=(dockerd:docker.io debootstrap:debootstrap "$@") missing=() item
  begin "packages (${wanted[*]#*:})"
  for item in "${wanted[@]}"; do command -v "${item%%:*}" >/dev/null || missing+=("${item#*:}"); done
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
}

# Starts dockerd in the background (pid in $TOOLS/dockerd.pid, log in $TOOLS/dockerd.log) unless one answers.
ensure_engine() {
  begin "Docker engine"
  if engine_answers; then
    end "already answering ($(docker version -f '{{.Server.Version}}' 2>/dev/null))"
    return
  fi
  if [ -n "${DOCKER_HOST:-}" ] && [ "$DOCKER_HOST" != "unix://$SOCKET" ]; then
    fail "DOCKER_HOST=$DOCKER_HOST does not answer; unset it to let this script start dockerd on $SOCKET"
  fi
  setsid dockerd --host="unix://$SOCKET" >"$TOOLS/dockerd.log" 2>&1 </dev/null &
  echo $! >"$TOOLS/dockerd.pid"
  for _ in $(seq 1 120); do
    engine_answers && break
    kill -0 "$(cat "$TOOLS/dockerd.pid")" 2>/dev/null || fail "dockerd exited; last lines of $TOOLS/dockerd.log:
$(tail -n 15 "$TOOLS/dockerd.log")"
    sleep 0.5
  done
  engine_answers || fail "dockerd did not answer within 60s; see $TOOLS/dockerd.log"
  end "started dockerd $(docker version -f '{{.Server.Version}}') (pid $(cat "$TOOLS/dockerd.pid"), log $TOOLS/dockerd.log)"
}

# Stops the dockerd that ensure_engine started, if any.
stop_engine() {
  begin "stopping dockerd"
  local pid
  if [ -f "$TOOLS/dockerd.pid" ] && pid=$(cat "$TOOLS/dockerd.pid") && [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
    kill -TERM "$pid"
    for _ in $(seq 1 60); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
    if kill -0 "$pid" 2>/dev/null; then
      kill -KILL "$pid"
      end "dockerd (pid $pid) did not stop within 30s; killed"
    else
      end "stopped dockerd (pid $pid)"
    fi
  else
    end "not started by this script; left alone"
  fi
  rm -f "$TOOLS/dockerd.pid"
}

# The first Debian mirror for suite $1 with component main in /etc/apt/sources.list* (one-line or deb822 format),
# or STANDIN_MIRROR.
debian_mirror() {
  local suite=$1 mirror=${STANDIN_MIRROR:-}
  if [ -z "$mirror" ]; then
    mirror=$(
      cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null |
        awk -v s="$suite" '$1 == "deb" { sub(/ \[[^]]*\]/, ""); if ($3 == s) { print $2; exit } }' || true
    )
    [ -n "$mirror" ] || mirror=$(
      cat /etc/apt/sources.list.d/*.sources 2>/dev/null |
        awk -v s="$suite" 'BEGIN { RS = ""; FS = "\n" }
          { uri = ""; ok = 0
            for (i = 1; i <= NF; i++) {
              if ($i ~ /^URIs:/) { split($i, a, " "); uri = a[2] }
              if ($i ~ /^Suites:/) { n = split($i, a, " "); for (j = 2; j <= n; j++) if (a[j] == s) ok = 1 }
            }
            if (ok && uri != "") { print uri; exit } }' || true
    )
  fi
  # A suite the machine's sources do not name (trixie on a bookworm machine) comes from the same mirror as
  # the machine's own suite.
  if [ -z "$mirror" ] && [ -z "${STANDIN_MIRROR:-}" ] && [ "$suite" != "$(. /etc/os-release && echo "${VERSION_CODENAME:-}")" ]; then
    mirror=$(debian_mirror "$(. /etc/os-release && echo "${VERSION_CODENAME:-}")" 2>/dev/null) || true
  fi
  [ -n "$mirror" ] || fail "no Debian mirror for $suite found in /etc/apt/sources.list*; set STANDIN_MIRROR"
  echo "$mirror"
}

# debootstrap --variant=minbase of suite $2 with packages $3 (comma-separated) into tarball $1, unless it is there.
# $4 (optional) is a command run on the tree before it is packed (it gets the tree's path).
rootfs_tarball() {
  local tar=$1 suite=$2 packages=$3 prepare=${4:-}
  begin "root file system (debootstrap --variant=minbase --include=$packages $suite)"
  [ "${STANDIN_REBUILD:-}" = 1 ] && rm -f "$tar"
  if [ -s "$tar" ]; then
    end "cached: $tar ($(du -h "$tar" | cut -f1))"
    return
  fi
  mkdir -p "$(dirname "$tar")"
  local mirror tree="$tar.tree"
  mirror=$(debian_mirror "$suite")
  rm -rf "$tree"
  say "  mirror: $mirror"
  debootstrap --variant=minbase --include="$packages" "$suite" "$tree" "$mirror" >"$TOOLS/debootstrap-$suite.log" 2>&1 ||
    fail "debootstrap failed; last lines of $TOOLS/debootstrap-$suite.log:
$(tail -n 15 "$TOOLS/debootstrap-$suite.log")"
  # Never needed in an image: downloaded packages, package lists, documentation and message translations
  # (locale.alias stays: localedef reads it).
  rm -rf "$tree"/var/cache/apt/archives/*.deb "$tree"/var/lib/apt/lists/* "$tree"/usr/share/doc/* "$tree"/usr/share/man/*
  find "$tree/usr/share/locale" -mindepth 1 -maxdepth 1 -type d -exec rm -rf {} +
  [ -z "$prepare" ] || "$prepare" "$tree"
  tar -C "$tree" -c . >"$tar.tmp"
  mv "$tar.tmp" "$tar"
  rm -rf "$tree"
  end "built $tar ($(du -h "$tar" | cut -f1))"
}

# `docker import` of tarball $1 as image $2, unless the image was imported from this very tarball.
import_rootfs() {
  local tar=$1 image=$2 key
  begin "base image $image (docker import)"
  key=$(stat -c '%s-%Y' "$tar")
  if [ "$(image_label "$image")" = "$key" ]; then
    end "present"
  else
    docker import --change "LABEL $LABEL=$key" "$tar" "$image" >/dev/null
    end "imported"
  fi
}
