"""The time model's ideas, measured (docs/score.md, "The time model: ideas measured").

Reads the `sudolab analyze` rows of the Cloud Sudoku training half (docs/time_ideas.sh
makes them) and cross-validates variants of the time model of `docs/methods.md` §6.5:
ln(mean seconds) median-regressed (least absolute deviations, by the same iteratively
reweighted least squares as `src/stats/regression.rs`) on the score and standardised
effort terms, handing over to the median line on SE's rating over the top score point,
as `sudolab::cross_validate_time` does. Every standardisation and fit is inside the
folds; each variant is run on the 5-fold splits of seeds 1-5 (numpy's generator, not
the crate's, so a seed's folds differ from the Rust test's) and the table gives the
mean over the seeds, the range of the seeds' Spearman, and the standard deviation of
the 25 single folds' Spearman. Needs numpy.
"""

import json
import math
import sys

import numpy as np

SINGLES = ("last cell", "hidden single (box)", "hidden single (line)", "naked single")


def load(jsonl, tsv):
    rows = [json.loads(line) for line in open(jsonl) if line.strip()]
    timed = [l.rstrip("\n").split("\t") for l in open(tsv) if not l.startswith("#")]
    assert len(rows) == len(timed), (len(rows), len(timed))
    for r, f in zip(rows, timed):
        assert r["puzzle"] == f[0], r["line"]
        r["_ln"], r["_se"], r["_n"] = math.log(float(f[3])), float(f[4]), int(f[2])
        r["_uses"] = {}
        for part in (r.get("serate_uses") or "").split(";"):
            if ":" in part:
                k, v = part.rsplit(":", 1)
                r["_uses"][k] = int(v)
    return rows


def rank(a):
    a = np.asarray(a, float)
    order = np.argsort(a, kind="mergesort")
    r = np.empty(len(a))
    r[order] = np.arange(len(a))
    s, i = a[order], 0
    while i < len(a):
        j = i
        while j + 1 < len(a) and s[j + 1] == s[i]:
            j += 1
        r[order[i : j + 1]] = (i + j) / 2
        i = j + 1
    return r


def spearman(a, b):
    return float(np.corrcoef(rank(a), rank(b))[0, 1])


def wls(x, y, w, ridge=0.0):
    a = np.column_stack([np.ones(len(x)), x])
    m = a.T @ (a * w[:, None])
    m[1:, 1:] += ridge * np.eye(a.shape[1] - 1) * len(w)
    return np.linalg.solve(m, a.T @ (w * y))


def predict(b, x):
    return b[0] + x @ b[1:]


def fit(x, y, loss="lad", ridge=0.0, huber=0.1, w0=None):
    """LAD as the crate fits it (IRLS from least squares), least squares, or Huber."""
    w0 = np.ones(len(y)) if w0 is None else w0
    b = wls(x, y, w0, ridge)
    if loss == "ls":
        return b
    if loss == "huber":
        for _ in range(100):
            r = np.abs(y - predict(b, x))
            nb = wls(x, y, w0 * np.where(r <= huber, 1.0, huber / np.maximum(r, 1e-12)), ridge)
            done = np.max(np.abs(nb - b)) < 1e-9
            b = nb
            if done:
                break
        return b
    lad = lambda b: (w0 * np.abs(y - predict(b, x))).sum()
    best, best_loss = b, lad(b)
    for _ in range(200):
        nb = wls(x, y, w0 / np.maximum(np.abs(y - predict(best, x)), 1e-9), ridge)
        nl = lad(nb)
        if nl >= best_loss * (1 - 1e-12):
            best = nb if nl < best_loss else best
            break
        best, best_loss = nb, nl
    return best


class Term:
    """An effort term: a value of a row, a transform, and an optional gate."""

    def __init__(self, name, value, transform="id", gate=None):
        self.name, self.value, self.transform, self.gate = name, value, transform, gate

    def raw(self, r):
        v = self.value(r)
        if v is None or not math.isfinite(float(v)):
            return None
        v = float(v)
        return {"log1p": lambda: math.log1p(max(v, 0.0)), "whole": lambda: float(v >= 1.0)}.get(
            self.transform, lambda: v
        )()

    def column(self, rows, fill):
        vals = [fill if self.raw(r) is None else self.raw(r) for r in rows]
        if self.gate:
            vals = [v * (r.get(self.gate) or 0.0) for v, r in zip(vals, rows)]
        return np.array(vals)


def metric(k):
    return lambda r: r.get(k)


def uses(k):
    return lambda r: r["_uses"].get(k, 0)


def non_singles(r):
    return sum(v for k, v in r["_uses"].items() if k not in SINGLES)


SHIPPED = [
    Term("singles_dependency", metric("singles_dependency"), "log1p", "singles_hidden_reach"),
    Term("singles_box_reach", metric("singles_box_reach"), "id", "singles_hidden_reach"),
    Term("singles_hidden_reach", metric("singles_hidden_reach")),
    Term("givens", metric("givens"), "log1p"),
    Term("singles_naked_reach", metric("singles_naked_reach"), "whole"),
    Term("fowler", metric("fowler"), "log1p"),
    Term("candidates", metric("candidates"), "log1p"),
]


def design(terms, train, test):
    a_cols, b_cols = [[r["score"] for r in train]], [[r["score"] for r in test]]
    for t in terms:
        present = [v for v in (t.raw(r) for r in train) if v is not None]
        fill = max(present) if present else 0.0
        a, b = t.column(train, fill), t.column(test, fill)
        sd = a.std(ddof=1) or 1.0
        a_cols.append((a - a.mean()) / sd)
        b_cols.append((b - a.mean()) / sd)
    return np.column_stack(a_cols), np.column_stack(b_cols)


def continuation(train, test, pred):
    """The hand-over to the median line of ln time on SE over the top score point."""
    se = np.array([[r["_se"]] for r in train])
    c = fit(se, np.array([r["_ln"] for r in train]))
    top, max_se = max(r["score"] for r in train), se.max()
    for j, r in enumerate(test):
        share = min(max((r["score"] - (top - 1.0)) / 1.0, 0.0), 1.0)
        pred[j] = (1 - share) * pred[j] + share * (c[0] + c[1] * max(r["_se"], max_se))
    return pred


def hinge(at, column=0):
    """A second slope of design column `column` (0: the score) above `at`."""
    return lambda a, b, tr, te: (
        np.column_stack([a, np.maximum(a[:, column] - at, 0)]),
        np.column_stack([b, np.maximum(b[:, column] - at, 0)]),
    )


def square(column):
    return lambda a, b, tr, te: (
        np.column_stack([a, a[:, column] ** 2]),
        np.column_stack([b, b[:, column] ** 2]),
    )


def as_ranks(a, b, tr, te):
    """Each column as its share of the training rows below (ties halved)."""
    def cdf(col, x):
        s = np.sort(col)
        return (np.searchsorted(s, x, "left") + np.searchsorted(s, x, "right")) / (2 * len(s))

    return (
        np.column_stack([cdf(a[:, j], a[:, j]) for j in range(a.shape[1])]),
        np.column_stack([cdf(a[:, j], b[:, j]) for j in range(a.shape[1])]),
    )


def score_interactions(a, b, tr, te):
    return np.column_stack([a, a[:, :1] * a[:, 1:]]), np.column_stack([b, b[:, :1] * b[:, 1:]])


def cross_validate(rows, terms, seed, loss="lad", ridge=0.0, huber=0.1, score=True, extra=None, weight=0.0):
    order = np.random.default_rng(seed).permutation(len(rows))
    y = np.array([r["_ln"] for r in rows])
    pred, folds = np.zeros(len(rows)), []
    for f in range(5):
        te_i = order[f::5]
        tr_i = np.array([i for j, i in enumerate(order) if j % 5 != f])
        train, test = [rows[i] for i in tr_i], [rows[i] for i in te_i]
        a, b = design(terms, train, test)
        if extra:
            a, b = extra(a, b, train, test)
        if not score:
            a, b = a[:, 1:], b[:, 1:]
        w0 = np.array([r["_n"] ** weight for r in train])
        coef = fit(a, y[tr_i], loss, ridge, huber, w0 / w0.mean())
        pred[te_i] = continuation(train, test, predict(coef, b))
        folds.append(spearman(pred[te_i], y[te_i]))
    return spearman(pred, y), float(np.median(np.abs(y - pred))), folds


def ideas():
    def add(*terms):
        return SHIPPED + list(terms)

    def drop(name):
        return [t for t in SHIPPED if t.name != name]

    counts = [Term(k, uses(k)) for k in SINGLES[:3]]
    yield "the shipped effort terms", SHIPPED, {}
    for k in SINGLES:
        yield f"+ steps of {k} (serate_uses)", add(Term(k, uses(k))), {}
    yield "+ steps that are no single (ln)", add(Term("non-singles", non_singles, "log1p")), {}
    yield "+ steps in all", add(Term("steps", lambda r: sum(r["_uses"].values()))), {}
    yield "+ hidden box, line, last-cell steps", add(*counts), {}
    yield "+ those three, - singles_naked_reach", drop("singles_naked_reach") + counts, {}
    box = Term("box steps", uses("hidden single (box)"))
    yield "+ hidden box steps (ln)", add(Term("box steps", uses("hidden single (box)"), "log1p")), {}
    yield "+ hidden box steps, - singles_naked_reach, - singles_box_reach", [
        t for t in SHIPPED if t.name not in ("singles_naked_reach", "singles_box_reach")
    ] + [box], {}
    for name, tr in [
        ("sisus_dependency", "log1p"), ("sisus_refutation_sum", "log1p"), ("hsolve", "log1p"),
        ("backtracks", "log1p"), ("trial_depth", "id"), ("trial_steps", "log1p"),
        ("weights_score", "log1p"), ("nishio4", "id"), ("oracle_score", "log1p"),
        ("basic_reach", "id"), ("hardest_weight", "id"), ("serate", "id"),
        ("short_pct", "id"), ("long_pct", "id"), ("singles_dependency_sd", "log1p"),
    ]:
        yield f"+ {name}", add(Term(name, metric(name), tr)), {}
    yield "+ singles_dependency ungated", add(Term("sd", metric("singles_dependency"), "log1p")), {}
    yield "+ singles_naked_reach as a share", add(Term("nr", metric("singles_naked_reach"))), {}
    for t in SHIPPED:
        yield f"- {t.name}", drop(t.name), {}
    yield "without the score", SHIPPED, {"score": False}
    yield "least squares", SHIPPED, {"loss": "ls"}
    for h in (0.05, 0.1, 0.3):
        yield f"Huber, knee {h}", SHIPPED, {"loss": "huber", "huber": h}
    for r in (0.001, 0.01):
        yield f"LAD with ridge {r}", SHIPPED, {"ridge": r}
    for at in (3, 4, 5):
        yield f"+ a hinge in the score at {at}", SHIPPED, {"extra": hinge(at)}
    yield "+ score x each term", SHIPPED, {"extra": score_interactions}
    yield "the score and each term as ranks", SHIPPED, {"extra": as_ranks}
    for i, t in enumerate(SHIPPED):
        if t.transform != "whole":
            yield f"+ the square of {t.name}", SHIPPED, {"extra": square(i + 1)}
    for at in (-1, 0, 1):
        yield f"+ a hinge in singles_dependency at z = {at}", SHIPPED, {"extra": hinge(at, 1)}
    for p in (0.5, 1.0):
        yield f"rows weighted by players^{p}", SHIPPED, {"weight": p}


def paired(rows, terms, seeds):
    """The Spearman gain of `terms` over the shipped terms, split by split."""
    gains = [cross_validate(rows, terms, s)[0] - cross_validate(rows, SHIPPED, s)[0] for s in seeds]
    return f"{np.mean(gains):+.3f} (from {min(gains):+.3f} to {max(gains):+.3f})"


def main():
    rows = load(sys.argv[1], sys.argv[2])
    y = [r["_ln"] for r in rows]
    print(f"score, in sample: Spearman {spearman([r['score'] for r in rows], y):.3f}")
    print("| idea | Spearman (seeds' range) | median abs ln error | sd of the folds |")
    print("|---|---:|---:|---:|")
    for name, terms, kw in ideas():
        runs = [cross_validate(rows, terms, seed, **kw) for seed in range(1, 6)]
        rho = [r[0] for r in runs]
        err = np.mean([r[1] for r in runs])
        folds = np.std([f for r in runs for f in r[2]])
        print(f"| {name} | {np.mean(rho):.3f} ({min(rho):.3f}-{max(rho):.3f}) | {err:.3f} | {folds:.3f} |", flush=True)
    best = [t for t in SHIPPED if t.name not in ("singles_naked_reach", "singles_box_reach")]
    best.append(Term("box steps", uses("hidden single (box)")))
    print("hidden box steps, - naked reach, - box reach, on the splits of seeds 6-25:", paired(rows, best, range(6, 26)))


if __name__ == "__main__":
    main()
