# Throwaway PostgreSQL and Redis for the test run, sourced by .ci/run: each has its own data folder
# under a temporary directory of the run, listens on a loopback port only, and is stopped on exit.
# Besides the primary: a streaming replica of it, and PgBouncer in transaction mode in front of it, as an
# operator who grows runs them (docs/scaling.md).
# Sets TEST_DATABASE_URL, TEST_DATABASE_REPLICA_URL, TEST_PGBOUNCER_URL and TEST_REDIS_URL for the tests.

# install_missing CHECK PACKAGE...: installs Debian's PACKAGEs (never upgrading what is installed) unless
# the shell condition CHECK holds; the package lists are fetched once per run.
install_missing() {
  local check=$1
  shift
  if ! bash -c "$check" >/dev/null 2>&1; then
    export DEBIAN_FRONTEND=noninteractive
    if [ "${package_lists_fetched:-}" != true ]; then
      apt-get update -qq
      package_lists_fetched=true
    fi
    apt-get install -y -qq --no-install-recommends --no-upgrade "$@" >/dev/null
  fi
}

install_services() {
  install_missing 'ls /usr/lib/postgresql/*/bin/initdb && command -v redis-server && [ -x /usr/sbin/pgbouncer ]' \
    postgresql redis-server pgbouncer
}

free_port() {
  node -e 'const s = require("net").createServer(); s.listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); });'
}

start_services() {
  SERVICES_DIR="$(mktemp -d /tmp/ivr-ci-services.XXXXXX)"
  chmod 755 "$SERVICES_DIR"
  local pg_bin
  pg_bin="$(dirname "$(ls -d /usr/lib/postgresql/*/bin/initdb | sort -V | tail -n 1)")"
  PG_CTL="$pg_bin/pg_ctl"
  PG_DATA="$SERVICES_DIR/pgdata"
  REPLICA_DATA="$SERVICES_DIR/replica"
  local pg_port replica_port pgbouncer_port redis_port
  pg_port="$(free_port)"
  replica_port="$(free_port)"
  pgbouncer_port="$(free_port)"
  redis_port="$(free_port)"
  mkdir -p "$PG_DATA" "$REPLICA_DATA" "$SERVICES_DIR/redis" "$SERVICES_DIR/pgbouncer"

  # PostgreSQL refuses to run as root, and CI runs as root: the cluster belongs to the postgres user.
  as_pg_owner() {
    if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
  }
  if [ "$(id -u)" = 0 ]; then chown postgres:postgres "$PG_DATA" "$REPLICA_DATA" "$SERVICES_DIR" "$SERVICES_DIR/pgbouncer"; fi
  as_pg_owner "$pg_bin/initdb" -D "$PG_DATA" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 >"$SERVICES_DIR/initdb.log" 2>&1
  as_pg_owner "$PG_CTL" -D "$PG_DATA" -l "$SERVICES_DIR/postgres.log" -w -t 60 \
    -o "-p $pg_port -k $SERVICES_DIR -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=300" start >/dev/null

  # The replica: a base backup of the primary that streams its WAL from then on (-R writes
  # primary_conninfo and standby.signal); initdb's pg_hba already lets loopback replication in.
  chmod 700 "$REPLICA_DATA"
  as_pg_owner pg_basebackup -h 127.0.0.1 -p "$pg_port" -U postgres -D "$REPLICA_DATA" -R -X stream >"$SERVICES_DIR/basebackup.log" 2>&1
  as_pg_owner "$PG_CTL" -D "$REPLICA_DATA" -l "$SERVICES_DIR/replica.log" -w -t 60 \
    -o "-p $replica_port -k $SERVICES_DIR -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=300 -c hot_standby_feedback=on" start >/dev/null

  # PgBouncer in transaction mode in front of the primary, for every database name (the suites make
  # databases of their own). It runs as the postgres user too: it refuses root.
  cat >"$SERVICES_DIR/pgbouncer/pgbouncer.ini" <<INI
[databases]
* = host=127.0.0.1 port=$pg_port
[pgbouncer]
listen_addr = 127.0.0.1
listen_port = $pgbouncer_port
unix_socket_dir =
auth_type = trust
auth_file = $SERVICES_DIR/pgbouncer/users.txt
pool_mode = transaction
max_client_conn = 1000
default_pool_size = 20
ignore_startup_parameters = extra_float_digits
logfile = $SERVICES_DIR/pgbouncer/pgbouncer.log
pidfile = $SERVICES_DIR/pgbouncer/pgbouncer.pid
INI
  echo '"postgres" ""' >"$SERVICES_DIR/pgbouncer/users.txt"
  if [ "$(id -u)" = 0 ]; then chown postgres:postgres "$SERVICES_DIR/pgbouncer/pgbouncer.ini" "$SERVICES_DIR/pgbouncer/users.txt"; fi
  as_pg_owner /usr/sbin/pgbouncer -d -q "$SERVICES_DIR/pgbouncer/pgbouncer.ini"

  redis-server --port "$redis_port" --bind 127.0.0.1 --save '' --appendonly no --daemonize yes \
    --dir "$SERVICES_DIR/redis" --pidfile "$SERVICES_DIR/redis/redis.pid" --logfile "$SERVICES_DIR/redis/redis.log"
  local tries=0
  until redis-cli -p "$redis_port" ping >/dev/null 2>&1; do
    tries=$((tries + 1))
    if [ "$tries" -gt 100 ]; then echo "redis did not start" >&2; return 1; fi
    sleep 0.1
  done

  tries=0
  until pg_isready -q -h 127.0.0.1 -p "$pgbouncer_port" -d postgres -U postgres; do
    tries=$((tries + 1))
    if [ "$tries" -gt 100 ]; then echo "pgbouncer did not start" >&2; return 1; fi
    sleep 0.1
  done

  export TEST_DATABASE_URL="postgres://postgres@127.0.0.1:$pg_port/postgres"
  export TEST_DATABASE_REPLICA_URL="postgres://postgres@127.0.0.1:$replica_port/postgres"
  export TEST_PGBOUNCER_URL="postgres://postgres@127.0.0.1:$pgbouncer_port/postgres"
  export TEST_REDIS_URL="redis://127.0.0.1:$redis_port"
}

stop_services() {
  if [ -f "${SERVICES_DIR:-}/pgbouncer/pgbouncer.pid" ]; then
    kill "$(cat "$SERVICES_DIR/pgbouncer/pgbouncer.pid")" 2>/dev/null || true
  fi
  local data
  for data in "${REPLICA_DATA:-}" "${PG_DATA:-}"; do
    if [ -n "${PG_CTL:-}" ] && [ -f "$data/postmaster.pid" ]; then
      if [ "$(id -u)" = 0 ]; then
        runuser -u postgres -- "$PG_CTL" -D "$data" -m immediate stop >/dev/null 2>&1 || true
      else
        "$PG_CTL" -D "$data" -m immediate stop >/dev/null 2>&1 || true
      fi
    fi
  done
  if [ -f "${SERVICES_DIR:-}/redis/redis.pid" ]; then
    local redis_pid tries=0
    redis_pid="$(cat "$SERVICES_DIR/redis/redis.pid")"
    kill "$redis_pid" 2>/dev/null || true
    # Redis writes its log until it is gone; removing its folder before that would race with it.
    while kill -0 "$redis_pid" 2>/dev/null && [ "$tries" -lt 100 ]; do
      tries=$((tries + 1))
      sleep 0.1
    done
  fi
  if [ -n "${SERVICES_DIR:-}" ]; then rm -rf "$SERVICES_DIR" || true; fi
}
