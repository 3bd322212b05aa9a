#!/usr/bin/env bash
# Berthier's ratings beside the published ones, per rating value, and their
# speed beside the peers' (docs/papers.md §12, docs/performance.md
# "Berthier's ratings"). Reads the training halves of ../shared/data
# (berthier-ratings/), never writes a puzzle: only counts and times.
#
#   bash docs/berthier.sh                      # W: 50 per value, BxB: 10 per value (~1 min)
#   PER_W=100000 PER_BXB=100000 bash docs/berthier.sh   # the whole lists (~15 min on 2 cores)
#   PEERS=/work/peers-out bash docs/berthier.sh # with the peers (../shared/peers/berthier/build.sh
#         PEERS): B against SHC's on the W sample, and the times on stratified samples of
#         PER_PEER_W (3) 17-clue and PER_PEER_BXB (4) T&E(2) puzzles per value (~10 min)
#
# SUDOLAB_DATA overrides the data directory (default ../shared/data);
# SEED the sample's seed (default 62). One core: RAYON_NUM_THREADS=1.
set -euo pipefail
cd "$(dirname "$0")/.."
DATA=${SUDOLAB_DATA:-../shared/data}/berthier-ratings
PER_W=${PER_W:-50}
PER_BXB=${PER_BXB:-10}
SEED=${SEED:-62}
PEERS=${PEERS:-}
RATE=${RATE:-../shared/peers/berthier/rate.sh}
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
# BERTHIER_BIN names the example binary (tests/doc_scripts.rs passes the one
# `cargo test` built); by default it is built here.
if [ -n "${BERTHIER_BIN:-}" ]; then
  B=$BERTHIER_BIN
else
  cargo build --release -q --example berthier
  B=target/release/examples/berthier
fi

# PER puzzles of each value of column COL, in a seeded shuffle: "puzzle<TAB>value" lines.
sample() { # FILE COL PER
  grep -v '^#' "$1" | shuf --random-source=<(yes "$SEED") |
    awk -F'\t' -v col="$2" -v per="$3" '{ if (c[$col]++ < per) print $1 "\t" $col }' | sort -t$'\t' -k2n
}
# Runs a command with its output into OUT and prints its user+sys seconds.
timed() { # OUT COMMAND...
  local out=$1; shift
  /usr/bin/time -f '%U %S' -o "$W/t" "$@" > "$out"; awk '{ printf "%.2f", $1 + $2 }' "$W/t"
}
# The table: value, puzzles, equal, share; from "published<TAB>ours" lines.
table() { # NAME
  echo "| published $1 | puzzles | ours equal | share |"
  echo "|---|---|---|---|"
  awk -F'\t' '{ n[$1]++; if ($1 == $2) e[$1]++; N++; if ($1 == $2) E++ }
    END { for (v in n) printf "| %s | %d | %d | %.1f %% |\n", v, n[v], e[v], 100 * e[v] / n[v] | "sort -n -t\"|\" -k2";
          close("sort -n -t\"|\" -k2"); printf "| all | %d | %d | %.1f %% |\n", N, E, 100 * E / N }'
}

sample "$DATA/royle17_w_train.tsv" 2 "$PER_W" > "$W/w.tsv"
cut -f1 "$W/w.tsv" > "$W/w.txt"
tw=$(RAYON_NUM_THREADS=1 timed "$W/w.out" "$B" w "$W/w.txt")
echo "## W rating, 17-clue list (training half; $(wc -l < "$W/w.txt") puzzles, up to $PER_W per value, seed $SEED)"
echo
paste <(cut -f2 "$W/w.tsv") "$W/w.out" | table W
echo
echo "ours: ${tw} s of CPU on one core for the $(wc -l < "$W/w.txt") puzzles (T&E depth and W)."

sample "$DATA/eleven_bxb_train.tsv" 3 "$PER_BXB" > "$W/x.tsv"
cut -f1 "$W/x.tsv" > "$W/x.txt"
tx=$(RAYON_NUM_THREADS=1 timed "$W/x.out" "$B" bxb "$W/x.txt")
echo
echo "## BxB, eleven's T&E(2) list (training half; $(wc -l < "$W/x.txt") puzzles, up to $PER_BXB per value, seed $SEED)"
echo
paste <(cut -f2 "$W/x.tsv") "$W/x.out" | table BxB
echo
echo "ours: ${tx} s of CPU on one core for the $(wc -l < "$W/x.txt") puzzles (T&E depth and BxB)."

if [ -n "$PEERS" ]; then
  # B: SHC's B rating of the 17-clue sample is the reference.
  timed "$W/b.shc" bash "$RATE" "$PEERS" b "$W/w.txt" > /dev/null
  RAYON_NUM_THREADS=1 timed "$W/b.out" "$B" b "$W/w.txt" > /dev/null
  echo
  echo "## B rating against SHC's, the same 17-clue sample"
  echo
  paste "$W/b.shc" "$W/b.out" | table "B (SHC)"
  echo
  echo "B ≤ W on every puzzle: $(paste "$W/b.out" "$W/w.out" | awk '$1 > $2 { bad++ } END { print bad ? "no, " bad " above" : "yes" }')."
  # Speed: smaller stratified samples, since the peers take seconds a puzzle.
  PW=$(SEED=$((SEED + 1)) sample "$DATA/royle17_w_train.tsv" 2 "${PER_PEER_W:-3}" | cut -f1 | tee "$W/pw.txt" | wc -l)
  PX=$(SEED=$((SEED + 1)) sample "$DATA/eleven_bxb_train.tsv" 3 "${PER_PEER_BXB:-4}" | cut -f1 | tee "$W/px.txt" | wc -l)
  echo
  echo "| rating | puzzles | ours, CPU s (one core) | peer | peer CPU s | ratio |"
  echo "|---|---|---|---|---|---|"
  for row in "w|$W/pw.txt|CSP-Rules" "b|$W/w.txt|SHC" "bxb|$W/px.txt|SHC"; do
    IFS='|' read -r kind file peer <<< "$row"
    ours=$(RAYON_NUM_THREADS=1 timed /dev/null "$B" "$kind" "$file")
    theirs=$(timed /dev/null bash "$RATE" "$PEERS" "$kind" "$file")
    echo "| $kind | $(wc -l < "$file") | $ours | $peer | $theirs | $(awk -v a="$theirs" -v b="$ours" 'BEGIN { printf "%.0f×", a / (b > 0.005 ? b : 0.005) }') |"
  done
fi
