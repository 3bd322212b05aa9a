#!/usr/bin/env python3
"""Draws the small samples of public data sets shipped in examples/data/ from
the shared data (../shared/data, or SUDOLAB_DATA), with a fixed seed:

    python3 examples/data/make_samples.py

Only sets whose licence allows copying are sampled (see README.md here);
the validation halves are never read.
"""
import os
import random

ROOT = os.path.dirname(os.path.abspath(__file__))
DATA = os.environ.get("SUDOLAB_DATA", os.path.join(ROOT, "..", "..", "..", "shared", "data"))


def rows(path):
    with open(os.path.join(DATA, path), encoding="utf-8") as f:
        lines = [l.rstrip("\n") for l in f if l.strip()]
    return lines[0], lines[1:]


def stratified(path, column, per, out, keep):
    """`per` rows of every value of `column` (a function of the fields), in input order."""
    header, body = rows(path)
    rng = random.Random(1)
    groups = {}
    for line in body:
        groups.setdefault(column(line.split("\t")), []).append(line)
    chosen = set()
    for key in sorted(groups):
        g = groups[key]
        chosen.update(rng.sample(g, min(per, len(g))))
    picked = [l for l in body if l in chosen]
    with open(os.path.join(ROOT, out), "w", encoding="utf-8") as f:
        f.write("\t".join(header.split("\t")[i] for i in keep) + "\n")
        for line in picked:
            fields = line.split("\t")
            f.write("\t".join(fields[i] for i in keep) + "\n")
    print(f"{out}: {len(picked)} puzzles")


stratified("qqwing-generated/qqwing_levels.tsv", lambda f: f[2], 20, "qqwing-levels.tsv", [0, 1, 2])
stratified("se-sudokuexchange/diabolical_se.tsv", lambda f: int(float(f[1])), 20, "se-exchange.tsv", [0, 1])
stratified("radcliffe-kaggle-5k/radcliffe_5k.tsv", lambda f: f[3], 20, "radcliffe.tsv", [0, 1, 3])
stratified("human-cloudsudoku-train/cloudsudoku_train.tsv", lambda f: int(float(f[4])), 10, "cloudsudoku-times.tsv", [0, 2, 3, 4])
