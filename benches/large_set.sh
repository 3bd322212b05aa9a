#!/usr/bin/env bash
# A large real data set through `sudolab analyze`: the figures of
# docs/performance.md, "A large data set".
#
# SET is one of the two ~49,000-puzzle lists of tdoku-benchmarks (read from the
# shared data directory at run time):
#   17clue   tdoku-17clue.txt (49,158 puzzles; `#` lines are comments)
#   hardest  tdoku-forum-hardest-1905-11plus.txt (48,766 puzzles rated SE >= 11)
#
# Modes:
#   sample SET [EVERY]  a systematic sample (every EVERY-th puzzle, default 491:
#                       about 100) timed one group at a time on one thread
#                       (clauses, relax at the defaults, relax --precision 1,
#                       score, rate-all), then the default groups on one and
#                       on two threads; prints user seconds and seconds a puzzle.
#   full SET [OUT]      the whole set, default groups with --precision 1, to
#                       OUT (default large-SET.jsonl) with --resume: run it
#                       again after an interruption to go on. Prints wall, user
#                       and peak resident memory (/usr/bin/time -v).
#   peers SET [EVERY]   Sukaku Explainer (SE_CLASSES: the classes folder that
#                       ../shared/peers/se/build.sh makes) and pencilmark
#                       (PENCILMARK_PYTHON: an interpreter with PyPI pencilmark)
#                       on the sample, one thread, CPU seconds; each skipped
#                       with a message when missing. SE takes minutes a puzzle
#                       on `hardest`: there each puzzle gets its own JVM and at
#                       most SE_LIMIT seconds (default 600).
#
# This is a benchmark, not part of CI.
#
# Usage: benches/large_set.sh MODE SET [ARG]
#   DATA_DIR  the shared data directory (default: ../shared/data beside the repository)
#   SUDOLAB   the binary (default: target/release/sudolab, built if missing)
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
data=${DATA_DIR:-$repo/../shared/data}
sudolab=${SUDOLAB:-$repo/target/release/sudolab}
mode=${1:?usage: large_set.sh sample|full|peers 17clue|hardest [ARG]}
set_name=${2:?usage: large_set.sh MODE 17clue|hardest [ARG]}
case $set_name in
    17clue) file=$data/tdoku-benchmarks/tdoku-17clue.txt ;;
    hardest) file=$data/tdoku-benchmarks/tdoku-forum-hardest-1905-11plus.txt ;;
    *) echo "unknown set $set_name: 17clue or hardest" >&2; exit 1 ;;
esac
[ -r "$file" ] || { echo "missing $file (set DATA_DIR)" >&2; exit 1; }
if [ ! -x "$sudolab" ]; then
    (cd "$repo" && cargo build --release --quiet)
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The systematic sample: every EVERY-th puzzle line (comments skipped).
sample() {
    grep -v '^#' "$file" | awk -v n="$1" 'NR % n == 1' > "$work/sample.txt"
    wc -l < "$work/sample.txt"
}

# user seconds of one command (its output to /dev/null).
cpu() {
    /usr/bin/time -f '%U' -o "$work/t" "$@" > /dev/null
    cat "$work/t"
}

case $mode in
sample)
    n=$(sample "${3:-491}")
    echo "# $set_name: $n puzzles (every ${3:-491}th), load average: $(cut -d' ' -f1-3 /proc/loadavg)"
    echo "| group | threads | user s | ms a puzzle |"
    echo "|---|---:|---:|---:|"
    for g in "clauses" "relax" "relax --precision 1" "score" "rate-all"; do
        # shellcheck disable=SC2086
        t=$(RAYON_NUM_THREADS=1 cpu "$sudolab" analyze "$work/sample.txt" --metrics $g -f jsonl)
        echo "| $g | 1 | $t | $(echo "1000 * $t / $n" | bc -l | xargs printf %.1f) |"
    done
    for threads in 1 2; do
        for extra in "" "--precision 1"; do
            # shellcheck disable=SC2086
            /usr/bin/time -f '%e %U' -o "$work/t" env RAYON_NUM_THREADS=$threads \
                "$sudolab" analyze "$work/sample.txt" $extra -f jsonl > /dev/null
            read -r wall user < "$work/t"
            echo "| default groups $extra | $threads | $user (wall $wall) | $(echo "$n / $wall" | bc -l | xargs printf %.2f) puzzles/s wall |"
        done
    done
    ;;
full)
    out=${3:-large-$set_name.jsonl}
    before=$(grep -c '"line"' "$out" 2>/dev/null || true)
    /usr/bin/time -v -o "$work/v" "$sudolab" analyze "$file" --precision 1 -f jsonl -o "$out" --resume
    after=$(grep -c '"line"' "$out")
    echo "$set_name: rows $before -> $after in $out"
    grep -E 'Elapsed|User time|Maximum resident' "$work/v"
    ;;
peers)
    n=$(sample "${3:-491}")
    echo "# $set_name: $n puzzles (every ${3:-491}th)"
    if [ -d "${SE_CLASSES:-}/diuf" ]; then
        # Sukaku Explainer's serate on one input file, one thread.
        printf '#!/bin/sh\nexec java -Xrs -Xmx1g -XX:ParallelGCThreads=1 -cp "%s" diuf.sudoku.test.serate --threads=1 --input="$1" --format=%%r\n' \
            "$SE_CLASSES" > "$work/se"
        chmod +x "$work/se"
        if [ "$set_name" = 17clue ]; then
            # One JVM for the whole sample (its start-up counted once).
            t=$(cpu "$work/se" "$work/sample.txt")
            echo "SE: $t user s for $n puzzles in one JVM"
        else
            # One JVM a puzzle, each under a time limit.
            limit=${SE_LIMIT:-600}
            total=0
            unfinished=0
            while read -r p; do
                echo "$p" > "$work/one.txt"
                /usr/bin/time -f '%U' -o "$work/t" timeout "$limit" "$work/se" "$work/one.txt" \
                    > /dev/null 2>&1 || unfinished=$((unfinished + 1))
                total=$(echo "$total + $(tail -1 "$work/t")" | bc -l)
            done < "$work/sample.txt"
            echo "SE: $total user s for $n puzzles, one JVM each ($unfinished stopped at ${limit} s)"
        fi
    else
        echo "SE skipped: set SE_CLASSES to ../shared/peers/se/build.sh's OUT/classes"
    fi
    if [ -n "${PENCILMARK_PYTHON:-}" ] && "$PENCILMARK_PYTHON" -c 'import pencilmark' 2>/dev/null; then
        "$PENCILMARK_PYTHON" - "$work/sample.txt" <<'EOF'
import sys, time, pencilmark
puzzles = [l.split()[0] for l in open(sys.argv[1]) if l.strip()]
t0 = time.process_time()
refused = 0
for p in puzzles:
    try:
        pencilmark.rate(p, max_seconds=600)
    except Exception:
        refused += 1
t = time.process_time() - t0
print(f"pencilmark: {t:.2f} CPU s for {len(puzzles)} puzzles, {1000 * t / len(puzzles):.1f} ms each, {refused} refused or undecided")
EOF
    else
        echo "pencilmark skipped: set PENCILMARK_PYTHON to an interpreter with PyPI pencilmark"
    fi
    ;;
*) echo "unknown mode $mode: sample, full or peers" >&2; exit 1 ;;
esac
