#!/usr/bin/env bash
# Fits sudolab's difficulty score and regenerates what docs/score.md shows.
#
#   bash docs/score.sh            # data from ../shared/data, work files in target/score
#   SUDOLAB_DATA=DIR bash docs/score.sh
#
# 1. Builds the labelled puzzle list: every puzzle line carries the label
#    "SOURCE RANK SE LEVEL" (SE = Sukaku Explainer's ER rating from
#    se-ratings-sukakuexplainer or se-sudokuexchange, "-" when unknown); the
#    human solving times (cloudsudoku) carry the mean time in seconds as RANK.
# 2. Computes every candidate metric on each puzzle (`sudolab score --all-metrics`).
#    A sample of the forum's list of puzzles rated SE 11.0 or more (every
#    480th) is added as source forum-11plus with SE label 11.0 (a lower
#    bound): it anchors only the trial curve of the SE-equivalent.
# 3. Fits, selects and validates (`sudolab fit --score`), writing the model
#    to src/score/model.json (shipped in the binary: rebuilt afterwards).
# 4. Scores the SE-rated half of top1465 and another sample of the forum's
#    list (every 480th from line 241, disjoint from the anchors), neither
#    of them in the fit, and prints the SE-equivalent's figures; then scores
#    fresh QQWing puzzles (every 7th of those the fit did not use) against
#    their levels.
# The website-labelled sets are read at run time and never copied.
#
# tests/doc_scripts.rs runs it on a sample: SAMPLE=N keeps every N-th labelled
# puzzle (and of step 4's), ANCHOR_SAMPLE=N every N-th of the forum's anchors, DOCS_OUT=DIR
# puts the work files and the model in DIR (src/score/ is left alone),
# SUDOLAB_BIN names the binary (default: build it), SERATE_BUDGET=B bounds
# serate's nesting levels in step 4 (default: the command's default budget).
set -euo pipefail
cd "$(dirname "$0")/.."
DATA=${SUDOLAB_DATA:-../shared/data}
SAMPLE=${SAMPLE:-1}
W=${DOCS_OUT:-target/score}
MODEL_OUT=src/score/model.json
[ -n "${DOCS_OUT:-}" ] && MODEL_OUT="$W/model.json"
mkdir -p "$W"
if [ -n "${SUDOLAB_BIN:-}" ]; then BIN=$SUDOLAB_BIN; else cargo build --release --quiet; BIN=target/release/sudolab; fi

SE="$DATA/se-ratings-sukakuexplainer/se_ratings.tsv"
awk -F'\t' -v OFS='\t' '
  FNR == 1 { file++ }
  /^#/ { next }
  file == 1 { se[$1] = $2; split($7, s, ":"); set[$1] = s[1]; lvl[$1] = s[2]; next }
  # NYT: every puzzle.
  file == 2 { print $1, "nyt " $3 " " ($1 in se ? se[$1] : "-") " " $2; next }
  # Project Patti: every puzzle, one source per site.
  file == 3 {
    src = ($2 == "Sudoku.org.uk") ? "patti-org-uk" : ($2 == "Sudoku_of_the_Day") ? "patti-sotd" : "patti-extreme"
    print $1, src " " $4 " " ($1 in se ? se[$1] : "-") " " $3; next
  }
  # KrazyDad and QQWing: the puzzles SE was run on (100 per level).
  file == 4 { if (set[$1] == "krazydad") print $1, "krazydad " $3 " " se[$1] " " $2; next }
  file == 5 { if (set[$1] == "qqwing") print $1, "qqwing " $3 " " se[$1] " " $2; next }
  # Sudoku Exchange: every 50th puzzle; its label is SE itself (fit only).
  file == 6 { if (FNR % 50 == 0) print $1, "se-exchange " $2 " " $2 " -"; next }
  # Cloud Sudoku: the mean solving time in seconds (the timed source).
  file == 7 { print $1, "cloudsudoku " $4 " " $5 " -"; next }
' "$SE" "$DATA/website-nyt/nyt.tsv" "$DATA/website-projectpatti/patti.tsv" \
  "$DATA/website-krazydad/krazydad.tsv" "$DATA/qqwing-generated/qqwing_levels.tsv" \
  "$DATA/se-sudokuexchange/diabolical_se.tsv" \
  "$DATA/human-cloudsudoku-train/cloudsudoku_train.tsv" |
  awk -v n="$SAMPLE" 'n == 1 || NR % n == 1' > "$W/labelled.txt"
FORUM="$DATA/tdoku-benchmarks/tdoku-forum-hardest-1905-11plus.txt"
grep -v '^#' "$FORUM" | awk -v OFS='\t' -v n="${ANCHOR_SAMPLE:-1}" 'NR % 480 == 1 && (n == 1 || ++i % n == 1) { print $1, "forum-11plus 11.0 11.0 -" }' >> "$W/labelled.txt"
echo "labelled puzzles: $(wc -l < "$W/labelled.txt")" >&2

# Non-unique puzzles (4 in Patti's sets) are reported and skipped (exit 3).
# The fit reads the metrics, not the SE-equivalent: serate's nesting levels 3–5
# (minutes for the forum's anchors) are left out here.
"$BIN" score "$W/labelled.txt" --all-metrics --serate-budget 0 --keep-going -f jsonl -o "$W/metrics.jsonl" || [ $? -eq 3 ]
echo "metrics rows: $(wc -l < "$W/metrics.jsonl") ($(grep -c '"forum-11plus ' "$W/metrics.jsonl" || true) forum anchors)" >&2

"$BIN" fit "$W/metrics.jsonl" --score --source label:1 --label label:2 --se label:3 --level label:4 \
  --train-only se-exchange --se-anchor forum-11plus --timed cloudsudoku --timed-weight 1.5 \
  --metrics hardest_weight,hsolve,sisus_refutation_sum,backtracks,singles_dependency,singles_box_reach,singles_hidden_reach,singles_naked_reach,fowler,basic_reach,weights_score,givens,short_pct,oracle_score,nishio4_heuristic,sisus_dependency,mean_fixed,p_unique \
  --keep hardest_weight,hsolve,sisus_refutation_sum,backtracks,singles_dependency,singles_box_reach,singles_hidden_reach,singles_naked_reach,fowler \
  --fast-metrics hardest_weight,backtracks,singles_dependency,singles_box_reach,singles_hidden_reach,singles_naked_reach,basic_reach,weights_score,givens,short_pct,oracle_score,nishio4_heuristic \
  --population "Cloud Sudoku players: mean time of the 10–43 players who completed each puzzle (human-cloudsudoku-train, 746 puzzles)" \
  --bootstrap 500 --model-out "$MODEL_OUT" -o "$W/fit.txt"
cat "$W/fit.txt"

# The SE-equivalent beside SE on puzzles the fit never saw (with the new
# model when it was written into src/score/: the binary embeds it).
if [ -z "${SUDOLAB_BIN:-}" ] && [ -z "${DOCS_OUT:-}" ]; then cargo build --release --quiet; fi
awk -F'\t' -v OFS='\t' -v n="$SAMPLE" '!/^#/ && (n == 1 || ++i % n == 1) { print $1, $2 }' \
  "$DATA/se-ratings-hard/top1465_se_train.tsv" > "$W/top1465.txt"
grep -v '^#' "$FORUM" | awk -v n="$SAMPLE" 'NR % 480 == 241 && (n == 1 || ++i % n == 1) { print $1 }' > "$W/forum11.txt"
BUDGET=()
[ -n "${SERATE_BUDGET:-}" ] && BUDGET=(--serate-budget "$SERATE_BUDGET")
"$BIN" score "$W/top1465.txt" "${BUDGET[@]}" -f jsonl -o "$W/top1465.jsonl"
"$BIN" score "$W/forum11.txt" "${BUDGET[@]}" -f jsonl -o "$W/forum11.jsonl"
for min in 0 7 8.5; do
  jq -c --argjson m "$min" 'select((.label | tonumber) >= $m) | {label: (.label | tonumber), se_equivalent, score}' \
    "$W/top1465.jsonl" > "$W/top1465-$min.jsonl"
  echo "top1465 (SE-rated half), SE >= $min:"
  "$BIN" eval "$W/top1465-$min.jsonl" --label label --metrics se_equivalent,score --bootstrap 0 | awk 'NR <= 4'
done
jq -s '"top1465: median |se_equivalent - SE| \([.[] | (.se_equivalent - (.label | tonumber)) | fabs] | sort | .[length / 2 | floor] * 1000 | round / 1000), extrapolated \([.[] | select(.extrapolated)] | length) of \(length)"' -r "$W/top1465.jsonl"
# Fresh QQWing puzzles: every 7th of the generated ones the fit did not use.
awk -F'\t' -v n="$SAMPLE" 'FNR == 1 { f++ } /^#/ { next }
  f == 1 { split($7, s, ":"); if (s[1] == "qqwing") used[$1] = 1; next }
  !($1 in used) && ++i % 7 == 0 && (n == 1 || ++j % n == 1) { print $1 "\t" $3 }' \
  "$SE" "$DATA/qqwing-generated/qqwing_levels.tsv" > "$W/qqwing-fresh.txt"
"$BIN" score "$W/qqwing-fresh.txt" -f jsonl -o "$W/qqwing-fresh.jsonl"
echo "fresh QQWing puzzles ($(wc -l < "$W/qqwing-fresh.txt"), level rank 1-4):"
"$BIN" eval "$W/qqwing-fresh.jsonl" --label label --metrics score,se_equivalent --bootstrap 0 | awk 'NR <= 4'
jq -s '"forum SE >= 11.0 sample: median se_equivalent \([.[].se_equivalent] | sort | .[length / 2 | floor] * 1000 | round / 1000), min \([.[].se_equivalent] | min * 1000 | round / 1000), extrapolated \([.[] | select(.extrapolated)] | length), minutes extrapolated \([.[] | select(.minutes_extrapolated)] | length) of \(length)"' -r "$W/forum11.jsonl"

# 5. People's time, ideas measured (docs/score.md): the kept nine with one idea
#    added (or taken out), or the sources weighing differently, selected,
#    fitted and validated as in step 3 without the bootstrap; each line gives
#    the Cloud Sudoku 5-fold figures, the sites' mean and QQWing's
#    leave-one-source-out Spearman, and the fresh QQWing puzzles of step 4
#    scored by the idea's model.  idea NAME METRICS [TIMED-WEIGHT [FIT OPTIONS]]
KEEP=hardest_weight,hsolve,sisus_refutation_sum,backtracks,singles_dependency,singles_box_reach,singles_hidden_reach,singles_naked_reach,fowler
idea() {
  "$BIN" fit "$W/metrics.jsonl" --score --source label:1 --label label:2 --se label:3 --level label:4 \
    --train-only se-exchange --se-anchor forum-11plus --timed cloudsudoku --timed-weight "${3:-1.5}" "${@:4}" \
    --metrics "$2" --keep "$2" --population "Cloud Sudoku players" --bootstrap 0 \
    --model-out "$W/idea-model.json" -o "$W/idea.txt"
  "$BIN" score "$W/qqwing-fresh.txt" --model "$W/idea-model.json" -f jsonl -o "$W/idea-qqwing.jsonl"
  fresh=$("$BIN" eval "$W/idea-qqwing.jsonl" --label label --metrics score --bootstrap 0 | awk '$1 == "score" { print $4 }')
  awk -v name="$1" -v fresh="$fresh" '
    /^held out: / { cloud = ($3 == "cloudsudoku"); site = !cloud; src = $3 }
    cloud && $1 == "score" { s = $3 }
    site && $1 == "score" { sum += $3; n++; site = 0; if (src == "qqwing") q = $3 }
    cloud && /^minutes on/ { match($0, /ln error\| [0-9.]+/); e = substr($0, RSTART + 10, RLENGTH - 10)
                             match($0, /Spearman [0-9.-]+/); m = substr($0, RSTART + 9, RLENGTH - 9) }
    END { printf "%-50s score %s  minutes %s  median |ln error| %s  sites %.3f  qqwing %s  fresh qqwing %s\n", name, s, m, e, sum / (n ? n : 1), q, fresh }' "$W/idea.txt"
}
echo "people's time, one idea at a time (Cloud Sudoku, 5-fold):"
idea "the kept nine" "$KEEP"
idea "- singles_naked_reach (naked singles solve it)" "${KEEP/,singles_naked_reach/}"
idea "- fowler (SE ratings summed along the path)" "${KEEP/,fowler/}"
idea "+ basic_reach (singles, pairs, intersections)" "$KEEP,basic_reach"
idea "+ weights_score (technique weights summed)" "$KEEP,weights_score"
idea "+ candidates (pencil marks to track)" "$KEEP,candidates"
idea "+ sisus_dependency (moves open per step)" "$KEEP,sisus_dependency"
idea "+ serate, sisus_dependency (SFRD)" "$KEEP,serate,sisus_dependency"
idea "- singles_hidden_reach (hidden/naked mix)" "${KEEP/,singles_hidden_reach/}"
idea "SFRD alone" "serate,fowler,sisus_refutation_sum,sisus_dependency"
idea "the times weigh 1 source" "$KEEP" 1
idea "the times weigh 2 sources" "$KEEP" 2
idea "the times weigh 3 sources" "$KEEP" 3
idea "the times weigh 4 sources" "$KEEP" 4
idea "QQWing weighs 2 sources, the times 3" "$KEEP" 3 --source-weight qqwing=2
idea "Extreme Sudoku and NYT weigh 0.25" "$KEEP" 1.5 --source-weight patti-extreme=0.25,nyt=0.25
idea "each site weighs its held-out Spearman squared" "$KEEP" 1.5 \
  --source-weight krazydad=0.95,nyt=0.82,patti-extreme=0.072,patti-org-uk=0.84,patti-sotd=0.925,qqwing=0.885
idea "pairs of times 30 % apart (ln 0.3)" "$KEEP" 1.5 --time-margin 0.3
idea "pairs of times 30 % apart, the times weigh 3" "$KEEP" 3 --time-margin 0.3
idea "naked reach and basic reach, the times weigh 3" "$KEEP,basic_reach" 3
# Pelánek's SFRD as he fits it: least squares on ln time, half the times to
# train, half to test (methods §4.5).
jq -c 'select(.label | startswith("cloudsudoku ")) | . + {ln_time: (.label | split(" ")[1] | tonumber | log)}' \
  "$W/metrics.jsonl" > "$W/cloud.jsonl"
"$BIN" fit "$W/cloud.jsonl" --label ln_time --metrics SFRD | grep -iE "spearman|test" || true
# QQWing's level lines against the times (in sample; the score step 2 gave,
# the shipped model's when the script began): the score with every puzzle
# naked singles solve put below every other (its Simple line drawn exactly),
# or every puzzle basic techniques leave unsolved above every other (its
# Expert line).
jq -c '. + {simple_line: (.score - (if .singles_naked_reach >= 1 then 100 else 0 end)),
            expert_line: (.score + (if .basic_reach < 1 then 100 else 0 end))}' "$W/cloud.jsonl" > "$W/cloud-lines.jsonl"
echo "QQWing's lines drawn exactly, Spearman with ln time (in sample):"
"$BIN" eval "$W/cloud-lines.jsonl" --label ln_time --metrics score,simple_line,expert_line --bootstrap 0 | awk 'NR >= 3 && NR <= 5 { print $1, $4 }'
