"""CPU time of a batch score from Python against the CLI on the same puzzles.

    python python/bench/score_batch.py [N] [FILE]

Scores N puzzles (default 10000: the first column of FILE, default
../shared/data/radcliffe-kaggle-5k/radcliffe_5k.tsv, repeated up to N) with
``sudolab score --format jsonl`` and with ``sudolab.score_batch``, checks that
the rows are equal, and prints user+sys CPU seconds of each and their ratio
(CPU time, since wall time is disturbed by other work on the machine).
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

import pandas as pd

import sudolab

REPO = Path(__file__).resolve().parents[2]


def cpu(who: int) -> float:
    r = resource.getrusage(who)
    return r.ru_utime + r.ru_stime


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 10000
    source = Path(sys.argv[2]) if len(sys.argv) > 2 else REPO.parent / "shared/data/radcliffe-kaggle-5k/radcliffe_5k.tsv"
    lines = [l.split("\t")[0] for l in source.read_text().splitlines() if l and not l.startswith("#")]
    lines = [l for l in lines if len(l) == 81]
    # Repeat the set when it is shorter than N (the work per puzzle is the same).
    puzzles = (lines * (n // len(lines) + 1))[:n]
    binary = os.environ.get("SUDOLAB_BIN", str(Path(os.environ.get("CARGO_TARGET_DIR", REPO / "target")) / "release/sudolab"))
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        f.write("\n".join(puzzles) + "\n")
    before = cpu(resource.RUSAGE_CHILDREN)
    out = subprocess.run([binary, "score", f.name, "--format", "jsonl"], capture_output=True, text=True, check=True)
    cli_cpu = cpu(resource.RUSAGE_CHILDREN) - before
    before = cpu(resource.RUSAGE_SELF)
    frame = sudolab.score_batch(puzzles)
    py_cpu = cpu(resource.RUSAGE_SELF) - before
    os.unlink(f.name)
    expected = pd.DataFrame.from_records([json.loads(l) for l in out.stdout.splitlines()])
    assert frame.to_dict("records") == expected.to_dict("records"), "rows differ"
    print(f"{n} puzzles: CLI {cli_cpu:.1f} s CPU, Python {py_cpu:.1f} s CPU, ratio {py_cpu / cli_cpu:.3f}")


if __name__ == "__main__":
    main()
