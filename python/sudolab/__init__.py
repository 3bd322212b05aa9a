"""sudolab from Python: why is a Sudoku hard?

The functions follow the Rust library (``docs/python.md``): :func:`parse` a
puzzle, :func:`encode` it as DIMACS CNF, count its :func:`clauses`,
:func:`relax` it (Pelánek §3.2), :func:`rate` it with the human models,
:func:`score` it, :func:`generate` puzzles and take their :func:`canon`
form. The batch forms (:func:`analyze_batch`, :func:`score_batch`,
:func:`rate_batch`) take a sequence or a pandas Series, release the GIL, use
every core, and return a pandas DataFrame with the columns of the CLI's JSONL.
Every number comes from the library itself, as dicts of the same row types
the CLI writes, so the same seeds give the same numbers as ``sudolab``.
A parameter left at ``None`` takes the library's default, the CLI's (stated
once, in the library's options).

A puzzle is a line (``"53..7....6..195...."``, ``0`` or ``.`` for a blank,
an optional label after whitespace), a list of cell values (flat or nested,
``0`` for a blank), a numpy array, or a :class:`Puzzle`. A bad puzzle raises
``ValueError`` naming what is wrong and the puzzle's line (the ``lines``
given to a batch, else its 1-based position: ``line 1`` for a single
puzzle, as the CLI numbers input lines); an engine disagreement (always a
bug) raises :class:`EngineDisagreement` with the reproducible case.

Parameters are checked before any work by the library's options checks,
the ones the CLI runs (``samples`` 1 to ``MAX_SAMPLES`` = 100000, ``runs`` at
most ``MAX_RUNS``, ``count`` at most ``MAX_GENERATED``, ``scale`` 2 to 10): a
value out of range raises ``ValueError`` with the CLI's message (``samples
1000000000: at most 100000 (the documented ceiling of samples)``); a value
that is not an integer raises ``TypeError``, a negative one ``ValueError``,
naming the parameter. Ctrl-C interrupts a native call within a fraction of a
second (``KeyboardInterrupt``).
"""

from __future__ import annotations

from dataclasses import dataclass
import functools
import inspect
import json
import numbers
import os
import textwrap
from typing import TYPE_CHECKING, Any, Callable, Iterable, List, NamedTuple, Optional, Sequence, Tuple, TypeVar, Union

import numpy as np
import pandas as pd

from . import _native
from ._native import EngineDisagreement

if TYPE_CHECKING:
    from typing_extensions import Unpack

    from ._native import AnalyzeOptions, AnalyzeParameters, RateRow, ScoreRow

__all__ = [
    "EngineDisagreement",
    "SaturationWarning",
    "analyze_options",
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
    "fit_score",
]


MAX_SAMPLES: int = _native.MAX_SAMPLES
MAX_RUNS: int = _native.MAX_RUNS
#: The default rating seed of every function and every ``sudolab`` command.
DEFAULT_SEED: int = _native.DEFAULT_SEED
MAX_GENERATED: int = _native.MAX_GENERATED
_U64 = 2**64 - 1


def _int(name: str, value: Any) -> Optional[int]:
    """``value`` as a Python int the native layer takes (``None`` passes:
    the library's default), else an error naming ``name``. The range of
    each parameter is the library's check, not this."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an integer, not {type(value).__name__} ({value!r})")
    value = int(value)
    if not 0 <= value <= _U64:
        raise ValueError(f"{name} {value}: expected an integer from 0 to {_U64}")
    return value


def _int_or_text(name: str, value: Any) -> Union[int, str, None]:
    """A value that is a number or a word, such as a relaxation's ``k``: a
    number of edges (checked as :func:`_int` checks it) or ``"auto"``, each
    puzzle's onset (where P(unique) falls through one half over 100
    samples), passed on as text for the library to read as ``--k`` reads
    it."""
    if isinstance(value, str):
        return value
    return _int(name, value)


class AnalyzeParameter(NamedTuple):
    """One keyword parameter of ``sudolab analyze`` as Python takes it:
    ``name``, ``type`` (of its value once checked, as :func:`analyze_options`
    returns it), ``default`` (the CLI's) and ``doc`` (what it means)."""

    name: str
    type: str
    default: Any
    doc: str

    @property
    def annotation(self) -> str:
        """The type a caller may give: :attr:`type`, or ``None`` for the
        CLI's default."""
        return self.type if self.type.startswith("Optional[") else f"Optional[{self.type}]"


#: The keyword parameters of :func:`analyze`, :func:`analyze_batch`,
#: :func:`analyze_options` and :mod:`sudolab.dask`'s functions, declared once
#: in the extension (beside the library's ``AnalyzeOptions``): the functions'
#: signatures and docs, the checks of their values and the type stubs
#: (``python/gen_stubs.py``) all come from it.
ANALYZE_PARAMETERS: Tuple[AnalyzeParameter, ...] = tuple(AnalyzeParameter(**p) for p in _native.ANALYZE_PARAMETERS)

# How a value of each type is checked before the extension reads it (the
# others it reads as they are).
_CHECK_BY_TYPE = {"int": _int, "Union[int, str]": _int_or_text}


def _checked(options: dict) -> dict:
    """``options`` with every integer checked as :func:`_int` checks it, for
    the extension, which refuses an unknown name (``TypeError``) and a value
    the CLI refuses (``ValueError``, the CLI's message)."""
    types = {p.name: p.type for p in ANALYZE_PARAMETERS}
    checked = {}
    for name, value in options.items():
        check = _CHECK_BY_TYPE.get(types.get(name, ""))
        checked[name] = value if check is None or value is None else check(name, value)
    return checked


def _parameters_doc(defaults: dict) -> str:
    lines = ["", "", "    Parameters of ``sudolab analyze`` (keyword only; left out or ``None``: the CLI's default):", ""]
    for p in ANALYZE_PARAMETERS:
        lines.append(f"    {p.name} : {p.type}, default {defaults.get(p.name, p.default)!r}")
        lines.append(textwrap.fill(p.doc, width=80, initial_indent=" " * 8, subsequent_indent=" " * 8))
    return "\n".join(lines)


_F = TypeVar("_F", bound=Callable[..., Any])


def _takes_analyze_parameters(**defaults: Any) -> Callable[[_F], _F]:
    """Makes a function that takes ``sudolab analyze``'s parameters as
    ``**options`` show and check them, from :data:`ANALYZE_PARAMETERS`: its
    signature lists them (keyword only, with their types; default ``None``,
    the CLI's, unless ``defaults`` gives one), its docstring says what each
    means and its default, and it receives the given ones with ``defaults``
    filled in and every integer checked (:func:`_checked`)."""

    def give(function: _F) -> _F:
        @functools.wraps(function)
        def checked(*args: Any, **options: Any) -> Any:
            return function(*args, **_checked({**defaults, **options}))

        signature = inspect.signature(function)
        own = [p for p in signature.parameters.values() if p.kind is not inspect.Parameter.VAR_KEYWORD]
        analyze = [
            inspect.Parameter(
                p.name,
                inspect.Parameter.KEYWORD_ONLY,
                default=defaults.get(p.name),
                annotation=p.type if p.name in defaults else p.annotation,
            )
            for p in ANALYZE_PARAMETERS
        ]
        checked.__signature__ = signature.replace(parameters=own + analyze)  # type: ignore[attr-defined]
        checked.__doc__ = (function.__doc__ or "") + _parameters_doc(defaults)
        return checked  # type: ignore[return-value]

    return give


def _case(self: EngineDisagreement) -> Optional[dict]:
    return self.args[1] if len(self.args) > 1 else None


def _message(self: EngineDisagreement) -> str:
    return str(self.args[0]) if self.args else ""


# The class is the extension's (``create_exception!``), raised with
# ``(message, case)``; these read its arguments by name. It pickles by its
# arguments, as Dask sends it from a worker to the client.
EngineDisagreement.case = property(_case, doc="The reproducible case: ``what``, ``puzzle``, ``answers``, ``line``.")
EngineDisagreement.message = property(_message, doc="The message, as ``str()`` gives it.")
EngineDisagreement.__str__ = _message


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
    """Parses a puzzle (line, list, nested list or numpy array). A line may
    also be a 9×9 pencilmark grid (729 characters, or 81 cells of candidate
    digits): ``line`` is then its 729-character form and ``cells`` its
    givens; every function reads it but ``canon`` (``ValueError``), a model
    defined on givens names the reason in the row's ``status``, and the
    score has none (docs/methods.md §0.1).

    Raises ``ValueError`` naming what is wrong (the number of cells, a bad
    character and where, a value out of range).
    """
    line, label, side, cells = _native.parse_line(_line(puzzle))
    return Puzzle(line, label, side, np.array(list(cells), dtype=np.uint8).reshape(side, side))


def encode(puzzle: PuzzleLike, encoding: Optional[str] = None) -> str:
    """DIMACS CNF text of the puzzle in ``encoding`` (``min``, ``max`` or
    ``lo-min``, as ``sudolab encode --encoding``, and the same default)."""
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


def clauses(puzzle: PuzzleLike, encoding: Optional[str] = None, cuts: Optional[str] = None) -> Clauses:
    """Clause counts and ALO length histogram of the puzzle's CNF in
    ``encoding`` (the CLI's default unless given; ``cuts`` as ``sudolab
    clauses --cuts SHORT,MEDIUM``, default Patti's)."""
    row = _native.clauses(_line(puzzle), encoding, cuts)
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
    k: Optional[Union[int, str]] = None,
    samples: Optional[int] = None,
    seed: Optional[int] = None,
    cap: Optional[int] = None,
    engine: Optional[str] = None,
    verify: Optional[int] = None,
    with_samples: bool = False,
    precision: Optional[float] = None,
    all_samples: bool = False,
) -> Relaxation:
    """Removes ``k`` random edges of the Sudoku graph ``samples`` times and
    counts the solutions (``sudolab relax``, same defaults and seeds).
    ``k="auto"`` relaxes at the puzzle's onset, where P(unique) falls
    through one half over 100 samples (``relax --k auto``): the row's ``k``
    and ``relaxation_onset_k`` hold it.

    ``engine`` is ``bitset``, ``dlx``, ``sat``, a list such as ``sat,dlx`` or
    ``all``; ``verify`` samples are cross-checked (default one in 500, at
    least 1: with ``bitset``, SAT proves the count and fixed cells from the
    solutions the search found; with a list, every engine analyzes every
    sample). With ``precision`` E, samples are drawn until the 95 % interval
    of ``mean_fixed`` is within ± E cells (at least 30, at most ``samples``;
    the row's ``samples`` says how many). As ``sudolab relax`` does, a
    puzzle stops after 30 samples (then blocks of 10) once they establish
    saturation (the 95 % interval of the share of samples capped or fixing
    no cell above one half; the row has ``stopped_saturated``);
    ``all_samples=True`` draws every one. Every row carries the intervals
    (``mean_fixed_low``/``_high``, ``p_unique_low``/``_high``) and
    ``saw_nothing`` with ``relaxation_onset_k`` when most samples were capped
    or fixed nothing. Raises ``ValueError`` for a puzzle that cannot be relaxed
    (contradictory, no solution or several, ``k`` above the edge count) or a
    parameter the CLI refuses, and :class:`EngineDisagreement` when engines
    disagree.
    """
    row, drawn = _native.relax_report(
        _line(puzzle),
        _int_or_text("k", k),
        _int("samples", samples),
        _int("seed", seed),
        _int("cap", cap),
        engine,
        _int("verify", verify),
        with_samples,
        None if precision is None else float(precision),
        bool(all_samples),
    )
    r = Relaxation(row)
    if drawn is not None:
        r.sample_rows = drawn
    return r


def rate(
    puzzle: PuzzleLike,
    models: Optional[str] = None,
    seed: Optional[int] = None,
    runs: Optional[int] = None,
    with_score: bool = True,
    serate_budget: Optional[int] = None,
) -> "RateRow":
    """Human-model ratings (``sudolab rate``): ``models`` is a comma list of
    ``sisus, oracle, hsolve, nishio, weights, baseline, singles, serate, fowler, trial,
    annealing, harmony``, or ``default`` (every model but the costly annealing
    and harmony search, the CLI's default) or ``all``; ``seed`` and each
    model's runs the CLI's unless given; with the difficulty score unless
    ``with_score=False``."""
    (row,) = _native.rate(
        [_line(puzzle)], models, _int("seed", seed), _int("runs", runs), with_score,
        _int("serate_budget", serate_budget),
    )
    return _Row(row)


def score(
    puzzle: PuzzleLike,
    fast: Optional[bool] = None,
    scale: Optional[int] = None,
    seed: Optional[int] = None,
    all_metrics: Optional[bool] = None,
    serate_budget: Optional[int] = None,
) -> "ScoreRow":
    """The calibrated difficulty score (``sudolab score``): ``score``,
    ``score_level``, ``se_equivalent`` (SE's scale, 1.0–11.9), ``minutes`` (with
    ``minutes_low`` and ``minutes_high``, when the score gives them),
    ``extrapolated`` and ``minutes_extrapolated`` (the puzzle is above everything
    the model, or the time model, was fitted on), ``hardest_technique``,
    ``se_by`` (``serate``: ``se_equivalent`` is Sudoku Explainer's rating by
    serate; ``placement``, or ``placement (serate over budget)`` past
    ``serate_budget`` work units) and ``trial_depth`` (0–3, how deeply
    assumptions nest). ``scale`` is the number of levels (2–10, the CLI's
    default unless given), ``seed`` the model's unless given. Raises
    ``ValueError`` for a puzzle without a score."""
    (row,) = _native.score_rows(
        [_line(puzzle)], None, fast, _int("scale", scale), _int("seed", seed), all_metrics,
        _int("serate_budget", serate_budget),
    )
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


def _lines_arg(lines: Optional[Sequence[int]]) -> Optional[List[int]]:
    if lines is None:
        return None
    return [_int("lines", line) for line in lines]


@_takes_analyze_parameters()
def analyze_options(**options: Unpack[AnalyzeParameters]) -> AnalyzeOptions:
    """The parameters of :func:`analyze_batch` checked as ``sudolab
    analyze`` checks its flags (the library's ``AnalyzeOptions.check``), the
    ones left out filled with the CLI's defaults: a dict of every parameter
    to pass on (as :mod:`sudolab.dask` does before it schedules anything).
    Raises ``ValueError`` with the CLI's message for a value it refuses, and
    ``TypeError`` for a name it does not know."""
    return _native.analyze_options(**options)


@_takes_analyze_parameters(fixedness=True)
def analyze(puzzle: PuzzleLike, **options: Unpack[AnalyzeParameters]) -> Analysis:
    """Every metric of ``metrics`` for one puzzle (``sudolab analyze``:
    groups ``clauses``, ``relax``, ``rate-all``, ``rate:MODELS``, ``score``;
    the CLI's defaults, :func:`analyze_options` gives them). With
    ``fixedness`` (default here, for the notebook heatmap) the row holds the
    per-cell fixedness map. With ``precision`` (cells) the relaxation draws
    samples until the 95 % interval of ``mean_fixed`` is within ± that many
    cells (at most ``samples``), as ``--precision`` does."""
    (row,) = _native.analyze([_line(puzzle)], None, **options)
    row.pop("line", None)
    return Analysis(row)


def _frame(rows: List[dict], index: Optional[pd.Index] = None) -> pd.DataFrame:
    frame = pd.DataFrame.from_records(rows)
    if index is not None and len(index) == len(frame):
        frame.index = index
    return frame


def _batch_index(puzzles: Any) -> Optional[pd.Index]:
    return puzzles.index if isinstance(puzzles, pd.Series) else None


@_takes_analyze_parameters()
def analyze_batch(
    puzzles: Union[Iterable[PuzzleLike], pd.Series],
    lines: Optional[Sequence[int]] = None,
    **options: Unpack[AnalyzeParameters],
) -> pd.DataFrame:
    """:func:`analyze` over many puzzles on every core: the rows of
    ``sudolab analyze --format jsonl`` (``line`` = ``lines`` or the 1-based
    position; a Series keeps its index). Same defaults as the CLI
    (:func:`analyze_options` gives them).

    With relaxation, ``frame.attrs["saw_nothing"]`` counts the rows that saw
    nothing (most samples capped or fixing no cell: their relaxation columns
    are saturation, not findings; the ``saw_nothing`` column flags them), and
    a :class:`SaturationWarning` says so, as the CLI's note does."""
    index = _batch_index(puzzles)
    rows = _native.analyze(_lines(puzzles), _lines_arg(lines), **options)
    frame = _frame(rows, index)
    _note_saturation(frame)
    return frame


class SaturationWarning(UserWarning):
    """Some relaxed puzzles saw nothing at their ``k``: most of their samples
    are capped or fix no cell, so their relaxation columns show saturation."""


def _note_saturation(frame: pd.DataFrame) -> None:
    """Counts the relaxed rows that saw nothing into ``frame.attrs`` and
    warns when there are any."""
    if "saw_nothing" not in frame.columns:
        return
    relaxed = int(frame["saw_nothing"].notna().sum())
    saw = int((frame["saw_nothing"] == True).sum())  # noqa: E712 (a column of bools and NaN)
    frame.attrs["saw_nothing"] = saw
    if saw:
        import warnings

        ks = sorted({int(k) for k in frame.loc[frame["saw_nothing"] == True, "k"]})  # noqa: E712
        warnings.warn(
            f"{saw} of {relaxed} relaxed puzzles ({100 * saw / relaxed:.1f} %) saw nothing at "
            f"k = {', '.join(map(str, ks))}: most of their samples are capped or fix no cell, so "
            "their relaxation columns show saturation, not a finding (column saw_nothing; "
            "k='auto' relaxes each puzzle at its onset)",
            SaturationWarning,
            # Past this function, analyze_batch and its keyword check: the caller's line.
            stacklevel=4,
        )


def score_batch(
    puzzles: Union[Iterable[PuzzleLike], pd.Series],
    fast: Optional[bool] = None,
    scale: Optional[int] = None,
    seed: Optional[int] = None,
    all_metrics: Optional[bool] = None,
    lines: Optional[Sequence[int]] = None,
    serate_budget: Optional[int] = None,
    keep_going: bool = False,
) -> pd.DataFrame:
    """:func:`score` over many puzzles on every core: the rows of
    ``sudolab score --format jsonl``. A puzzle without a score (several
    solutions, not 9×9, a line that does not parse) raises ``ValueError``
    naming its line; with ``keep_going=True`` (``score --keep-going``) its
    row holds ``line``, ``puzzle`` and ``error`` instead, in its place, and
    the others are scored. An engine disagreement always raises."""
    index = _batch_index(puzzles)
    rows = _native.score_rows(
        _lines(puzzles), _lines_arg(lines), fast, _int("scale", scale), _int("seed", seed), all_metrics,
        _int("serate_budget", serate_budget), bool(keep_going),
    )
    return _frame(rows, index)


def fit_score(
    results: Union[pd.DataFrame, str, "os.PathLike[str]"],
    source: str = "label:1",
    label: str = "label:2",
    se: Optional[str] = None,
    level: Optional[str] = None,
    metrics: Optional[Sequence[str]] = None,
    fast_metrics: Optional[Sequence[str]] = None,
    keep: Optional[Sequence[str]] = None,
    se_anchor: Optional[str] = None,
    train_only: Optional[Sequence[str]] = None,
    timed: Optional[str] = None,
    timed_weight: Optional[float] = None,
    time_margin: Optional[float] = None,
    source_weights: Optional[dict] = None,
    population: Optional[str] = None,
    seed: Optional[int] = None,
    bootstrap: Optional[int] = None,
) -> dict:
    """Fits the difficulty score (``sudolab fit --score``) on labelled rows:
    a DataFrame of ``score_batch(..., all_metrics=True)`` or ``analyze_batch``
    rows with a label column, or the path of a JSONL/CSV results file. Each
    row's ``source``, numeric ``label``, SE rating (``se``) and level name
    (``level``) are label fields (``label:N``, the N-th word of the
    ``label`` column) or column names, as the CLI's flags take them. Returns
    the report as a dict: ``selection``, ``selection_fast``, ``validation``
    (each source held out in turn) and ``model``, which
    ``json.dump(report["model"], f)`` saves as a file ``sudolab score --model``
    reads. A choice the data cannot take raises ``ValueError`` naming the
    parameter."""
    if isinstance(results, pd.DataFrame):
        # json.dumps writes every float exactly (to_json rounds to 15 digits);
        # a missing value (NaN) is null.
        def cell(v: Any) -> Any:
            if isinstance(v, float) and v != v:
                return None
            return v.item() if isinstance(v, np.generic) else v
        text = "".join(
            json.dumps({k: cell(v) for k, v in r.items()}) + "\n" for r in results.to_dict("records")
        )
    else:
        with open(results, encoding="utf-8") as f:
            text = f.read()
    listed = lambda xs: None if xs is None else [str(x) for x in xs]
    return _native.fit_score(
        text, source, label, se, level, listed(metrics), listed(fast_metrics), listed(keep),
        se_anchor, listed(train_only), timed, timed_weight, time_margin,
        None if source_weights is None else {str(k): float(v) for k, v in source_weights.items()},
        population, _int("seed", seed), _int("bootstrap", bootstrap),
    )


def rate_batch(
    puzzles: Union[Iterable[PuzzleLike], pd.Series],
    models: Optional[str] = None,
    seed: Optional[int] = None,
    runs: Optional[int] = None,
    with_score: bool = True,
    serate_budget: Optional[int] = None,
) -> pd.DataFrame:
    """:func:`rate` over many puzzles on every core: the rows of
    ``sudolab rate --format jsonl``."""
    index = _batch_index(puzzles)
    rows = _native.rate(
        _lines(puzzles), models, _int("seed", seed), _int("runs", runs), with_score,
        _int("serate_budget", serate_budget),
    )
    return _frame(rows, index)


def generate(
    method: Optional[str] = None,
    count: Optional[int] = None,
    seed: Optional[int] = None,
    order: Optional[int] = None,
    symmetry: Optional[str] = None,
    minimal: Optional[bool] = None,
    max_tries: Optional[int] = None,
    level: Optional[str] = None,
) -> pd.DataFrame:
    """``count`` puzzles from ``seed`` (``sudolab generate``, same methods,
    symmetries, levels and defaults):
    one row per puzzle, the CLI's JSONL columns."""
    rows = _native.generate_rows(
        method,
        _int("count", count),
        _int("seed", seed),
        _int("order", order),
        symmetry,
        minimal,
        _int("max_tries", max_tries),
        level,
    )
    return _frame(rows)


def canon(puzzle: PuzzleLike) -> str:
    """The canonical form (``sudolab canon``) of a 4×4 or 9×9 puzzle: equal
    for puzzles equal up to relabelling, row/column/band/stack permutations
    and transpose."""
    return _native.canon(_line(puzzle))
