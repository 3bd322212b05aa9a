#!/usr/bin/env bash
# `sudolab relax` against the PySAT script (pysat_relax.py), in one run: the
# comparison of docs/performance.md, "Relaxation".
#
# For each puzzle (the first "Easy", "Intermediate" and "Expert" lines of
# qqwing-generated/qqwing_levels.tsv and the first line of
# tdoku-benchmarks/tdoku-forum-hardest-1106.txt, read from the shared data
# directory at run time) it runs, one thread, k = 45, 1000 samples, cap 1000:
# `relax` with the default cross-check ROUNDS times, `relax --verify 0` once and
# the PySAT script once, and prints user + system seconds and the ratio of the
# PySAT time to each default round.
#
# This is a benchmark, not part of CI. It needs python-sat for $PYTHON.
#
# Usage: benches/peers/relax_vs_pysat.sh [DATA_DIR]
#   DATA_DIR  the shared data directory (default: ../shared/data beside the
#             repository)
#   PYTHON    the interpreter with python-sat (default: python3)
#   SUDOLAB   the binary (default: target/release/sudolab, built if missing)
#   ROUNDS    default-run rounds per puzzle (default: 3)
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
data=${1:-$repo/../shared/data}
python=${PYTHON:-python3}
rounds=${ROUNDS:-3}
sudolab=${SUDOLAB:-$repo/target/release/sudolab}

levels=$data/qqwing-generated/qqwing_levels.tsv
forum=$data/tdoku-benchmarks/tdoku-forum-hardest-1106.txt
for f in "$levels" "$forum"; do
    [ -r "$f" ] || { echo "missing $f (pass the shared data directory)" >&2; exit 1; }
done
"$python" -c 'import pysat' 2>/dev/null ||
    { echo "$python has no python-sat: pip install python-sat, or set PYTHON" >&2; exit 1; }
if [ ! -x "$sudolab" ]; then
    (cd "$repo" && cargo build --release --quiet)
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for level in Easy Intermediate Expert; do
    awk -F'\t' -v l="$level" '$2 == l { print $1; exit }' "$levels" > "$work/qqwing-$level.txt"
done
grep -v '^#' "$forum" | head -n 1 | cut -c1-81 > "$work/forum-hardest.txt"

# User + system seconds of one command (its output discarded), as GNU time
# reports them (10 ms steps; they agree with perf stat's task clock, while
# Python's getrusage of its children read about 10 % higher).
cpu() {
    /usr/bin/time -f "%U %S" -o "$work/time" "$@" > /dev/null
    awk '{ printf "%.2f", $1 + $2 }' "$work/time"
}

relax=(--k 45 --samples 1000 --all-samples --cap 1000 -f jsonl)
printf '%-20s %10s %24s %10s %s\n' puzzle pysat "relax default (rounds)" "verify 0" ratios
for p in qqwing-Easy qqwing-Intermediate qqwing-Expert forum-hardest; do
    file=$work/$p.txt
    defaults=()
    for _ in $(seq "$rounds"); do
        defaults+=("$(RAYON_NUM_THREADS=1 cpu "$sudolab" relax "$file" "${relax[@]}")")
    done
    v0=$(RAYON_NUM_THREADS=1 cpu "$sudolab" relax "$file" "${relax[@]}" --verify 0)
    py=$(cpu "$python" "$here/pysat_relax.py" "$(head -c 81 "$file")" --k 45 --samples 1000 --cap 1000)
    ratios=$(for t in "${defaults[@]}"; do awk -v a="$py" -v b="$t" 'BEGIN { printf "%.1fx ", a / b }'; done)
    printf '%-20s %10s %24s %10s %s\n' "$p" "$py" "${defaults[*]}" "$v0" "$ratios"
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
