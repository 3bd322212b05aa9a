"""The single-puzzle API: parsing, errors, encodings, relaxation, ratings,
score, generation, canonical form and the notebook figures, with the values
the library's own doc tests and the papers give."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

import sudolab
from conftest import jsonl, run_cli

WIKI = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"


def test_parse_accepts_a_line_a_list_and_a_numpy_array():
    p = sudolab.parse(WIKI)
    assert (p.side, p.givens, p.line) == (9, 30, WIKI)
    assert p.cells[0, 0] == 5 and p.cells[8, 8] == 9 and p.cells[0, 2] == 0
    assert sudolab.parse(p.cells).line == WIKI
    assert sudolab.parse(p.cells.tolist()).line == WIKI
    assert sudolab.parse([int(v) for v in p.cells.ravel()]).line == WIKI
    assert sudolab.parse(p.cells.astype(float)).line == WIKI
    assert sudolab.parse(WIKI + "  wikipedia").label == "wikipedia"


@pytest.mark.parametrize(
    "bad, says",
    [
        (WIKI[:80], "80"),
        (WIKI[:40] + "x" + WIKI[41:], "'x'"),
        ([0] * 80, "80 cells"),
        ([10] + [0] * 80, "value 10"),
        ([-1] + [0] * 80, "value -1"),
        (np.full((9, 9), 0.5), "integers"),
    ],
)
def test_a_bad_puzzle_raises_value_error_naming_the_fault(bad, says):
    with pytest.raises(ValueError, match=None) as e:
        sudolab.parse(bad)
    assert says in str(e.value)


def test_encode_gives_the_paper_clause_counts_and_the_cli_text(cli):
    # Maximal encoding: 729 variables, 11988 clauses plus one unit per given.
    text = sudolab.encode(WIKI, "max")
    header = next(l for l in text.splitlines() if l.startswith("p cnf"))
    assert header.split() == ["p", "cnf", "729", str(11988 + 30)]
    for enc in ("min", "max"):
        assert sudolab.encode(WIKI, enc) == run_cli(cli, ["encode", "-e", enc], stdin=WIKI + "\n")
    with pytest.raises(ValueError, match="nope"):
        sudolab.encode(WIKI, "nope")


def test_clauses_equal_the_cli_row(cli):
    c = sudolab.clauses(WIKI, "min")
    (row,) = jsonl(run_cli(cli, ["clauses", "--format", "jsonl"], stdin=WIKI + "\n"))
    flat = dict(row)
    flat.update(flat.pop("counts", {}))
    assert dict(c) == flat
    assert sum(c.alo_lengths) > 0 and abs(c.short_pct + c.medium_pct + c.long_pct - 100) < 1e-9
    assert "<svg" in c._repr_svg_()


def test_relax_fixedness_map_and_figures():
    r = sudolab.relax(WIKI, k=45, samples=20, seed=1, with_samples=True)
    assert r.samples == 20 and r.k == 45 and len(r.sample_rows) == 20
    m = r.fixedness_map
    assert m.shape == (9, 9)
    # A given is fixed in every sample; the summary is the mean of the samples.
    assert m[0, 0] == 1.0 and m[8, 8] == 1.0
    assert set(range(81)) >= set(r.fixed_cells) >= {i for i, ch in enumerate(WIKI) if ch != "."}
    assert r.mean_solutions == pytest.approx(np.mean([s["solutions"] for s in r.sample_rows]))
    html = r._repr_html_()
    assert html.count("<svg") == 2  # heatmap + clause histogram
    assert sudolab._native.fixedness_svg(WIKI, r.fixedness) in html
    with pytest.raises(ValueError):
        sudolab.relax(WIKI, k=100000, samples=5)
    with pytest.raises(ValueError, match="samples"):
        sudolab.relax(WIKI, samples=0)


def test_relax_to_a_precision_carries_its_intervals():
    r = sudolab.relax(WIKI, k=45, samples=1000, seed=1, precision=2)
    assert r.precision == 2.0
    assert 30 <= r.samples <= 1000 and (r.samples - 30) % 10 == 0
    assert (r.mean_fixed_high - r.mean_fixed_low) / 2 <= 2.0
    assert r.p_unique_low <= r.p_unique <= r.p_unique_high
    # The same samples as a fixed run of that many.
    fixed = dict(sudolab.relax(WIKI, k=45, samples=r.samples, seed=1))
    ours = dict(r)
    ours.pop("precision")
    # Reached: the run stopped on its stopping rule, not at the samples cap.
    assert ours.pop("precision_reached") is True
    assert "precision_reached" not in fixed
    assert ours == fixed
    with pytest.raises(ValueError, match="precision"):
        sudolab.relax(WIKI, precision=0)


def test_relax_stops_once_its_samples_show_saturation():
    monster = "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1"
    r = sudolab.relax(monster, k=45, samples=100, seed=1)
    # Every one of the first 30 samples shows nothing: the run stops there.
    assert r.samples == 30 and r["stopped_saturated"] is True and r.saw_nothing
    every = sudolab.relax(monster, k=45, samples=100, seed=1, all_samples=True)
    assert every.samples == 100 and "stopped_saturated" not in every


def test_analyze_batch_counts_and_warns_about_rows_that_saw_nothing():
    escargot = "1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3.."
    with pytest.warns(sudolab.SaturationWarning, match="1 of 2 relaxed puzzles"):
        frame = sudolab.analyze_batch([escargot, WIKI], metrics="relax", samples=40)
    assert frame.attrs["saw_nothing"] == 1
    assert list(frame["saw_nothing"]) == [True, False]


def test_rate_and_score_follow_the_library_doc_example():
    row = sudolab.rate(WIKI, models="weights,baseline")
    assert "single" in row["hardest_technique"]
    s = sudolab.score(WIKI)
    assert s.score_level == "Easy"
    assert s.minutes_low <= s.minutes <= s.minutes_high
    # Singles solve it: SE's rating 1.2 (hidden singles in boxes) is its
    # SE-equivalent, and no assumption is needed.
    assert (s.se_equivalent, s.se_by, s.trial_depth) == (1.2, "serate", 0)
    assert sudolab.score(WIKI, serate_budget=0).se_by == "serate"
    assert sudolab.rate(WIKI, models="serate", serate_budget=0)["serate"] == 1.2


def test_analyze_single_has_its_figures():
    a = sudolab.analyze(WIKI, samples=20)
    assert a.puzzle == WIKI and len(a.fixedness) == 81
    assert a._repr_html_().count("<svg") == 2


def test_generate_and_canon_equal_the_cli(cli):
    frame = sudolab.generate(count=3, seed=7)
    rows = jsonl(run_cli(cli, ["generate", "-n", "3", "--seed", "7", "--format", "jsonl"]))
    assert frame["puzzle"].tolist() == [r["puzzle"] for r in rows]
    assert (frame["givens"] == [r["givens"] for r in rows]).all()
    for p in frame["puzzle"]:
        assert sudolab.canon(p) == run_cli(cli, ["canon"], stdin=p + "\n").strip()
    # Equivalent puzzles share a canonical form: the transpose.
    transposed = "".join(WIKI[c * 9 + r] for r in range(9) for c in range(9))
    assert sudolab.canon(transposed) == sudolab.canon(WIKI)


def test_engine_disagreement_is_a_runtime_error_carrying_its_case():
    case = {"what": "count", "puzzle": WIKI, "answers": [["sat", "1"], ["dlx", "2"]], "line": 3}
    e = sudolab.EngineDisagreement("engines disagree", case)
    assert isinstance(e, RuntimeError) and e.case == case
    # The extension's class (create_exception!), the one native calls raise.
    assert sudolab.EngineDisagreement is sudolab._native.EngineDisagreement
    assert e.message == "engines disagree"
    # It survives pickling, as Dask sends it from a worker to the client.
    back = pickle.loads(pickle.dumps(e))
    assert back.case == case and str(back) == "engines disagree"


def test_rows_cross_as_python_objects_not_json_text():
    (row,) = sudolab._native.rate([WIKI], "weights")
    assert isinstance(row, dict) and isinstance(row["status"], dict)
    relax_row, samples = sudolab._native.relax_report(WIKI, samples=3, with_samples=True)
    assert isinstance(relax_row, dict) and isinstance(relax_row["fixedness"], list)
    assert len(samples) == 3 and all(isinstance(e, list) for s in samples for e in s["removed"])
    (analysis,) = sudolab._native.analyze([WIKI], metrics="clauses,relax", samples=3)
    assert analysis["params"] == {
        "metrics": "clauses,relax", "seed": 1, "k": 45, "samples": 3, "cap": 1000, "fixedness": False, "dedup": False
    }


def test_defaults_are_the_library_ones():
    # Stated once, in the library's options; the CLI has the same.
    r = sudolab.relax(WIKI, samples=4)
    assert (r.k, r.seed, r.cap, r.engine) == (45, 1, 1000, "bitset")
    a = sudolab.analyze(WIKI, samples=4)
    assert a.params == {
        "metrics": "clauses,relax,score", "seed": 1, "k": 45, "samples": 4, "cap": 1000, "fixedness": True, "dedup": False
    }
    assert sudolab.analyze_batch([WIKI], metrics="clauses")["params"][0]["seed"] == 1


ESCARGOT = "1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3.."


def test_k_auto_relaxes_at_the_onset_everywhere(cli):
    """``k="auto"`` (once a TypeError) is the CLI's ``--k auto``:
    the library resolves it per puzzle, the row's ``k`` holds the onset."""
    r = sudolab.relax(ESCARGOT, k="auto", samples=30)
    assert r.k == r.relaxation_onset_k
    assert 5 <= r.k < 45
    (row,) = jsonl(run_cli(cli, ["relax", "--k", "auto", "--samples", "30", "-f", "jsonl"], stdin=ESCARGOT + "\n"))
    assert row["k"] == r.k and row["mean_fixed"] == r.mean_fixed
    a = sudolab.analyze(ESCARGOT, metrics="relax", k="auto", samples=30)
    assert a["k"] == r.k and a["params"]["k"] == "auto"
    frame = sudolab.analyze_batch([ESCARGOT, WIKI], metrics="relax", k="auto", samples=30)
    assert list(frame["k"] == frame["relaxation_onset_k"]) == [True, True]
    assert frame["k"][0] == r.k
    assert sudolab.analyze_options(k="auto")["k"] == "auto"
    assert sudolab.analyze_options(k=30)["k"] == 30
    with pytest.raises(ValueError, match="expected a number of edges or auto"):
        sudolab.relax(ESCARGOT, k="many", samples=5)
    with pytest.raises(TypeError):
        sudolab.relax(ESCARGOT, k=4.5, samples=5)


def test_score_batch_keep_going_keeps_the_other_rows():
    several = "." * 81
    with pytest.raises(ValueError):
        sudolab.score_batch([WIKI, several])
    frame = sudolab.score_batch([WIKI, several, "12345", ESCARGOT], fast=True, keep_going=True)
    assert list(frame["line"]) == [1, 2, 3, 4]
    assert frame["score"].notna().tolist() == [True, False, False, True]
    assert frame["error"].isna().tolist() == [True, False, False, True]
    assert "solution" in frame["error"][1]
    assert frame["puzzle"][2] == "12345"
    alone = sudolab.score_batch([WIKI, ESCARGOT], fast=True)
    assert frame["score"][0] == alone["score"][0] and frame["score"][3] == alone["score"][1]


def test_the_analyze_parameters_are_declared_once():
    """The analyze parameters are one table of the extension
    (``ANALYZE_PARAMETERS``, beside the library's ``AnalyzeOptions``): every
    Python entry point lists exactly those, keyword only, with their types
    and defaults, says what each means, refuses any other name, and
    ``analyze_options`` fills them with the table's defaults."""
    import inspect

    sd = pytest.importorskip("sudolab.dask")
    table = sudolab.ANALYZE_PARAMETERS
    names = [p.name for p in table]
    assert names == ["metrics", "k", "samples", "seed", "cap", "fixedness", "precision"]
    assert [p.annotation for p in table] == [
        "Optional[str]", "Optional[Union[int, str]]", "Optional[int]", "Optional[int]",
        "Optional[int]", "Optional[bool]", "Optional[float]",
    ]
    assert sudolab.analyze_options() == {p.name: p.default for p in table}
    assert all(p.doc.endswith(".") and len(p.doc) > 20 for p in table)

    entry_points = [
        (sudolab.analyze_options, []),
        (sudolab.analyze, ["puzzle"]),
        (sudolab.analyze_batch, ["puzzles", "lines"]),
        (sd.analyze, ["collection", "column"]),
        (sd.analyze_to_parquet, ["collection", "path", "column"]),
    ]
    for f, own in entry_points:
        params = inspect.signature(f).parameters
        assert list(params) == own + names, f.__name__
        for p in table:
            assert params[p.name].kind is inspect.Parameter.KEYWORD_ONLY
            if not (f is sudolab.analyze and p.name == "fixedness"):
                assert (params[p.name].annotation, params[p.name].default) == (p.annotation, None), f.__name__
        assert "    samples : int, default 200\n        Relaxation: samples per puzzle" in f.__doc__, f.__name__
    fixedness = inspect.signature(sudolab.analyze).parameters["fixedness"]
    assert (fixedness.annotation, fixedness.default) == ("bool", True)
    assert "fixedness : bool, default True" in sudolab.analyze.__doc__

    unknown = "^unknown analyze parameter 'sample': expected one of metrics, k, samples, seed, cap, fixedness, precision$"
    with pytest.raises(TypeError, match=unknown):
        sudolab.analyze_batch([WIKI], sample=3)
    with pytest.raises(TypeError, match=unknown):
        sudolab._native.analyze([WIKI], sample=3)
    import dask.bag as db

    with pytest.raises(TypeError, match=unknown):
        sd.analyze(db.from_sequence([WIKI], npartitions=1), sample=3)
    with pytest.raises(TypeError, match="^samples must be an integer, not float"):
        sudolab.analyze(WIKI, samples=2.5)
    with pytest.raises(TypeError, match="^fixedness: 'int' object cannot be converted"):
        sudolab._native.analyze_options(fixedness=1)


def test_the_stubs_are_generated_from_the_table(tmp_path):
    """The stubs' analyze parameters are ``python/gen_stubs.py``'s output
    from ``ANALYZE_PARAMETERS``: the committed file passes ``--check``, and
    one with a parameter missing fails it with a diff naming the line."""
    import pathlib
    import subprocess
    import sys

    script = pathlib.Path(__file__).resolve().parents[1] / "gen_stubs.py"
    stubs = script.with_name("sudolab") / "_native.pyi"
    ok = subprocess.run([sys.executable, str(script), "--check"], capture_output=True, text=True)
    assert ok.returncode == 0, ok.stdout + ok.stderr
    text = stubs.read_text()
    cap = '    cap: Optional[int]\n    """Relaxation: solution cap. Default 1000."""\n'
    assert text.count(cap) == 1 and "**options: Unpack[AnalyzeParameters]" in text
    stale = tmp_path / "_native.pyi"
    stale.write_text(text.replace(cap, ""))
    bad = subprocess.run([sys.executable, str(script), "--check", "--stubs", str(stale)], capture_output=True, text=True)
    assert bad.returncode == 1
    assert "+    cap: Optional[int]" in bad.stdout and "run python python/gen_stubs.py" in bad.stderr


def _sukaku_grid():
    """A pencilmark grid of the Sukaku Explainer fixture and its ER, EP, ED."""
    import pathlib

    fixture = pathlib.Path(__file__).parents[2] / "tests" / "fixtures" / "sukaku_pencilmarks.txt"
    for text in fixture.read_text().splitlines():
        if not text.startswith("#") and " 7." in text:
            grid, *ratings = text.split()
            return grid, tuple(float(r) for r in ratings)
    raise AssertionError("the fixture holds a grid rated 7.x")


def test_pencilmark_grids_are_encoded_rated_and_relaxed():
    grid, ratings = _sukaku_grid()
    p = sudolab.parse(grid)
    assert (p.line, p.side) == (grid, 9)
    assert f"c puzzle {grid}" in sudolab.encode(grid)
    row = sudolab.rate(grid, models="serate")
    assert (row["serate"], row["serate_ep"], row["serate_ed"]) == ratings
    # Relaxation colours each cell from its candidates (docs/methods.md §2.2),
    # as `sudolab relax` does, on the same samples.
    r = sudolab.relax(grid, samples=30, engine="all")
    assert r["puzzle"] == grid and r["verified"] == 30
    assert 0 < r["mean_fixed"] <= 81 - 27
    # A model defined on givens says so in the row's status; the others rate.
    row = sudolab.rate(grid, models="sisus,trial")
    assert row["sisus_refutation_sum"] is not None and row["trial_depth"] is None
    assert row["status"] == {"trial": "defined on givens: not run on a pencilmark grid"}
    with pytest.raises(ValueError, match="pencilmark grid"):
        sudolab.canon(grid)


def test_pencilmark_relaxation_matches_the_cli(cli):
    grid, _ = _sukaku_grid()
    ours = sudolab.relax(grid, samples=30)
    (theirs,) = jsonl(run_cli(cli, ["relax", "--samples", "30", "-f", "jsonl"], grid + "\n"))
    for key in ("mean_fixed", "p_unique", "mean_solutions", "fixedness"):
        assert ours[key] == theirs[key], key
