#!/usr/bin/env bash
# `npm run services`: throwaway PostgreSQL (a primary and a streaming replica of it), PgBouncer in
# transaction mode and Redis for the tests, started as .ci/run starts them (.ci/services.sh) from the
# machine's Debian packages, on free loopback ports, with their data in a temporary folder. Prints the
# TEST_* lines to export where the tests run, and stops and removes everything on Ctrl+C (or SIGTERM).
# Unlike .ci/run it installs nothing and touches no packaged cluster.
set -euo pipefail
cd "$(dirname "$0")/.."

missing=()
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing+=(postgresql)
[ -x /usr/sbin/pgbouncer ] || missing+=(pgbouncer)
command -v redis-server >/dev/null 2>&1 || missing+=(redis-server)
if [ "${#missing[@]}" -gt 0 ]; then
  echo "npm run services needs Debian's ${missing[*]}: sudo apt-get install --no-upgrade ${missing[*]}" >&2
  exit 1
fi

source .ci/services.sh
waiting=""
finish() {
  if [ -n "$waiting" ]; then kill "$waiting" 2>/dev/null || true; fi
  stop_services
}
trap finish EXIT
trap 'exit 0' INT TERM
start_services

echo "Throwaway PostgreSQL, its replica, PgBouncer and Redis run until Ctrl+C. Where the tests run:"
for variable in TEST_DATABASE_URL TEST_DATABASE_REPLICA_URL TEST_PGBOUNCER_URL TEST_REDIS_URL; do
  echo "export $variable=${!variable}"
done
sleep infinity &
waiting=$!
wait "$waiting"
