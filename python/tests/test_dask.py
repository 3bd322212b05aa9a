"""``sudolab.dask`` on a LocalCluster of 2 worker processes: the gathered rows
equal ``sudolab analyze`` on the same input and seed, Parquet holds the same
rows, and a worker killed mid-run costs no row."""

from __future__ import annotations

import json
import os
import signal
import threading
import time

import pandas as pd
import pytest

import sudolab
from conftest import jsonl, run_cli

distributed = pytest.importorskip("distributed") if not os.environ.get("CI") else __import__("distributed")
import dask.bag as db  # noqa: E402
import dask.dataframe as dd  # noqa: E402

import sudolab.dask as sd  # noqa: E402

METRICS = "clauses,relax,score"
PARAMS = dict(metrics=METRICS, samples=30, seed=4)
CLI_ARGS = ["--metrics", METRICS, "--samples", "30", "--seed", "4", "--format", "jsonl"]


@pytest.fixture(scope="module")
def client():
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None)
    with distributed.Client(cluster) as c:
        yield c
    cluster.close()


@pytest.fixture(scope="module")
def expected(cli, radcliffe200):
    _, path = radcliffe200
    # A comment and a blank line: lines count as the CLI counts them.
    text = "# radcliffe, first 60\n\n" + "\n".join(path.read_text().splitlines()[:60]) + "\n"
    return text, pd.DataFrame.from_records(jsonl(run_cli(cli, ["analyze", *CLI_ARGS], stdin=text)))


def test_bag_of_lines_equals_the_cli(client, expected, tmp_path):
    text, rows = expected
    path = tmp_path / "p.txt"
    path.write_text(text)
    got = sd.analyze(sd.read_puzzles(str(path), blocksize=1500), **PARAMS)
    assert sd.read_puzzles(str(path), blocksize=1500).npartitions > 2
    assert got["line"].tolist() == list(range(3, 63))
    assert got.to_dict("records") == rows.to_dict("records")


def test_dataframe_column_and_parquet_equal_the_cli(client, expected, tmp_path):
    text, rows = expected
    puzzles = [l for l in text.splitlines() if l and not l.startswith("#")]
    ddf = dd.from_pandas(pd.DataFrame({"puzzle": puzzles}), npartitions=4)
    got = sd.analyze(ddf, **PARAMS)
    want = rows.assign(line=range(1, 61))
    assert got.to_dict("records") == want.to_dict("records")
    written = sd.analyze_to_parquet(ddf, str(tmp_path / "out"), **PARAMS)
    assert written == 60
    back = pd.read_parquet(tmp_path / "out").sort_values("line", ignore_index=True)
    assert back["puzzle"].tolist() == puzzles
    assert back["score"].tolist() == want["score"].tolist()
    assert [json.loads(p) for p in back["params"]] == want["params"].tolist()
    assert [list(x) for x in back["alo_lengths"]] == want["alo_lengths"].tolist()


def test_a_worker_killed_mid_run_loses_no_row(client, expected):
    text, rows = expected
    lines = text.splitlines()
    bag = db.from_sequence(lines, npartitions=20)
    pids = client.run(os.getpid)
    result = {}

    def run():
        result["frame"] = sd.analyze(bag, **PARAMS)

    worker = threading.Thread(target=run)
    worker.start()
    # Kill a worker once it is busy with a partition; its nanny starts a new
    # one and the scheduler reruns the lost partitions.
    victim = None
    deadline = time.monotonic() + 120
    while victim is None and time.monotonic() < deadline and worker.is_alive():
        busy = [w for w, tasks in client.processing().items() if tasks]
        if busy:
            victim = busy[0]
        else:
            time.sleep(0.05)
    assert victim is not None, "no worker ever got a partition"
    os.kill(pids[victim], signal.SIGKILL)
    worker.join(300)
    assert not worker.is_alive()
    assert pids[victim] not in client.run(os.getpid).values()
    got = result["frame"]
    assert got.to_dict("records") == rows.to_dict("records")
