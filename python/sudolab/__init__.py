"""sudolab from Python: why is a Sudoku hard?

The functions follow the Rust library (``docs/python.md``): :func:`parse` a
puzzle, :func:`encode` it as DIMACS CNF, count its :func:`clauses`,
:func:`relax` it (Pelánek §3.2), :func:`rate` it with the human models,
:func:`score` it, :func:`generate` puzzles and take their :func:`canon`
form. The batch forms (:func:`analyze_batch`, :func:`score_batch`,
:func:`rate_batch`) take a sequence or a pandas Series, release the GIL, use
every core, and return a pandas DataFrame with the columns of the CLI's JSONL.
Every number comes from the library itself, serialised by the same row types
the CLI writes, so the same seeds give the same numbers as ``sudolab``.

A puzzle is a line (``"53..7....6..195...."``, ``0`` or ``.`` for a blank,
an optional label after whitespace), a list of cell values (flat or nested,
``0`` for a blank), a numpy array, or a :class:`Puzzle`. A bad puzzle raises
``ValueError`` naming what is wrong and the puzzle's line (the ``lines``
given to a batch, else its 1-based position: ``line 1`` for a single
puzzle, as the CLI numbers input lines); an engine disagreement (always a
bug) raises :class:`EngineDisagreement` with the reproducible case.

Count parameters are checked before any work, against the CLI's ceilings
(``samples`` at most ``MAX_SAMPLES`` = 100000, ``runs`` at most
``MAX_RUNS``, ``count`` at most ``MAX_GENERATED``): a value out of range
raises ``ValueError`` naming the parameter, a value that is not an integer
``TypeError``. Ctrl-C interrupts a native call within a fraction of a
second (``KeyboardInterrupt``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
import numbers
from typing import Any, Iterable, List, Optional, Sequence, Union

import numpy as np
import pandas as pd

from . import _native

__all__ = [
    "EngineDisagreement",
    "Puzzle",
    "Clauses",
    "Relaxation",
    "Analysis",
    "parse",
    "encode",
    "clauses",
    "relax",
    "rate",
    "score",
    "analyze",
    "generate",
    "canon",
    "analyze_batch",
    "score_batch",
    "rate_batch",
]


MAX_SAMPLES: int = _native.MAX_SAMPLES
MAX_RUNS: int = _native.MAX_RUNS
#: The default rating seed of every function and every ``sudolab`` command.
DEFAULT_SEED: int = _native.DEFAULT_SEED
MAX_GENERATED: int = _native.MAX_GENERATED
_U64 = 2**64 - 1
# Larger than any graph's edges (25×25: 21000); the library names the
# graph's own limit.
_MAX_K = 10**6


def _int(name: str, value: Any, low: int, high: int) -> int:
    """``value`` as an int in ``low..=high``, else an error naming ``name``."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an integer, not {type(value).__name__} ({value!r})")
    value = int(value)
    if not low <= value <= high:
        raise ValueError(f"{name}={value}: expected {low} to {high}")
    return value


def _opt_int(name: str, value: Any, low: int, high: int) -> Optional[int]:
    return None if value is None else _int(name, value, low, high)


class EngineDisagreement(RuntimeError):
    """Two engines gave different answers: a bug in sudolab, never a bad puzzle.

    ``case`` holds everything needed to reproduce it: ``what`` (the question
    with its parameters: removed edges, sample, seed), ``puzzle`` (one line),
    ``answers`` (``[engine, answer]`` pairs, the primary engine first) and
    ``line`` (the input line in a batch, else ``None``). The CLI exits 2 on the
    same case.
    """

    def __init__(self, message: str, case: Union[str, dict]):
        if isinstance(case, str):
            case = json.loads(case)
        super().__init__(message, case)
        self.message = message
        self.case = case

    def __str__(self) -> str:
        return self.message


PuzzleLike = Union[str, Sequence[int], Sequence[Sequence[int]], np.ndarray, "Puzzle"]


@dataclass(frozen=True)
class Puzzle:
    """A parsed puzzle: ``line`` (row-major, ``.`` for a blank), ``label``
    (text after the grid, if any), ``side`` (9 for 9×9) and ``cells`` (a
    ``side × side`` numpy array, 0 for a blank)."""

    line: str
    label: Optional[str]
    side: int
    cells: np.ndarray

    @property
    def givens(self) -> int:
        """Number of given cells."""
        return int(np.count_nonzero(self.cells))

    def __str__(self) -> str:
        return self.line if self.label is None else f"{self.line} {self.label}"


def _line(puzzle: PuzzleLike) -> str:
    """The puzzle as the line the library parses (label kept)."""
    if isinstance(puzzle, Puzzle):
        return str(puzzle)
    if isinstance(puzzle, str):
        return puzzle
    if puzzle is None:
        raise TypeError("puzzle is None: expected a puzzle line, cell values (flat or nested), a numpy array or a Puzzle")
    try:
        cells = np.asarray(puzzle)
    except ValueError as e:  # ragged nested lists
        raise ValueError(f"cell values do not form a grid: {e}") from None
    if cells.dtype.kind == "O":
        raise TypeError(f"cannot read a puzzle from {type(puzzle).__name__}: expected a puzzle line, cell values, a numpy array or a Puzzle")
    sides = (4, 9, 16, 25)
    if not (cells.ndim == 1 or (cells.ndim == 2 and cells.shape[0] == cells.shape[1] and cells.shape[0] in sides)):
        raise ValueError(
            f"cell values of shape {cells.shape}: expected a flat list of 16, 81, 256 or 625 cells "
            "or a square grid (4×4, 9×9, 16×16 or 25×25)"
        )
    if cells.dtype.kind not in "iu":
        if cells.dtype.kind == "f" and np.all(np.isfinite(cells)) and np.all(cells == np.round(cells)):
            cells = cells.astype(np.int64)
        else:
            raise ValueError(f"cell values must be integers (0 for a blank), not {cells.dtype}")
    return _native.line_from_cells([int(v) for v in cells.ravel()])


def _lines(puzzles: Union[Iterable[PuzzleLike], pd.Series]) -> List[str]:
    if isinstance(puzzles, (str, Puzzle)):
        raise TypeError("a batch takes a sequence of puzzles; give one puzzle to the single form")
    return [_line(p) for p in puzzles]


def parse(puzzle: PuzzleLike) -> Puzzle:
    """Parses a puzzle (line, list, nested list or numpy array).

    Raises ``ValueError`` naming what is wrong (the number of cells, a bad
    character and where, a value out of range).
    """
    line, label, side, cells = _native.parse_line(_line(puzzle))
    return Puzzle(line, label, side, np.array(list(cells), dtype=np.uint8).reshape(side, side))


def encode(puzzle: PuzzleLike, encoding: str = "min") -> str:
    """DIMACS CNF text of the puzzle in ``encoding`` (``min``, ``max`` or
    ``lo-min``, as ``sudolab encode --encoding``)."""
    return _native.encode(_line(puzzle), encoding)


class _Row(dict):
    """A result row: a dict of the CLI's JSON fields, readable as attributes."""

    def __getattr__(self, name: str) -> Any:
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name) from None


class Clauses(_Row):
    """The clause-length histogram of one encoding (``sudolab clauses``):
    ``variables``, ``clauses``, ``alo_lengths`` (ALO clauses by length, index
    = length), ``short_pct``, ``medium_pct``, ``long_pct`` (Patti §7.1)."""

    def _repr_svg_(self) -> str:
        return _native.clause_histogram_svg([(f"{self['encoding']} encoding", self["alo_lengths"])])


def clauses(puzzle: PuzzleLike, encoding: str = "min", cuts: Optional[str] = None) -> Clauses:
    """Clause counts and ALO length histogram of the puzzle's CNF
    (``cuts`` as ``sudolab clauses --cuts SHORT,MEDIUM``; default Patti's)."""
    row = json.loads(_native.clauses(_line(puzzle), encoding, cuts))
    counts = row.pop("counts", None)
    if counts is not None:
        row.update(counts)
    return Clauses(row)


def _histogram_series(line: str) -> list:
    series = []
    for enc in ("min", "max"):
        try:
            c = clauses(line, enc)
        except ValueError:
            continue
        series.append((f"{enc} encoding", c["alo_lengths"]))
    return series


def _figures_html(line: str, fixedness: Optional[Sequence[float]], caption: str) -> str:
    parts = [f"<div><p><code>{line}</code></p>"]
    if fixedness is not None:
        parts.append("<h4>Fixedness heatmap</h4>")
        parts.append(f"<p>{caption}</p>")
        parts.append(_native.fixedness_svg(line, list(fixedness)))
    series = _histogram_series(line)
    if series:
        parts.append("<h4>Clause-length histogram</h4>")
        parts.append(_native.clause_histogram_svg(series))
    parts.append("</div>")
    return "".join(parts)


class Relaxation(_Row):
    """One relaxation experiment (Pelánek §3.2), as a ``sudolab relax`` row:
    ``puzzle``, ``seed``, ``engine``, ``verified``, ``k``, ``samples``,
    ``cap``, ``mean_solutions``, ``median_solutions``, ``mean_extra``,
    ``p_unique``, ``mean_fixed`` (mean number of fixed non-given cells),
    ``capped`` and ``fixedness`` (share of samples in which each cell is
    fixed, row-major). :attr:`fixedness_map` is the same as a ``side × side``
    numpy array; :attr:`sample_rows` the samples when asked for."""

    sample_rows: Optional[list] = None

    @property
    def fixedness_map(self) -> np.ndarray:
        f = np.asarray(self["fixedness"], dtype=float)
        side = int(round(len(f) ** 0.5))
        return f.reshape(side, side)

    @property
    def fixed_cells(self) -> List[int]:
        """Cells (row-major index) fixed in every sample, givens included."""
        return [i for i, f in enumerate(self["fixedness"]) if f >= 1.0]

    def _repr_html_(self) -> str:
        caption = (
            f"Share of {self['samples']} relaxations removing k = {self['k']} random edges "
            f"in which each cell keeps its value in every solution. Mean fixed non-given cells "
            f"{self['mean_fixed']:.2f}, P(unique) {self['p_unique']:.2f}, mean solutions "
            f"{'≥ ' if self['capped'] else ''}{self['mean_solutions']:.2f}."
        )
        return _figures_html(self["puzzle"], self["fixedness"], caption)


def relax(
    puzzle: PuzzleLike,
    k: int = 45,
    samples: int = 1000,
    seed: int = DEFAULT_SEED,
    cap: int = 1000,
    engine: str = "bitset",
    verify: Optional[int] = None,
    with_samples: bool = False,
) -> Relaxation:
    """Removes ``k`` random edges of the Sudoku graph ``samples`` times and
    counts the solutions (``sudolab relax``, same defaults and seeds).

    ``engine`` is ``bitset``, ``dlx``, ``sat``, a list such as ``sat,dlx`` or
    ``all``; ``verify`` samples are cross-checked (default one in 500, at
    least 1: with ``bitset``, SAT proves the count and fixed cells from the
    solutions the search found; with a list, every engine analyzes every
    sample). Raises ``ValueError`` for a puzzle that cannot be relaxed
    (contradictory, no solution or several, ``k`` above the edge count) and
    :class:`EngineDisagreement` when engines disagree.
    """
    k = _int("k", k, 0, _MAX_K)
    samples = _int("samples", samples, 1, MAX_SAMPLES)
    seed = _int("seed", seed, 0, _U64)
    cap = _int("cap", cap, 0, _U64)
    verify = _opt_int("verify", verify, 0, MAX_SAMPLES)
    report, drawn = _native.relax_report(_line(puzzle), k, samples, seed, cap, engine, verify, with_samples)
    row = json.loads(report)
    row.pop("line", None)
    r = Relaxation(row)
    if drawn is not None:
        r.sample_rows = json.loads(drawn)
    return r


def rate(
    puzzle: PuzzleLike,
    models: str = "default",
    seed: int = DEFAULT_SEED,
    runs: Optional[int] = None,
    with_score: bool = True,
) -> dict:
    """Human-model ratings (``sudolab rate``): ``models`` is a comma list of
    ``sisus, oracle, hsolve, nishio, weights, baseline, singles, serate, fowler, trial,
    annealing, harmony``, or ``default`` (every model but the costly annealing
    and harmony search, as the CLI) or ``all``; with the difficulty score unless
    ``with_score=False``."""
    seed = _int("seed", seed, 0, _U64)
    runs = _opt_int("runs", runs, 1, MAX_RUNS)
    return _Row(json.loads(_native.rate([_line(puzzle)], models, seed, runs, with_score)[0]))


def score(
    puzzle: PuzzleLike,
    fast: bool = False,
    scale: int = 4,
    seed: Optional[int] = None,
    all_metrics: bool = False,
) -> dict:
    """The calibrated difficulty score (``sudolab score``): ``score``,
    ``score_level``, ``se_equivalent`` (SE's scale, 1.0–11.9), ``minutes`` (with
    ``minutes_low`` and ``minutes_high``, when the score gives them),
    ``extrapolated`` and ``minutes_extrapolated`` (the puzzle is above everything
    the model, or the time model, was fitted on) and ``hardest_technique``.
    Raises ``ValueError`` for a puzzle without a score."""
    scale = _int("scale", scale, 2, 10)
    seed = _opt_int("seed", seed, 0, _U64)
    row = json.loads(_native.score_rows([_line(puzzle)], None, fast, scale, seed, all_metrics)[0])
    row.pop("line", None)
    return _Row(row)


class Analysis(_Row):
    """Every requested metric of one puzzle: an ``analyze`` JSONL row."""

    def _repr_html_(self) -> str:
        fixedness = self.get("fixedness")
        caption = ""
        if fixedness is not None:
            caption = (
                f"Share of {self['samples']} relaxations removing k = {self['k']} random edges "
                f"in which each cell keeps its value in every solution."
            )
        return _figures_html(self["puzzle"], fixedness, caption)


_ANALYZE_DEFAULTS = dict(metrics="clauses,relax,score", k=45, samples=200, seed=DEFAULT_SEED, cap=1000, fixedness=False)


def _analyze_ints(k: Any, samples: Any, seed: Any, cap: Any) -> tuple:
    return (
        _int("k", k, 0, _MAX_K),
        _int("samples", samples, 1, MAX_SAMPLES),
        _int("seed", seed, 0, _U64),
        _int("cap", cap, 0, _U64),
    )


def _lines_arg(lines: Optional[Sequence[int]]) -> Optional[List[int]]:
    if lines is None:
        return None
    return [_int("lines", line, 1, _U64) for line in lines]


def analyze(
    puzzle: PuzzleLike,
    metrics: str = "clauses,relax,score",
    k: int = 45,
    samples: int = 200,
    seed: int = DEFAULT_SEED,
    cap: int = 1000,
    fixedness: bool = True,
) -> Analysis:
    """Every metric of ``metrics`` for one puzzle (``sudolab analyze``:
    groups ``clauses``, ``relax``, ``rate-all``, ``rate:MODELS``, ``score``).
    With ``fixedness`` (default here, for the notebook heatmap) the row holds
    the per-cell fixedness map."""
    k, samples, seed, cap = _analyze_ints(k, samples, seed, cap)
    row = json.loads(_native.analyze([_line(puzzle)], None, metrics, k, samples, seed, cap, fixedness)[0])
    row.pop("line", None)
    return Analysis(row)


def _frame(rows: List[str], index: Optional[pd.Index] = None) -> pd.DataFrame:
    frame = pd.DataFrame.from_records([json.loads(r) for r in rows])
    if index is not None and len(index) == len(frame):
        frame.index = index
    return frame


def _batch_index(puzzles: Any) -> Optional[pd.Index]:
    return puzzles.index if isinstance(puzzles, pd.Series) else None


def analyze_batch(
    puzzles: Union[Iterable[PuzzleLike], pd.Series],
    metrics: str = "clauses,relax,score",
    k: int = 45,
    samples: int = 200,
    seed: int = DEFAULT_SEED,
    cap: int = 1000,
    fixedness: bool = False,
    lines: Optional[Sequence[int]] = None,
) -> pd.DataFrame:
    """:func:`analyze` over many puzzles on every core: the rows of
    ``sudolab analyze --format jsonl`` (``line`` = ``lines`` or the 1-based
    position; a Series keeps its index). Same defaults as the CLI."""
    index = _batch_index(puzzles)
    k, samples, seed, cap = _analyze_ints(k, samples, seed, cap)
    rows = _native.analyze(_lines(puzzles), _lines_arg(lines), metrics, k, samples, seed, cap, fixedness)
    return _frame(rows, index)


def score_batch(
    puzzles: Union[Iterable[PuzzleLike], pd.Series],
    fast: bool = False,
    scale: int = 4,
    seed: Optional[int] = None,
    all_metrics: bool = False,
    lines: Optional[Sequence[int]] = None,
) -> pd.DataFrame:
    """:func:`score` over many puzzles on every core: the rows of
    ``sudolab score --format jsonl``."""
    index = _batch_index(puzzles)
    scale = _int("scale", scale, 2, 10)
    seed = _opt_int("seed", seed, 0, _U64)
    rows = _native.score_rows(_lines(puzzles), _lines_arg(lines), fast, scale, seed, all_metrics)
    return _frame(rows, index)


def rate_batch(
    puzzles: Union[Iterable[PuzzleLike], pd.Series],
    models: str = "default",
    seed: int = DEFAULT_SEED,
    runs: Optional[int] = None,
    with_score: bool = True,
) -> pd.DataFrame:
    """:func:`rate` over many puzzles on every core: the rows of
    ``sudolab rate --format jsonl``."""
    index = _batch_index(puzzles)
    seed = _int("seed", seed, 0, _U64)
    runs = _opt_int("runs", runs, 1, MAX_RUNS)
    return _frame(_native.rate(_lines(puzzles), models, seed, runs, with_score), index)


def generate(
    method: str = "minimal",
    count: int = 1,
    seed: int = 0,
    order: int = 3,
    symmetry: str = "none",
    minimal: bool = False,
    max_tries: int = 1000,
    level: Optional[str] = None,
) -> pd.DataFrame:
    """``count`` puzzles from ``seed`` (``sudolab generate``, same methods,
    symmetries and levels): one row per puzzle, the CLI's JSONL columns."""
    count = _int("count", count, 1, MAX_GENERATED)
    seed = _int("seed", seed, 0, _U64)
    order = _int("order", order, 2, 5)
    max_tries = _int("max_tries", max_tries, 1, _U64)
    return _frame(_native.generate_rows(method, count, seed, order, symmetry, minimal, max_tries, level))


def canon(puzzle: PuzzleLike) -> str:
    """The canonical form (``sudolab canon``) of a 4×4 or 9×9 puzzle: equal
    for puzzles equal up to relabelling, row/column/band/stack permutations
    and transpose."""
    return _native.canon(_line(puzzle))
