#!/usr/bin/env python3
"""Peer baseline for `sudolab relax`: constraint relaxation the way it is
usually done in Python today, with PySAT.

For each of SAMPLES relaxations of one puzzle: draw K distinct edges of the
810 of the Sudoku graph uniformly at random, encode the relaxed instance
with relaxed_cnf.py (cell ALO + cell AMO over all digits, one binary clause
per remaining edge and digit, a unit clause per given), create a fresh Glucose3 solver and count
its models up to CAP with blocking clauses over the non-given cells. Prints
the mean and median count, the number of capped samples and the wall time.

This is a benchmark peer for docs/performance.md, not part of CI.
Requires `pip install python-sat`.

Usage: pysat_relax.py PUZZLE [--k 45] [--samples 1000] [--cap 1000] [--seed 1]
"""

import argparse
import random
import statistics
import sys
import time

from pysat.solvers import Glucose3

from relaxed_cnf import base_clauses, relaxed_clauses, sudoku_edges


def count_models(clauses, free_cells, cap):
    with Glucose3(bootstrap_with=clauses) as s:
        found = 0
        while found < cap and s.solve():
            model = s.get_model()
            found += 1
            block = [-l for l in model if l > 0 and (l - 1) // 9 in free_cells]
            if not block:
                break
            s.add_clause(block)
        return found


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("puzzle", help="81 characters, 1-9 givens, . or 0 blanks")
    ap.add_argument("--k", type=int, default=45)
    ap.add_argument("--samples", type=int, default=1000)
    ap.add_argument("--cap", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    if len(args.puzzle) != 81:
        sys.exit(f"expected 81 cells, found {len(args.puzzle)}")
    cells = [int(ch) if ch in "123456789" else 0 for ch in args.puzzle]
    free_cells = {c for c in range(81) if not cells[c]}
    edges = sudoku_edges()
    base = base_clauses(cells)
    rng = random.Random(args.seed)
    start = time.perf_counter()
    counts = []
    for _ in range(args.samples):
        removed = set(rng.sample(edges, args.k))
        clauses = relaxed_clauses(base, edges, removed)
        counts.append(count_models(clauses, free_cells, args.cap))
    elapsed = time.perf_counter() - start
    print(
        f"puzzle {args.puzzle} k {args.k} samples {args.samples} cap {args.cap}: "
        f"mean {statistics.mean(counts):.3f} median {statistics.median(counts)} "
        f"capped {sum(c >= args.cap for c in counts)} "
        f"time {elapsed:.2f} s ({args.samples / elapsed:.1f} samples/s)"
    )


if __name__ == "__main__":
    main()
