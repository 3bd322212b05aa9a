"""From Python: parameters checked as the CLI checks its flags
(``ValueError`` naming the parameter, the CLI's ceilings from one
definition), Ctrl-C during a native call, one error-position convention,
and puzzles of the wrong type or shape refused."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import numpy as np
import pytest

import sudolab

WIKI = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"


def test_the_ceilings_are_the_cli_ones():
    assert (sudolab.MAX_SAMPLES, sudolab.MAX_RUNS, sudolab.MAX_GENERATED) == (100_000, 10_000, 1_000_000)


@pytest.mark.parametrize(
    "call, name",
    [
        (lambda: sudolab.relax(WIKI, samples=10**9), "samples"),
        (lambda: sudolab.relax(WIKI, samples=10**6), "samples"),
        (lambda: sudolab.relax(WIKI, samples=-1), "samples"),
        (lambda: sudolab.relax(WIKI, samples=0), "samples"),
        (lambda: sudolab.relax(WIKI, k=-1), "k"),
        (lambda: sudolab.relax(WIKI, k=10**30), "k"),
        (lambda: sudolab.relax(WIKI, seed=-1), "seed"),
        (lambda: sudolab.relax(WIKI, cap=2**64), "cap"),
        (lambda: sudolab.analyze_batch([WIKI], samples=10**6), "samples"),
        (lambda: sudolab.analyze_batch([WIKI], k=10**9), "k"),
        (lambda: sudolab.analyze(WIKI, seed=-1), "seed"),
        (lambda: sudolab.rate(WIKI, runs=10**5), "runs"),
        (lambda: sudolab.rate_batch([WIKI], seed=-5), "seed"),
        (lambda: sudolab.score(WIKI, scale=11), "scale"),
        (lambda: sudolab.generate(count=10**7), "count"),
    ],
)
def test_a_parameter_out_of_range_raises_value_error_naming_it(call, name):
    with pytest.raises(ValueError) as e:
        call()
    assert str(e.value).startswith(f"{name} "), str(e.value)


@pytest.mark.parametrize(
    "call, cli_args",
    [
        (lambda: sudolab.relax(WIKI, samples=10**9), ["relax", "-", "--samples", "1000000000"]),
        (lambda: sudolab.analyze_batch([WIKI], samples=10**9), ["analyze", "-", "--samples", "1000000000"]),
        (lambda: sudolab.score(WIKI, scale=1), ["score", "-", "--scale", "1"]),
        (lambda: sudolab.score_batch([WIKI], scale=11), ["score", "-", "--scale", "11"]),
        (lambda: sudolab.rate(WIKI, runs=10**9), ["rate", "-", "--runs", "1000000000"]),
        (lambda: sudolab.rate(WIKI, runs=0), ["rate", "-", "--runs", "0"]),
        (lambda: sudolab.relax(WIKI, samples=0), ["relax", "-", "--samples", "0"]),
        (lambda: sudolab.generate(count=10**9), ["generate", "--count", "1000000000"]),
        (lambda: sudolab.analyze_batch([WIKI], k=5000), ["analyze", "-", "--k", "5000"]),
    ],
)
def test_python_refuses_a_value_with_the_cli_message(cli, call, cli_args):
    # Both run the library options' check(): one message, word for word.
    out = subprocess.run([str(cli), *cli_args], input=WIKI + "\n", capture_output=True, text=True)
    assert out.returncode == 1, out.stderr
    with pytest.raises(ValueError) as e:
        call()
    assert out.stderr.strip() == f"sudolab: error: {e.value}"


def test_the_bar_messages_of_samples_and_scale():
    with pytest.raises(ValueError) as e:
        sudolab.relax(WIKI, samples=10**9)
    assert str(e.value) == "samples 1000000000: at most 100000 (the documented ceiling of samples)"
    with pytest.raises(ValueError) as e:
        sudolab.score(WIKI, scale=1)
    assert str(e.value) == "scale 1: expected 2 to 10"


def test_analyze_options_checks_and_fills_the_cli_defaults():
    assert sudolab.analyze_options() == dict(
        metrics="clauses,relax,score", k=45, samples=200, seed=1, cap=1000, fixedness=False, precision=None
    )
    assert sudolab.analyze_options(metrics="clauses", samples=7)["samples"] == 7
    with pytest.raises(ValueError, match=r"^samples 0: at least 1$"):
        sudolab.analyze_options(samples=0)
    with pytest.raises(ValueError, match="^samples 1000000: at most 100000"):
        sudolab.analyze_options(metrics="clauses", samples=10**6)
    with pytest.raises(ValueError, match="^k -1"):
        sudolab.analyze_options(k=-1)
    with pytest.raises(ValueError, match="^precision 0: expected a positive number of cells"):
        sudolab.analyze_options(precision=0)


def test_analyze_batch_refuses_a_k_beyond_the_graph_in_the_library_too():
    # Below the Python layer's generic bound, above the 9×9 graph's 810 edges.
    with pytest.raises(ValueError) as e:
        sudolab.analyze_batch([WIKI], k=5000)
    # The CLI's words (the library's check_k): `sudolab analyze --k 5000`.
    assert str(e.value) == "k 5000: exceeds the 810 edges of the 9×9 Sudoku graph (the grid of the puzzle on input line 1)"


def test_a_parameter_of_another_type_raises_type_error_naming_it():
    with pytest.raises(TypeError, match="samples"):
        sudolab.relax(WIKI, samples=2.5)
    with pytest.raises(TypeError, match="k must be an integer"):
        sudolab.relax(WIKI, k=True)


def test_errors_name_the_line_one_based_everywhere():
    bad = WIKI[:80]

    for call in (
        lambda: sudolab.score_batch([WIKI, bad]),
        lambda: sudolab.analyze_batch([WIKI, bad], metrics="clauses"),
        lambda: sudolab.rate_batch([WIKI, bad]),
    ):
        with pytest.raises(ValueError, match=r"^line 2: "):
            call()
    with pytest.raises(ValueError, match=r"^line 7: "):
        sudolab.score_batch([WIKI, bad], lines=[3, 7])
    several = "." * 81
    with pytest.raises(ValueError, match=r"^line 2: "):
        sudolab.score_batch([WIKI, several])
    with pytest.raises(ValueError, match=r"^line 1: "):
        sudolab.score(several)
    with pytest.raises(ValueError, match=r"^line 1: "):
        sudolab.relax(several)



def test_none_and_wrong_shapes_are_refused():
    with pytest.raises(TypeError, match="None"):
        sudolab.parse(None)
    with pytest.raises(TypeError, match="object"):
        sudolab.parse(object())
    for shape in [(3, 27), (9, 9, 1), (81, 1), (27, 3)]:
        with pytest.raises(ValueError, match="shape"):
            sudolab.parse(np.zeros(shape, dtype=int))
    assert sudolab.parse(np.zeros(81, dtype=int)).side == 9
    assert sudolab.parse(np.zeros((4, 4), dtype=int)).side == 4


def test_ctrl_c_interrupts_a_native_call():
    # The call would run for minutes; SIGINT once it has started must raise
    # KeyboardInterrupt from inside it (the guard below only ends a hang).
    code = textwrap.dedent(
        f"""
        import sys, sudolab
        print("started", flush=True)
        try:
            sudolab.relax({WIKI!r}, samples=sudolab.MAX_SAMPLES)
            print("finished")
        except KeyboardInterrupt:
            print("interrupted")
        """
    )
    child = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    assert child.stdout.readline().strip() == "started"
    import time

    time.sleep(0.5)
    child.send_signal(subprocess.signal.SIGINT)
    try:
        out, _ = child.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        child.kill()
        pytest.fail("the native call did not stop on SIGINT")
    assert out.strip() == "interrupted"


# A minimal 16×16 puzzle made by `sudolab generate --order 4 --seed 1`:
# Sudoku Explainer's chains on it run for minutes without a budget.
MINIMAL_16 = (
    "FE.D...97...C.2.......4.G9.B...5....G..A.....E1.B.8AEC..1....D....53...CFB2D4..A.A...."
    "....36.FB..FC.4.6....5......B9.8..E..75.C..57.1..............1C9...2...........A.4.6."
    ".2G5.DG.4F.7....C6.A8.D...5....F..A9....F....84A..7.......E1GB.C...F3..2.9..73.5....."
)


@pytest.mark.parametrize(
    "call",
    [
        # One sample whose exact count runs for minutes.
        f"sudolab.relax({WIKI!r}, k=200, cap=0, samples=1)",
        # One puzzle whose rating runs for minutes (serate's budget is off).
        f"sudolab.rate({MINIMAL_16!r}, models='serate', serate_budget=10**15)",
    ],
)
def test_ctrl_c_stops_one_long_computation_within_seconds(call):
    # SIGINT stops the engine inside its search (the library's cancel flag),
    # not only between samples or puzzles.
    code = textwrap.dedent(
        f"""
        import sudolab
        print("started", flush=True)
        try:
            {call}
            print("finished")
        except KeyboardInterrupt:
            print("interrupted")
        """
    )
    child = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    assert child.stdout.readline().strip() == "started"
    import time

    time.sleep(1.0)
    child.send_signal(subprocess.signal.SIGINT)
    try:
        out, _ = child.communicate(timeout=10)
    except subprocess.TimeoutExpired:
        child.kill()
        pytest.fail(f"{call}: still running 10 s after SIGINT")
    assert out.strip() == "interrupted"


def test_read_puzzles_spreads_a_few_hundred_puzzles_over_partitions(tmp_path):
    sd = pytest.importorskip("sudolab.dask")
    path = tmp_path / "p.txt"
    path.write_text((WIKI + "\n") * 400)
    # 400 puzzles: about 100 per partition by default (block ends round down).
    assert sd.read_puzzles(str(path)).npartitions >= 3


def test_dask_checks_through_the_public_api_before_scheduling():
    sd = pytest.importorskip("sudolab.dask")
    # No private helper of the package: the public analyze_options and analyze_batch.
    assert not any(name in vars(sd) for name in ("_native", "_frame", "_params"))
    import dask.bag as db

    bag = db.from_sequence([WIKI], npartitions=1)
    with pytest.raises(ValueError, match="^samples 1000000000: at most 100000"):
        sd.analyze(bag, samples=10**9)
