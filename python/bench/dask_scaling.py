"""Throughput of ``sudolab.dask.analyze`` against the number of worker processes.

    python python/bench/dask_scaling.py [N_PUZZLES] [MAX_WORKERS]

Analyses the first N_PUZZLES (default 100) puzzles of
../shared/data/radcliffe-kaggle-5k with the CLI's default metrics
(clauses,relax,score; 200 samples, seed 1) in 10 partitions on a LocalCluster
of 1..MAX_WORKERS processes (one thread each; inside a partition the extension
uses every core through rayon), and prints puzzles per second of wall time and
the workers' CPU seconds per puzzle.
"""

from __future__ import annotations

import resource
import sys
import time
from pathlib import Path

import dask.bag as db
from distributed import Client, LocalCluster

import sudolab.dask as sd

REPO = Path(__file__).resolve().parents[2]


def worker_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    most = int(sys.argv[2]) if len(sys.argv) > 2 else 2
    tsv = REPO.parent / "shared/data/radcliffe-kaggle-5k/radcliffe_5k.tsv"
    puzzles = [l.split("\t")[0] for l in tsv.read_text().splitlines()[1 : n + 1]]
    for workers in range(1, most + 1):
        with LocalCluster(n_workers=workers, threads_per_worker=1, dashboard_address=None) as cluster, Client(cluster) as client:
            before = sum(client.run(worker_cpu).values())
            start = time.perf_counter()
            frame = sd.analyze(db.from_sequence(puzzles, npartitions=10))
            wall = time.perf_counter() - start
            cpu = sum(client.run(worker_cpu).values()) - before
            assert len(frame) == n
            print(f"{workers} worker(s): {n / wall:.2f} puzzles/s wall, {cpu / n:.3f} s CPU per puzzle")


if __name__ == "__main__":
    main()
