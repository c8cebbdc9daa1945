#!/usr/bin/env bash
# The README's two test steps as a newcomer meets them: a fresh clone of this commit, `npm ci`, then
# `npm test` with no TEST_* service variable, not under CI, and none of the programs .ci/run installs for
# the interop and browser suites (PHP's SoapClient, zeep, suds, Chromium) in sight. Every suite that needs
# one must be reported as skipped, and the run must open by naming each skipped group and what would run it.
#
# The main run has already passed every suite with everything in place; what can differ here is only the
# suites that reach a service or a program. Each of them takes its address or its probe from one of the
# modules below, or reads a TEST_ variable, so `npm test` runs those files alone (with the type check and
# the lint): a suite that throws, fails or hangs without its service instead of skipping is among them.
# Run by .ci/run after the main run; needs root (a private mount namespace hides the programs).
set -euo pipefail
source_tree="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d /tmp/ivr-fresh-clone.XXXXXX)"
trap 'rm -rf "$work"' EXIT
git clone -q "$source_tree" "$work/clone"

# The test files that reach a service or a real program.
mapfile -t suites < <(cd "$work/clone" && git grep -l -E \
  "support/(services|service-urls|real-programs|browser|chromium)'|survey-clients/support'|from '\./support'|process\.env\.TEST_" -- '*.test.ts')
if [ "${#suites[@]}" -eq 0 ]; then
  echo "no test file reaches a service or a program: the selection above is out of date" >&2
  exit 1
fi
echo "the ${#suites[@]} test files that reach a service or a real program"

# Paths of the programs .ci/run installs; each one present is covered by an empty stand-in in this namespace only.
hidden=(/usr/bin/php /usr/bin/chromium /usr/lib/python3/dist-packages/zeep /usr/lib/python3/dist-packages/suds /usr/bin/systemd-analyze /usr/bin/podman)

# The namespace's script as an argument, not on standard input, which npm and jest inherit (and move through).
namespace_script='
work="$1"
count="$2"
shift 2
programs=("${@:1:$count}")
suites=("${@:$((count + 1))}")
for program in "${programs[@]}"; do
  if [ -d "$program" ]; then
    mount --bind "$(mktemp -d "$work/empty.XXXXXX")" "$program"
  elif [ -e "$program" ]; then
    mount --bind /dev/null "$program"
  fi
done
cd "$work/clone"
unset CI TEST_DATABASE_URL TEST_DATABASE_REPLICA_URL TEST_PGBOUNCER_URL TEST_REDIS_URL TEST_DEPLOYMENT_DOC CHROMIUM_PATH
npm ci --no-audit --no-fund --prefer-offline >/dev/null 2>"$work/npm-ci.log" || { cat "$work/npm-ci.log" >&2; exit 1; }
npm test -- --runTestsByPath "${suites[@]}" 2>&1 | tee "$work/test.log"
'
unshare --mount --propagation private bash -euo pipefail -c "$namespace_script" namespace "$work" "${#hidden[@]}" "${hidden[@]}" "${suites[@]}" </dev/null

# On the machine's Node.js (20), the oldest the README names, the install warns of no engine it does not meet.
if grep -q EBADENGINE "$work/npm-ci.log"; then
  echo "npm ci on Node $(node --version) warns that a package needs another Node.js:" >&2
  grep -A3 EBADENGINE "$work/npm-ci.log" >&2
  exit 1
fi

# The run names every group it skipped, and what would run it (and the command that starts the services).
for named in 'npm run services' TEST_DATABASE_URL TEST_DATABASE_REPLICA_URL TEST_PGBOUNCER_URL TEST_REDIS_URL TEST_DEPLOYMENT_DOC \
  'apt-get install chromium' 'apt-get install php-cli php-soap' 'apt-get install python3-zeep' 'apt-get install python3-suds' \
  'apt-get install systemd' 'apt-get install podman podman-compose runc debootstrap'; do
  if ! grep -q -F -- "$named" "$work/test.log"; then
    echo "the skip notice does not name $named" >&2
    exit 1
  fi
done
