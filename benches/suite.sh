#!/usr/bin/env bash
# The test suite's own time, measured as a newcomer and CI meet it: a fresh
# clone of this repository's HEAD (with ../shared beside it, as CI lays it),
# then the README's test command, or CI's whole script.
#
#   benches/suite.sh            # cargo test --release in a fresh clone (build included)
#   benches/suite.sh ci         # CI=true bash .ci/run in a fresh clone (installs included)
#   benches/suite.sh full       # SUDOLAB_FULL_TESTS=1 cargo test --release (the heavy variants)
#
# Prints the wall and CPU seconds of the whole run and the closing lines of
# each test binary; the clone is removed afterwards (KEEP=1 keeps it). The
# figures go to docs/performance.md, "The test suite". A benchmark, not a test:
# nothing asserts on these times.
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-release}
root=$(pwd)
shared=$(cd .. && pwd)/shared
work=$(mktemp -d)
[ -n "${KEEP:-}" ] || trap 'rm -rf "$work"' EXIT
git clone -q "$root" "$work/main"
[ -d "$shared" ] && ln -s "$shared" "$work/shared"
cd "$work/main"
case "$mode" in
  release) cmd=(cargo test --release) ;;
  ci) cmd=(env CI=true bash .ci/run) ;;
  full) cmd=(env SUDOLAB_FULL_TESTS=1 cargo test --release) ;;
  *) echo "usage: benches/suite.sh [release|ci|full]" >&2; exit 2 ;;
esac
echo "$(git rev-parse --short HEAD), $(nproc) cores: ${cmd[*]}" >&2
status=0
/usr/bin/time -f "wall %e s, user %U s, system %S s" -o "$work/time" "${cmd[@]}" > "$work/log" 2>&1 || status=$?
grep -E "^(test result|python:)|Finished|Running" "$work/log" || true
cat "$work/time"
[ "$status" -eq 0 ] || { echo "exit $status (log: $work/log)" >&2; tail -n 30 "$work/log" >&2; exit "$status"; }
