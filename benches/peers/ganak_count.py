#!/usr/bin/env python3
"""Peer baseline for `sudolab relax --cap 0`: exact solution counts of relaxed
instances from a dedicated exact model counter, Ganak (via pyganak).

Reads the samples that `sudolab relax PUZZLE --k K --samples N --cap 0
--emit-samples SAMPLES` wrote (one JSON object per line with the puzzle, the
removed edges and sudolab's exact count in `solutions`). For each sample it
encodes the relaxed instance as CNF with relaxed_cnf.py, as pysat_relax.py does (cell ALO +
cell AMO over all digits, one binary clause per remaining edge and digit, a
unit clause per given; variable = cell*9 + digit), counts its models exactly
with a fresh Ganak counter over all 729 variables (ALO + AMO make every
colouring exactly one model, so the model count is the number of colourings)
and checks it against sudolab's count. A mismatch is printed loudly and the
script exits with status 1. Prints the mean count, the time spent inside
Ganak (building the counter, adding clauses and counting; process CPU time
and wall time) per sample and in total, and the number of samples.

This is a benchmark peer for docs/performance.md, not part of CI.
Requires `pip install pyganak` (Ganak 2.8.0 bindings were used).

Usage: ganak_count.py SAMPLES.jsonl [PUZZLE]
  PUZZLE (81 characters, or a file whose first puzzle line is used) is
  optional: the samples carry their puzzle; when given, it must match.
"""

import argparse
import json
import os
import statistics
import sys
import time

from pyganak import Counter

from relaxed_cnf import base_clauses, relaxed_clauses, sudoku_edges


def parse_puzzle(text):
    if os.path.isfile(text):
        with open(text) as f:
            text = next(l.strip() for l in f if l.strip() and not l.startswith("#"))
    if len(text) != 81:
        sys.exit(f"expected 81 cells, found {len(text)}")
    return [int(ch) if ch in "123456789" else 0 for ch in text]


def count_models(clauses):
    """Exact model count over all 729 variables (no projection)."""
    c = Counter()
    c.new_vars(729)
    c.add_clauses(clauses)
    return c.count()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("samples", help="JSONL written by `sudolab relax --emit-samples`")
    ap.add_argument("puzzle", nargs="?", help="81 characters or a puzzle file (optional)")
    args = ap.parse_args()
    given = parse_puzzle(args.puzzle) if args.puzzle else None
    with open(args.samples) as f:
        rows = [json.loads(l) for l in f if l.strip()]
    if not rows:
        sys.exit("no samples")
    edges = sudoku_edges()
    bases = {}
    counts, times, cpus, mismatches = [], [], [], 0
    for row in rows:
        cells = parse_puzzle(row["puzzle"])
        if given is not None and cells != given:
            sys.exit(f"sample {row['sample']} is for puzzle {row['puzzle']}, not the one given")
        if row.get("capped"):
            sys.exit(f"sample {row['sample']} was capped: emit the samples with --cap 0")
        key = row["puzzle"]
        if key not in bases:
            bases[key] = base_clauses(cells)
        removed = {tuple(sorted(e)) for e in row["removed"]}
        clauses = relaxed_clauses(bases[key], edges, removed)
        start, cpu = time.perf_counter(), time.process_time()
        n = count_models(clauses)
        times.append(time.perf_counter() - start)
        cpus.append(time.process_time() - cpu)
        counts.append(n)
        if n != row["solutions"]:
            mismatches += 1
            print(
                f"!!! MISMATCH line {row.get('line')} k {row.get('k')} sample {row['sample']}: "
                f"ganak {n} sudolab {row['solutions']}",
                file=sys.stderr,
            )
    total, cpu = sum(times), sum(cpus)
    ks = sorted({r.get("k") for r in rows})
    print(
        f"samples {len(rows)} k {','.join(map(str, ks))}: mean count {statistics.mean(counts):.6g} "
        f"(min {min(counts)} max {max(counts)}) "
        f"ganak {1000 * cpu / len(rows):.2f} ms CPU/sample ({1000 * total / len(rows):.2f} ms wall), "
        f"total {cpu:.3f} s CPU ({total:.3f} s wall); "
        f"mismatches {mismatches}"
    )
    if mismatches:
        print(f"!!! {mismatches} of {len(rows)} counts differ from sudolab's", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
