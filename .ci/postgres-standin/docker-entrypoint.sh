#!/usr/bin/env bash
# Entrypoint of the CI stand-in for the official postgres image (see .ci/testcontainers-standin.sh). It follows
# the official image's contract as far as the project uses it: POSTGRES_USER / POSTGRES_PASSWORD / POSTGRES_DB
# (and POSTGRES_HOST_AUTH_METHOD, POSTGRES_INITDB_ARGS, /docker-entrypoint-initdb.d/*.sql|*.sh); on an empty
# data directory it runs initdb, initialises through a temporary server that listens on the Unix socket only,
# stops it, and then execs the real server, so "database system is ready to accept connections" is logged twice
# and TCP answers only once the real server is up. A command starting with "postgres" (or "-") runs Debian's
# PostgreSQL 15 server as the postgres user with the arguments given.
set -Eeuo pipefail

: "${PGDATA:=/var/lib/postgresql/data}"
export PGDATA

if [ "${1:0:1}" = '-' ]; then set -- postgres "$@"; fi
if [ "${1:-}" != postgres ]; then exec "$@"; fi

if [ "$(id -u)" = 0 ]; then
  mkdir -p "$PGDATA" /var/run/postgresql
  chown postgres:postgres "$PGDATA" /var/run/postgresql
  chmod 700 "$PGDATA"
  chmod 3777 /var/run/postgresql
  exec setpriv --reuid=postgres --regid=postgres --init-groups "${BASH_SOURCE[0]}" "$@"
fi

shift # "postgres": the server binary on PATH (/usr/lib/postgresql/15/bin/postgres) is started below.

if [ ! -s "$PGDATA/PG_VERSION" ]; then
  : "${POSTGRES_USER:=postgres}" "${POSTGRES_DB:=$POSTGRES_USER}" "${POSTGRES_HOST_AUTH_METHOD:=scram-sha-256}"
  if [ -z "${POSTGRES_PASSWORD:-}" ] && [ "$POSTGRES_HOST_AUTH_METHOD" != trust ]; then
    echo "error: POSTGRES_PASSWORD is not set (set it, or POSTGRES_HOST_AUTH_METHOD=trust)" >&2
    exit 1
  fi
  pwfile=$(mktemp)
  printf '%s\n' "${POSTGRES_PASSWORD:-}" >"$pwfile"
  # shellcheck disable=SC2086 # POSTGRES_INITDB_ARGS is a list of words, as in the official image
  initdb --username="$POSTGRES_USER" --pwfile="$pwfile" ${POSTGRES_INITDB_ARGS:-}
  rm -f "$pwfile"
  printf "\nlisten_addresses = '*'\n" >>"$PGDATA/postgresql.conf"
  printf '\nhost all all all %s\n' "$POSTGRES_HOST_AUTH_METHOD" >>"$PGDATA/pg_hba.conf"

  # Temporary server: Unix socket only, so nobody outside sees it before initialisation is complete.
  pg_ctl -D "$PGDATA" -o "-c listen_addresses='' -p 5432" -w start
  psql=(psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --no-password --no-psqlrc)
  if [ "$POSTGRES_DB" != postgres ]; then
    "${psql[@]}" --dbname postgres --set db="$POSTGRES_DB" <<<'CREATE DATABASE :"db";'
  fi
  for f in /docker-entrypoint-initdb.d/*; do
    case "$f" in
      *.sh) echo "running $f"; . "$f" ;;
      *.sql) echo "running $f"; "${psql[@]}" --dbname "$POSTGRES_DB" -f "$f" ;;
      *) [ -e "$f" ] && echo "ignoring $f" ;;
    esac
  done
  pg_ctl -D "$PGDATA" -m fast -w stop
  echo
  echo 'PostgreSQL init process complete; ready for start up.'
  echo
fi

exec postgres -D "$PGDATA" "$@"
