"""Python equals the CLI on 200 puzzles of ../shared/data: ``relax``,
``rate``, ``score`` and ``analyze`` rows for the same seeds, field by field."""

from __future__ import annotations

import json

import pandas as pd
import pytest

import sudolab
from conftest import jsonl, run_cli


def test_relax_equals_the_cli(cli, radcliffe200):
    puzzles, path = radcliffe200
    args = ["--k", "45", "--samples", "40", "--seed", "5"]
    rows = jsonl(run_cli(cli, ["relax", str(path), *args, "--format", "jsonl"]))
    assert len(rows) == 200
    for p, row in zip(puzzles, rows):
        ours = dict(sudolab.relax(p, k=45, samples=40, seed=5))
        row.pop("line")
        assert ours == row


def test_rate_equals_the_cli(cli, radcliffe200):
    puzzles, path = radcliffe200
    rows = jsonl(run_cli(cli, ["rate", str(path), "--seed", "3", "--format", "jsonl"]))
    frame = sudolab.rate_batch(puzzles, seed=3)
    assert frame.to_dict("records") == pd.DataFrame.from_records(rows).to_dict("records")
    assert list(frame.columns) == list(rows[0].keys()) or set(frame.columns) >= set(rows[0])


def test_score_equals_the_cli(cli, radcliffe200):
    puzzles, path = radcliffe200
    rows = jsonl(run_cli(cli, ["score", str(path), "--format", "jsonl"]))
    frame = sudolab.score_batch(pd.Series(puzzles))
    assert frame.to_dict("records") == pd.DataFrame.from_records(rows).to_dict("records")
    # A single score is the batch's row without its line.
    first = dict(rows[0])
    first.pop("line")
    assert dict(sudolab.score(puzzles[0])) == {k: v for k, v in first.items()}


def test_analyze_equals_the_cli(cli, radcliffe200):
    puzzles, path = radcliffe200
    args = ["--metrics", "clauses,relax,rate:weights,nishio,score", "--samples", "30", "--seed", "9"]
    rows = jsonl(run_cli(cli, ["analyze", str(path), *args, "--format", "jsonl"]))
    # Like the CLI's note on stderr: 10 of the 200 saw nothing at k = 45.
    with pytest.warns(sudolab.SaturationWarning, match="10 of 200 relaxed puzzles"):
        frame = sudolab.analyze_batch(puzzles, metrics="clauses,relax,rate:weights,nishio,score", samples=30, seed=9)
    assert frame.attrs["saw_nothing"] == 10
    expected = pd.DataFrame.from_records(rows)
    assert list(frame.columns) == list(expected.columns)
    assert frame.to_dict("records") == expected.to_dict("records")
    assert frame["line"].tolist() == list(range(1, 201))


def test_analyze_to_a_precision_equals_the_cli(cli, radcliffe200):
    puzzles, path = radcliffe200
    few = puzzles[:20]
    args = ["analyze", "--metrics", "relax", "--precision", "1.5", "--seed", "3", "--format", "jsonl"]
    rows = jsonl(run_cli(cli, args, stdin="\n".join(few) + "\n"))
    frame = sudolab.analyze_batch(few, metrics="relax", precision=1.5, seed=3)
    assert frame.to_dict("records") == pd.DataFrame.from_records(rows).to_dict("records")
    assert all(r["params"]["precision"] == 1.5 for r in rows)
    assert any(r["samples"] < 200 for r in rows)


def test_a_bad_puzzle_in_a_batch_names_its_line(radcliffe200):
    puzzles, _ = radcliffe200
    with pytest.raises(ValueError, match="^line 3: "):
        sudolab.score_batch(puzzles[:2] + ["12345"] + puzzles[2:4])


def test_default_seeds_are_the_clis(cli, radcliffe200):
    """No seed given: Python rates as every command does by default."""
    puzzles, _ = radcliffe200
    assert sudolab.DEFAULT_SEED == 1
    few = puzzles[:5]
    args = ["rate", "-m", "oracle,hsolve", "--no-score", "--format", "jsonl"]
    rows = jsonl(run_cli(cli, args, stdin="\n".join(few) + "\n"))
    assert len(rows) == 5
    for p, row in zip(few, rows):
        ours = dict(sudolab.rate(p, models="oracle,hsolve", with_score=False))
        row.pop("line", None)
        assert {k: ours.get(k) for k in row} == row


def _labelled_rows() -> list:
    """Three sources ordering 60 rows each by a hidden difficulty that
    ``givens`` follows inversely and ``weights_score`` directly (the rows of
    the Rust test ``fit_writes_a_model_that_score_reads``)."""
    rows, state = [], 7
    for source in "abc":
        for i in range(60):
            state = (state * 6364136223846793005 + 1442695040888963407) % 2**64
            noise = (state >> 40) / 2**24
            h = i % 4 + noise
            rows.append({
                "label": f"{source} {i % 4 + 1} {1.5 + h:.1f} L{i % 4 + 1}",
                "givens": 36.0 - 3.0 * h,
                "weights_score": round(40.0 + 60.0 * h),
                "hardest_weight": round(1.0 + 4.0 * h),
            })
    return rows


def test_fit_score_equals_the_cli(cli, tmp_path):
    rows = _labelled_rows()
    path = tmp_path / "m.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    args = ["--score", "--label", "label:2", "--se", "label:3", "--level", "label:4",
            "--metrics", "givens,weights_score,hardest_weight", "--fast-metrics", "givens",
            "--bootstrap", "20"]
    model_path = tmp_path / "model.json"
    report = json.loads(run_cli(cli, ["fit", str(path), *args, "--model-out", model_path, "-f", "json"]))
    common = dict(source="label:1", label="label:2", se="label:3", level="label:4",
                  metrics=["givens", "weights_score", "hardest_weight"], fast_metrics=["givens"],
                  bootstrap=20)
    ours = sudolab.fit_score(path, **common)
    # Equal as JSON (Rust's pairs come to Python as tuples).
    assert json.loads(json.dumps(ours)) == report
    assert json.loads(json.dumps(ours["model"])) == json.loads(model_path.read_text())
    # A DataFrame of the same rows fits the same model.
    assert sudolab.fit_score(pd.DataFrame.from_records(rows), **common)["model"] == ours["model"]
    assert [v["source"] for v in ours["validation"]] == ["a", "b", "c"]


def test_fit_score_names_a_refused_choice():
    frame = pd.DataFrame.from_records(_labelled_rows())
    with pytest.raises(ValueError, match="timed_weight 0: must be a number from"):
        sudolab.fit_score(frame, se="label:3", timed="a", timed_weight=0.0)
    with pytest.raises(ValueError, match="keep hsolve: not among the metrics"):
        sudolab.fit_score(frame, se="label:3", metrics=["givens"], keep=["hsolve"])
    with pytest.raises(ValueError, match="speed"):
        sudolab.fit_score(frame, metrics=["speed"])
