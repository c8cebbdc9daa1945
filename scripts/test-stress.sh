#!/usr/bin/env bash
# npm run test:stress: runs `npm test` several times in a row (STRESS_RUNS, default 5) while a CPU-bound
# process keeps one core busy, as on a loaded two-core CI machine; stops at the first red run and keeps
# its output. Prints the wall time of each run. Without TEST_DATABASE_URL and TEST_REDIS_URL it starts
# throwaway PostgreSQL and Redis as .ci/run does, when they are installed, so their suites run too.
set -euo pipefail
cd "$(dirname "$0")/.."

runs="${STRESS_RUNS:-5}"
logs="$(mktemp -d /tmp/ivr-stress.XXXXXX)"

cleanup() {
  if [ -n "${burner:-}" ]; then kill "$burner" 2>/dev/null || true; fi
  if [ "$(type -t stop_services)" = function ]; then stop_services; fi
}
trap cleanup EXIT

if [ -z "${TEST_DATABASE_URL:-}" ] && [ -z "${TEST_REDIS_URL:-}" ] \
  && ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 && command -v redis-server >/dev/null 2>&1; then
  source .ci/services.sh
  start_services
fi

# One core spinning for the whole stress run.
node -e 'for (;;) {}' &
burner=$!

echo "npm test, ${runs} runs, one core kept busy; logs in ${logs}"
for run in $(seq 1 "$runs"); do
  log="${logs}/run-${run}.log"
  started=$(date +%s%N)
  if npm test >"$log" 2>&1; then outcome=green; else outcome=red; fi
  seconds=$(( ($(date +%s%N) - started) / 1000000 ))
  counts="$(grep -E '^Tests: ' "$log" | tail -n 1 || true)"
  printf 'run %d/%d: %s in %d.%03d s  (%s)\n' "$run" "$runs" "$outcome" $((seconds / 1000)) $((seconds % 1000)) "${counts:-no jest summary}"
  if [ "$outcome" = red ]; then
    echo "run ${run} failed; its output is in ${log}"
    exit 1
  fi
done
echo "${runs} of ${runs} runs green under load"
