#!/usr/bin/env bash
# The README's first command as a newcomer meets it after the build: the main
# job (`relax --k 45` on the embedded puzzles) and `score` and `rate` with no
# input, each run RUNS times (default 3) from the release binary, with the
# wall and CPU seconds of each run. The figures go to the README ("What to
# expect") and docs/performance.md, "The first touch". A benchmark, not a
# test: nothing asserts on these times.
#
#   benches/first_touch.sh            # relax, score and rate
#   benches/first_touch.sh relax      # one of them
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
bin=target/release/sudolab
runs=${RUNS:-3}
jobs=("${@:-relax score rate}")
for job in ${jobs[*]}; do
  case "$job" in
    relax) args=(relax --k 45) ;;
    score) args=(score) ;;
    rate) args=(rate) ;;
    *) echo "usage: benches/first_touch.sh [relax|score|rate]..." >&2; exit 2 ;;
  esac
  for _ in $(seq "$runs"); do
    /usr/bin/time -f "$(nproc) cores: ${args[*]}: wall %e s, CPU %U s user + %S s system" \
      "$bin" "${args[@]}" > /dev/null
  done
done
