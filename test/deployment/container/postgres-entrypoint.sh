#!/bin/sh
set -eu
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  password_file=$(mktemp)
  printf '%s\n' "$POSTGRES_PASSWORD" > "$password_file"
  initdb --username="$POSTGRES_USER" --pwfile="$password_file" --auth-host=scram-sha-256 --auth-local=trust >/dev/null
  rm -f "$password_file"
  echo "host all all all scram-sha-256" >> "$PGDATA/pg_hba.conf"
  pg_ctl -D "$PGDATA" -o "-c listen_addresses=''" -w start >/dev/null
  if [ "${POSTGRES_DB:-$POSTGRES_USER}" != postgres ]; then
    createdb --username="$POSTGRES_USER" "${POSTGRES_DB:-$POSTGRES_USER}"
  fi
  pg_ctl -D "$PGDATA" -m fast -w stop >/dev/null
fi
exec "$@" -c listen_addresses='*'
