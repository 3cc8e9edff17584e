#!/bin/bash
# The part of the official postgres image's entrypoint contract docker/compose.yaml uses: on the
# first start (an empty PGDATA) a cluster whose superuser is POSTGRES_USER (default postgres) with
# POSTGRES_PASSWORD (required), a database POSTGRES_DB (default: the user's name), password
# (scram-sha-256) authentication from any address and trust on the local socket, listening on all
# addresses on 5432; then `postgres` as the postgres user, with any arguments given (`postgres -c
# listen_addresses=...` or `-c name=value` alone, as the official image takes them). Any other
# command runs as given. Not supported: /docker-entrypoint-initdb.d, POSTGRES_INITDB_ARGS,
# POSTGRES_HOST_AUTH_METHOD.
set -euo pipefail

if [ "${1:0:1}" = '-' ]; then
  set -- postgres "$@"
fi
if [ "$1" != postgres ]; then
  exec "$@"
fi

if [ "$(id -u)" = 0 ]; then
  mkdir -p "$PGDATA" /var/run/postgresql
  chown postgres:postgres "$PGDATA" /var/run/postgresql
  chmod 0700 "$PGDATA"
  exec gosu postgres "$0" "$@"
fi

if [ ! -s "$PGDATA/PG_VERSION" ]; then
  if [ -z "${POSTGRES_PASSWORD:-}" ]; then
    echo 'entrypoint: POSTGRES_PASSWORD must be set (the superuser password)' >&2
    exit 1
  fi
  user="${POSTGRES_USER:-postgres}"
  database="${POSTGRES_DB:-$user}"
  password_file="$(mktemp)"
  printf '%s\n' "$POSTGRES_PASSWORD" >"$password_file"
  initdb --username="$user" --pwfile="$password_file" --encoding=UTF8 --locale=C.UTF-8 \
    --auth-local=trust --auth-host=scram-sha-256 -D "$PGDATA" >/dev/null
  rm -f "$password_file"
  echo "listen_addresses = '*'" >>"$PGDATA/postgresql.conf"
  echo 'host all all all scram-sha-256' >>"$PGDATA/pg_hba.conf"
  if [ "$database" != postgres ]; then
    pg_ctl -D "$PGDATA" -o "-c listen_addresses=''" -w start >/dev/null
    psql -v ON_ERROR_STOP=1 -q --username="$user" --dbname=postgres \
      -c "CREATE DATABASE \"${database//\"/\"\"}\""
    pg_ctl -D "$PGDATA" -m fast -w stop >/dev/null
  fi
  echo "entrypoint: initialised ${PGDATA} (user ${user}, database ${database})" >&2
fi
exec "$@"
