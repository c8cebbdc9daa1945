# Throwaway PostgreSQL and Redis for the test run, sourced by .ci/run: each has its own data folder
# under a temporary directory of the run, listens on a loopback port only, and is stopped on exit.
# Sets TEST_DATABASE_URL and TEST_REDIS_URL for the tests.

install_services() {
  if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || ! command -v redis-server >/dev/null 2>&1; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends postgresql redis-server >/dev/null
  fi
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
  local pg_port redis_port
  pg_port="$(free_port)"
  redis_port="$(free_port)"
  mkdir -p "$PG_DATA" "$SERVICES_DIR/redis"

  # PostgreSQL refuses to run as root, and CI runs as root: the cluster belongs to the postgres user.
  as_pg_owner() {
    if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
  }
  if [ "$(id -u)" = 0 ]; then chown postgres:postgres "$PG_DATA" "$SERVICES_DIR"; fi
  as_pg_owner "$pg_bin/initdb" -D "$PG_DATA" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 >"$SERVICES_DIR/initdb.log" 2>&1
  as_pg_owner "$PG_CTL" -D "$PG_DATA" -l "$SERVICES_DIR/postgres.log" -w -t 60 \
    -o "-p $pg_port -k $SERVICES_DIR -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200" start >/dev/null

  redis-server --port "$redis_port" --bind 127.0.0.1 --save '' --appendonly no --daemonize yes \
    --dir "$SERVICES_DIR/redis" --pidfile "$SERVICES_DIR/redis/redis.pid" --logfile "$SERVICES_DIR/redis/redis.log"
  local tries=0
  until redis-cli -p "$redis_port" ping >/dev/null 2>&1; do
    tries=$((tries + 1))
    if [ "$tries" -gt 100 ]; then echo "redis did not start" >&2; return 1; fi
    sleep 0.1
  done

  export TEST_DATABASE_URL="postgres://postgres@127.0.0.1:$pg_port/postgres"
  export TEST_REDIS_URL="redis://127.0.0.1:$redis_port"
}

stop_services() {
  if [ -n "${PG_CTL:-}" ] && [ -d "${PG_DATA:-}" ]; then
    if [ "$(id -u)" = 0 ]; then
      runuser -u postgres -- "$PG_CTL" -D "$PG_DATA" -m immediate stop >/dev/null 2>&1 || true
    else
      "$PG_CTL" -D "$PG_DATA" -m immediate stop >/dev/null 2>&1 || true
    fi
  fi
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
