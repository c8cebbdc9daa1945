#!/usr/bin/env bash
# npm test's static checks, the type check and the lint (ESLint, then dependency-cruiser), side by side:
# each keeps one core busy for most of a minute, and neither needs the other. Fails when either fails.
set -u
cd "$(dirname "$0")/.."
npm run -s typecheck &
typecheck=$!
npm run -s lint &
lint=$!
failed=0
wait "$typecheck" || failed=1
wait "$lint" || failed=1
exit "$failed"
