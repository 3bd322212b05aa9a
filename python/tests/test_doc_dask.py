"""The Dask example of ``docs/python.md`` run as a script, as a reader would
save and run it: it must start its cluster under its
``__main__`` guard, split the input so that both workers get partitions, and
compute the rows once."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from conftest import REPO

if not os.environ.get("CI"):
    pytest.importorskip("distributed")

EASY = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"


def dask_example() -> str:
    """The first Python block after the "## Dask" heading of the docs."""
    text = (REPO / "docs" / "python.md").read_text()
    dask = text[text.index("\n## Dask\n"):]
    match = re.search(r"```python\n(.*?)```", dask, re.S)
    assert match, "no Python example under ## Dask"
    return match.group(1)


def test_the_dask_example_runs_as_a_script(tmp_path):
    example = dask_example()
    assert 'if __name__ == "__main__":' in example
    assert "analyze_to_parquet(" not in example, "the example would compute every row twice"
    # 60 puzzles: the example's partitions of about 20 make 3 of them.
    (tmp_path / "puzzles.txt").write_text(f"{EASY}\n" * 60)
    script = tmp_path / "example.py"
    script.write_text(example.replace("samples=200", "samples=20"))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    out = subprocess.run(
        [sys.executable, str(script)], cwd=tmp_path, capture_output=True, text=True, timeout=600, env=env
    )
    assert out.returncode == 0, out.stderr
    partitions = int(re.search(r"(\d+) partitions", out.stdout).group(1))
    assert partitions >= 2, out.stdout
    assert "60 rows" in out.stdout, out.stdout
    rows = (tmp_path / "out.jsonl").read_text().splitlines()
    assert len(rows) == 60, rows[:3]
