#!/usr/bin/env bash
# Regenerates docs/papers.md: the papers' own figures beside ours, on the
# labelled sets of ../shared/data (read at run time; only aggregate numbers
# are written).
#
#   bash docs/papers.sh                 # about 4 minutes on 2 cores
#   SAMPLE=20 DOCS_OUT=/tmp bash docs/papers.sh   # every 20th puzzle, output elsewhere
#   SE_CLASSIC=/path/classes bash docs/papers.sh    # §10 with the classic SE peer beside
#
# SUDOLAB_DATA overrides the data directory (default ../shared/data),
# SUDOLAB_BIN the binary (default: build target/release/sudolab).
# tests/doc_scripts.rs runs it on a sample.
set -euo pipefail
cd "$(dirname "$0")/.."
DATA=${SUDOLAB_DATA:-../shared/data}
OUT=${DOCS_OUT:-docs}
SAMPLE=${SAMPLE:-1}
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
if [ -n "${SUDOLAB_BIN:-}" ]; then B=$SUDOLAB_BIN; else cargo build --release -q; B=target/release/sudolab; fi

# Every SAMPLE-th puzzle line of a data file (comment lines dropped).
pick() { awk -v n="$SAMPLE" '!/^#/ && (n == 1 || ++i % n == 1)' "$1"; }

pick "$DATA/website-projectpatti/patti.tsv" > "$W/patti.tsv"
pick "$DATA/website-nyt/nyt.tsv" > "$W/nyt.tsv"
pick "$DATA/human-cloudsudoku-train/cloudsudoku_train.tsv" > "$W/cloud.tsv"
# KrazyDad: 100 evenly spaced puzzles of each of its 7 levels (16,000 each),
# the shape of Chang's 100 puzzles per level.
awk -F'\t' -v n="$SAMPLE" '!/^#/ && ++c[$2] % (160 * n) == 1' "$DATA/website-krazydad/krazydad.tsv" > "$W/krazydad.tsv"
grep -E "	(Golden Nugget|Platinum Blonde|Red Dwarf|tarx0134)$" examples/puzzles.txt > "$W/famous.txt"

# Rating seed 0 throughout (the figures were measured with it; the default
# of every command is now seed::DEFAULT_SEED = 1).
$B analyze "$W/patti.tsv" --metrics clauses,rate:nishio,hsolve --seed 0 -f jsonl -o "$W/patti.jsonl" --keep-going 2> /dev/null || [ $? -eq 3 ]
$B analyze "$W/nyt.tsv" --metrics clauses,rate:nishio,hsolve --seed 0 -f jsonl -o "$W/nyt.jsonl" 2> /dev/null
$B rate "$W/nyt.tsv" -m nishio --no-score --seed 0 --nishio-order strategies-first -f jsonl > "$W/nyt-sf.jsonl"
$B rate "$W/krazydad.tsv" -m hsolve --no-score --seed 0 -f jsonl > "$W/krazydad.jsonl" 2> /dev/null || [ $? -eq 3 ]
$B rate "$W/cloud.tsv" -m hsolve --no-score --seed 0 -f jsonl > "$W/cloud-hsolve.jsonl"
$B analyze "$W/cloud.tsv" --metrics relax --samples 200 --seed 1 -f jsonl -o "$W/cloud-relax.jsonl" 2> /dev/null
$B rate "$W/famous.txt" -m nishio --no-score --seed 0 -f jsonl > "$W/famous.jsonl"
# Pelánek Fig. 7: the Cloud Sudoku puzzles at the 5th, 50th and 95th
# percentile of the mean solving time.
sort -t$'\t' -k4,4g "$W/cloud.tsv" | awk '{ l[NR] = $0 } END { print l[int(0.05 * NR) + 1]; print l[int(0.5 * NR) + 1]; print l[int(0.95 * NR) + 1] }' > "$W/fig7.tsv"
$B order "$W/fig7.tsv" --samples 100 --seed 0 --keep-going -f jsonl > "$W/fig7.jsonl" 2> /dev/null || [ $? -eq 3 ]
for site in Sudoku.org.uk Extreme_Sudoku Sudoku_of_the_Day; do
  grep -F "\"label\":\"$site\\t" "$W/patti.jsonl" > "$W/$site.jsonl" || true
  $B eval "$W/$site.jsonl" --label label:3 --metrics short_pct,nishio4,nishio2,hsolve --bootstrap 0 -f json > "$W/$site.eval.json"
done
$B eval "$W/nyt.jsonl" --label label:2 --metrics short_pct,nishio4,nishio2,hsolve --bootstrap 0 -f json > "$W/nyt.eval.json"
$B eval "$W/krazydad.jsonl" --label label:2 --metrics hsolve --bootstrap 0 -f json > "$W/krazydad.eval.json"
$B eval "$W/cloud-relax.jsonl" --label label:3 --metrics mean_solutions,median_solutions,p_unique,mean_fixed --bootstrap 500 -f json > "$W/cloud.eval.json"
# Serate beside Sukaku Explainer's own rating (ER) on the SE-rated sets.
pick "$DATA/se-ratings-sukakuexplainer/se_ratings.tsv" > "$W/se-web.tsv"
awk -v n="$SAMPLE" '!/^#/ && ++i % (20 * n) == 1' "$DATA/se-sudokuexchange/diabolical_se.tsv" > "$W/se-exchange.tsv"
pick "$DATA/se-ratings-hard/top1465_se_train.tsv" > "$W/se-hard.tsv"
for s in se-web se-exchange se-hard; do
  nice $B rate "$W/$s.tsv" -m serate --no-score -f jsonl --keep-going > "$W/$s.jsonl" 2> /dev/null || [ $? -eq 3 ]
done
# Serate beside the classic Sudoku Explainer's published ratings: the first 30 puzzles of
# every rating value of the 17-clue list's training half; with SE_CLASSIC (the classes
# folder of ../shared/peers/se-classic/build.sh) the classic peer rates the same puzzles.
awk -F'\t' -v n="$SAMPLE" '!/^#/ && ++c[$2] <= 30 && (n == 1 || c[$2] % n == 1)' \
  "$DATA/se-ratings-17clue/royle17_ser_train.tsv" > "$W/se17.tsv"
nice $B rate "$W/se17.tsv" -m serate --no-score -f jsonl --keep-going > "$W/se17.jsonl" 2> /dev/null || [ $? -eq 3 ]
if [ -n "${SE_CLASSIC:-}" ]; then
  cut -f1 "$W/se17.tsv" > "$W/se17.txt"
  (cd "$W" && java -Xrs -Xmx1g -XX:ParallelGCThreads=1 -cp "$SE_CLASSIC:/usr/share/java/json-simple.jar" \
    diuf.sudoku.test.serate --input=se17.txt --format='%g %r %p %d' > se17.peer 2> /dev/null)
fi
# The Cloud Sudoku puzzles carry SE's ER too; their `serate_uses` feed the Serate LM.
$B rate "$W/cloud.tsv" -m serate --no-score -f jsonl > "$W/cloud-serate.jsonl"
# Fletcher's Algorithm 2: 1,000 puzzles (seed 1) rated by the oracle model.
$B generate -m fletcher -n $((1000 / SAMPLE)) --seed 1 > "$W/fletcher.txt"
$B rate "$W/fletcher.txt" -m oracle --no-score --seed 0 -f jsonl > "$W/fletcher.jsonl"

python3 docs/papers.py "$W" "$SAMPLE" > "$OUT/papers.md"
