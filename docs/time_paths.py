"""How people move through a puzzle: the pre-registered time-model variants.

docs/score.md, "How people move through a puzzle", lists the terms and the rule that
decides them. The terms come from the puzzles alone: a person's singles path (the
singles a board with no pencil marks offers, the last placement's follow-ups first,
20 seeded runs) and the spread of the givens. Each variant is cross-validated as
docs/time_ideas.py does (the same folds, fit and continuation, imported from it), on
the rows `docs/time_ideas.sh` makes:

    python3 docs/time_paths.py METRICS.jsonl CLOUDSUDOKU_TRAIN.tsv

Needs numpy. A few minutes: the path runs are plain Python.
"""

import random
import sys

import numpy as np

from time_ideas import SHIPPED, Term, cross_validate, load, spearman

RUNS = 20
WINDOW = 30
ALL = 0x1FF
ROW = [[9 * r + c for c in range(9)] for r in range(9)]
COL = [[9 * r + c for r in range(9)] for c in range(9)]
BOX = [[9 * (3 * (b // 3) + i // 3) + 3 * (b % 3) + i % 3 for i in range(9)] for b in range(9)]
UNITS = ROW + COL + BOX
BOX_OF = [3 * (c // 27) + (c % 9) // 3 for c in range(81)]


class Board:
    """Digits placed, with each unit's digits as a bit mask."""

    def __init__(self, digits):
        self.d = list(digits)
        self.row, self.col, self.box = [0] * 9, [0] * 9, [0] * 9
        for c, v in enumerate(self.d):
            if v:
                self.place(c, v)

    def place(self, c, v):
        bit = 1 << (v - 1)
        self.d[c] = v
        self.row[c // 9] |= bit
        self.col[c % 9] |= bit
        self.box[BOX_OF[c]] |= bit

    def candidates(self, c):
        return ALL & ~(self.row[c // 9] | self.col[c % 9] | self.box[BOX_OF[c]])

    def singles(self):
        """Every cell a naked or hidden single fills, with its digit, and
        whether a hidden single in a box and any hidden single is among them."""
        cand = [0 if v else self.candidates(c) for c, v in enumerate(self.d)]
        found, box_hidden, hidden = {}, False, False
        for c, m in enumerate(cand):
            if m and m & (m - 1) == 0:
                found[c] = m.bit_length()
        for u, unit in enumerate(UNITS):
            once = twice = 0
            for c in unit:
                twice |= once & cand[c]
                once |= cand[c]
            unique = once & ~twice
            if unique:
                for c in unit:
                    hit = cand[c] & unique
                    if hit:
                        found[c] = hit.bit_length()
                        hidden = True
                        box_hidden |= u >= 18
        return found, box_hidden, hidden


def solve(digits):
    """The solution (the puzzles are unique), by backtracking on the fewest candidates."""
    b = Board(digits)

    def go():
        best, best_n = None, 10
        for c, v in enumerate(b.d):
            if not v:
                n = bin(b.candidates(c)).count("1")
                if n < best_n:
                    best, best_n = c, n
        if best is None:
            return True
        m = b.candidates(best)
        saved = (b.row[:], b.col[:], b.box[:])
        while m:
            bit = m & -m
            m ^= bit
            b.place(best, bit.bit_length())
            if go():
                return True
            b.d[best] = 0
            b.row, b.col, b.box = saved[0][:], saved[1][:], saved[2][:]
        return False

    assert go(), "unsolvable puzzle"
    return b.d


def run(digits, solution, rng):
    """One path: per step, the cells singles fill, the digits they place,
    whether the last placement opened a new single, and whether a hidden
    single in a box and any hidden single is among the singles."""
    b = Board(digits)
    steps, before = [], set()
    while 0 in b.d:
        found, box_hidden, hidden = b.singles()
        new = [c for c in found if c not in before]
        steps.append((len(found), len(set(found.values())), bool(new), box_hidden, hidden))
        if found:
            c = rng.choice(sorted(new) if new else sorted(found))
            b.place(c, found[c])
        else:
            empty = [c for c, v in enumerate(b.d) if not v]
            c = min(empty, key=lambda c: bin(b.candidates(c)).count("1"))
            b.place(c, solution[c])
        before = set(found) - {c}
    return steps


def path_terms(puzzle, seed):
    """Terms A-I of a puzzle (docs/score.md): the path's, means over RUNS runs, and the givens'."""
    digits = [0 if ch in ".0" else int(ch) for ch in puzzle]
    solution = solve(digits)
    acc = np.zeros(7)
    for k in range(RUNS):
        steps = run(digits, solution, random.Random(seed * 1000 + k))
        bottlenecks = sum(1 for s in steps if s[0] == 1)
        scan = sum(1.0 / s[0] if s[0] else 2.0 for s in steps)
        restarts = sum(1 for s in steps[1:] if s[0] and not s[2])
        digits_in_reach = np.mean([s[1] for s in steps[:WINDOW]])
        no_box = sum(1 for s in steps if s[0] and not s[3])
        naked_only = sum(1 for s in steps if s[0] and not s[4])
        acc += [bottlenecks, scan, restarts, steps[0][0], digits_in_reach, no_box, naked_only]
    acc /= RUNS
    per_digit = [sum(1 for v in digits if v == d) for d in range(1, 10)]
    per_box = [sum(1 for c in unit if digits[c]) for unit in BOX]
    terms = dict(zip("ABCDEHI", acc))
    return terms | {"F": float(np.std(per_digit)), "G": float(np.std(per_box))}


def term(k, transform):
    """Term `k` of the rows' `_path` as an effort term of time_ideas.py."""
    return Term(k, lambda r: r["_path"][k], transform)


NEW = {
    "A": term("A", "log1p"),
    "B": term("B", "log1p"),
    "C": term("C", "log1p"),
    "D": term("D", "log1p"),
    "E": term("E", "id"),
    "F": term("F", "id"),
    "G": term("G", "id"),
    "H": term("H", "log1p"),
    "I": term("I", "log1p"),
}
NAMES = {
    "A": "bottlenecks", "B": "scan cost", "C": "restarts", "D": "opening",
    "E": "digits in reach", "F": "digit spread", "G": "box spread",
    "H": "no box single", "I": "naked only",
}


def variants():
    for k in "ABCDEFG":
        yield f"{k}: + {NAMES[k]}", SHIPPED + [NEW[k]]
    yield "8: + A, B, C", SHIPPED + [NEW[k] for k in "ABC"]
    yield "9: + A-G", SHIPPED + [NEW[k] for k in "ABCDEFG"]
    yield "10: A, B, C in place of singles_dependency", [
        t for t in SHIPPED if t.name != "singles_dependency"
    ] + [NEW[k] for k in "ABC"]
    yield "11: + H, no box single", SHIPPED + [NEW["H"]]
    yield "12: + I, naked only", SHIPPED + [NEW["I"]]
    yield "13: + H, I", SHIPPED + [NEW["H"], NEW["I"]]


BASE = {}


def paired(rows, terms, seeds):
    """Split-level and single-fold Spearman gains over the shipped terms."""
    split, folds = [], []
    for s in seeds:
        if s not in BASE:
            BASE[s] = cross_validate(rows, SHIPPED, s)
        new, base = cross_validate(rows, terms, s), BASE[s]
        split.append(new[0] - base[0])
        folds += [a - b for a, b in zip(new[2], base[2])]
    return np.array(split), np.array(folds)


def main():
    rows = load(sys.argv[1], sys.argv[2])
    for i, r in enumerate(rows):
        r["_path"] = path_terms(r["puzzle"], i)
    y = np.array([r["_ln"] for r in rows])
    dependency = [r.get("singles_dependency") or 0.0 for r in rows]
    print("| term | Spearman with ln time | with singles_dependency | mean | sd |")
    print("|---|---:|---:|---:|---:|")
    for k in "ABCDEFGHI":
        v = [r["_path"][k] for r in rows]
        print(
            f"| {k}, {NAMES[k]} | {spearman(v, y):+.3f} | {spearman(v, dependency):+.3f} "
            f"| {np.mean(v):.2f} | {np.std(v):.2f} |"
        )
    print()
    print("| variant | Spearman (seeds 1-5, range) | median abs ln error | fold gain, seeds 1-5 (sd) | splits gaining, seeds 6-25 | fold gain, seeds 6-25 (sd) |")
    print("|---|---:|---:|---:|---:|---:|")
    runs = [cross_validate(rows, SHIPPED, s) for s in range(1, 6)]
    rho = [r[0] for r in runs]
    print(f"| the shipped effort terms | {np.mean(rho):.3f} ({min(rho):.3f}-{max(rho):.3f}) | {np.mean([r[1] for r in runs]):.3f} | | | |", flush=True)
    for name, terms in variants():
        runs = [cross_validate(rows, terms, s) for s in range(1, 6)]
        rho = [r[0] for r in runs]
        err = np.mean([r[1] for r in runs])
        _, f1 = paired(rows, terms, range(1, 6))
        s2, f2 = paired(rows, terms, range(6, 26))
        print(
            f"| {name} | {np.mean(rho):.3f} ({min(rho):.3f}-{max(rho):.3f}) | {err:.3f} "
            f"| {f1.mean():+.3f} ({f1.std():.3f}) | {int((s2 > 0).sum())} of 20, mean {s2.mean():+.3f} "
            f"| {f2.mean():+.3f} ({f2.std():.3f}) |",
            flush=True,
        )


if __name__ == "__main__":
    main()
