#!/usr/bin/env bash
# The README's two test steps as a newcomer meets them: a fresh clone of this commit, `npm ci`, then
# `npm test` with no TEST_* service variable, not under CI, and none of the programs .ci/run installs for
# the interop and browser suites (PHP's SoapClient, zeep, suds, Chromium) in sight. Every suite that needs
# one must be reported as skipped, naming what would run it, and the rest must pass.
# Run by .ci/run after the main run; needs root (a private mount namespace hides the programs).
set -euo pipefail
source_tree="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d /tmp/ivr-fresh-clone.XXXXXX)"
trap 'rm -rf "$work"' EXIT
git clone -q "$source_tree" "$work/clone"

# Paths of the programs .ci/run installs; each one present is covered by an empty stand-in in this namespace only.
hidden=(/usr/bin/php /usr/bin/chromium /usr/lib/python3/dist-packages/zeep /usr/lib/python3/dist-packages/suds)

# The namespace's script as an argument, not on standard input, which npm and jest inherit (and move through).
namespace_script='
work="$1"
shift
for program in "$@"; do
  if [ -d "$program" ]; then
    mount --bind "$(mktemp -d "$work/empty.XXXXXX")" "$program"
  elif [ -e "$program" ]; then
    mount --bind /dev/null "$program"
  fi
done
cd "$work/clone"
unset CI TEST_DATABASE_URL TEST_DATABASE_REPLICA_URL TEST_PGBOUNCER_URL TEST_REDIS_URL TEST_DEPLOYMENT_DOC CHROMIUM_PATH
npm ci --no-audit --no-fund --prefer-offline >/dev/null
npm test
'
unshare --mount --propagation private bash -euo pipefail -c "$namespace_script" namespace "$work" "${hidden[@]}" </dev/null
