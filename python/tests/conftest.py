"""Fixtures of the sudolab pytest suite: the CLI to compare against and the
shared data sets (``../shared/data`` beside the repository, or
``SUDOLAB_DATA``). Missing data skips a test with a note, and fails it when
the environment variable ``CI`` is set (as the Rust tests do)."""

from __future__ import annotations

import json
import os
import subprocess
import tempfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def required() -> bool:
    return bool(os.environ.get("CI"))


def missing(what: str, how: str):
    if required():
        pytest.fail(f"{what} is missing and CI is set: {how}")
    pytest.skip(f"{what} is missing ({how})")


@pytest.fixture(scope="session")
def cli() -> Path:
    """The ``sudolab`` binary: ``SUDOLAB_BIN``, else built by ``cargo build --release``."""
    given = os.environ.get("SUDOLAB_BIN")
    if given:
        return Path(given)
    target = Path(os.environ.get("CARGO_TARGET_DIR", REPO / "target"))
    subprocess.run(["cargo", "build", "--release", "--quiet", "--bin", "sudolab"], cwd=REPO, check=True)
    return target / "release" / "sudolab"


def run_cli(cli: Path, args: list, stdin: str | None = None) -> str:
    """Runs ``sudolab ARGS`` (with ``stdin``: on a file holding that text,
    given right after the subcommand) and returns its output."""
    args = [str(a) for a in args]
    with tempfile.TemporaryDirectory() as tmp:
        if stdin is not None:
            path = Path(tmp) / "input.txt"
            path.write_text(stdin)
            args.insert(1, str(path))
        out = subprocess.run([str(cli), *args], capture_output=True, text=True, cwd=REPO)
    assert out.returncode == 0, f"sudolab {' '.join(args)}: exit {out.returncode}: {out.stderr}"
    return out.stdout


def jsonl(text: str) -> list:
    return [json.loads(line) for line in text.splitlines() if line.strip()]


@pytest.fixture(scope="session")
def radcliffe200(tmp_path_factory) -> tuple:
    """The first 200 puzzles of radcliffe-kaggle-5k (a solver-rated set,
    PROVENANCE.md), as a list of lines and a file of them."""
    data = Path(os.environ.get("SUDOLAB_DATA", REPO.parent / "shared" / "data"))
    tsv = data / "radcliffe-kaggle-5k" / "radcliffe_5k.tsv"
    if not tsv.exists():
        missing(str(tsv), "the shared data sets sit beside the repository as ../shared/data")
    puzzles = [l.split("\t")[0] for l in tsv.read_text().splitlines()[1:201]]
    assert len(puzzles) == 200
    path = tmp_path_factory.mktemp("data") / "radcliffe200.txt"
    path.write_text("\n".join(puzzles) + "\n")
    return puzzles, path
