#!/usr/bin/env bash
# The time model's ideas, measured on the Cloud Sudoku training half
# (docs/score.md, "The time model: ideas measured"): every metric the models
# compute (the slow annealing, harmony and Berthier left out), then
# docs/time_ideas.py's cross-validation of each variant, and docs/time_paths.py's
# pre-registered variants ("How people move through a puzzle"). Needs python3 with numpy.
set -euo pipefail
cd "$(dirname "$0")/.."
DATA="${SUDOLAB_DATA:-../shared/data}"
TSV="$DATA/human-cloudsudoku-train/cloudsudoku_train.tsv"
W="$(mktemp -d)"
trap 'rm -rf "$W"' EXIT
BIN="${SUDOLAB_BIN:-target/release/sudolab}"
[ -n "${SUDOLAB_BIN:-}" ] || cargo build --release --quiet
grep -v '^#' "$TSV" | cut -f1 > "$W/puzzles.txt"
"$BIN" analyze "$W/puzzles.txt" --serate-budget 0 -f jsonl -o "$W/metrics.jsonl" \
  --metrics clauses,rate:sisus,oracle,hsolve,nishio,weights,baseline,singles,serate,fowler,trial,score
python3 docs/time_ideas.py "$W/metrics.jsonl" "$TSV"
python3 docs/time_paths.py "$W/metrics.jsonl" "$TSV"
