"""Type stubs of ``sudolab._native``, the PyO3 extension under ``sudolab``.

Rows are dicts of the library's row types, converted from their ``Serialize``
impls (``pythonize``): the fields of the CLI's ``--format jsonl``, nested
fields as dicts and lists. A parameter left at ``None`` takes the library's
default (its options' ``Default``, the CLI's). Every function raises
``ValueError`` for a bad puzzle or a parameter the CLI refuses (the options'
``check()``, with the CLI's message) and :class:`EngineDisagreement` when two
engines disagree.
"""

from typing import Any, Dict, List, Optional, Sequence, Tuple, TypedDict, Union

from typing_extensions import Unpack

MAX_SAMPLES: int
MAX_RUNS: int
MAX_GENERATED: int
DEFAULT_SEED: int

class AnalyzeParameterEntry(TypedDict):
    """One entry of :data:`ANALYZE_PARAMETERS`."""

    name: str
    type: str
    """The Python type of its value once checked."""
    default: Any
    """The CLI's default."""
    doc: str

ANALYZE_PARAMETERS: List[AnalyzeParameterEntry]
"""The keyword parameters of ``analyze`` and ``analyze_options``, declared once."""

class DisagreementCase(TypedDict):
    """What :attr:`EngineDisagreement.case` holds: enough to reproduce."""

    what: str
    puzzle: str
    answers: List[List[str]]
    line: Optional[int]

class EngineDisagreement(RuntimeError):
    """Two engines gave different answers: a bug in sudolab, never a bad
    puzzle. ``args`` is ``(message, case)``."""

    @property
    def case(self) -> Optional[DisagreementCase]: ...
    @property
    def message(self) -> str: ...

class ClausesRow(TypedDict):
    """A ``sudolab clauses`` row."""

    puzzle: str
    label: Optional[str]
    encoding: str
    variables: int
    clauses: int
    alo_lengths: List[int]
    short_pct: float
    medium_pct: float
    long_pct: float

class RelaxRow(TypedDict, total=False):
    """A ``sudolab relax`` row (without ``line``)."""

    puzzle: str
    label: Optional[str]
    seed: int
    engine: str
    verified: int
    verified_by: List[str]
    k: int
    samples: int
    cap: int
    mean_solutions: float
    median_solutions: float
    mean_extra: float
    p_unique: float
    mean_fixed: float
    capped: int
    saw_nothing: bool
    stopped_saturated: bool
    fixedness: List[float]

class SampleRow(TypedDict, total=False):
    """One relaxation sample (``sudolab relax --emit-samples``)."""

    sample: int
    removed: List[List[int]]
    solutions: int
    capped: bool
    saturated: bool
    fixed: List[int]

class ScoreFields(TypedDict, total=False):
    """The difficulty score's fields, in ``score``, ``rate`` and ``analyze`` rows."""

    score: float
    score_level: str
    se_equivalent: Optional[float]
    se_by: Optional[str]
    minutes: Optional[float]
    minutes_low: Optional[float]
    minutes_high: Optional[float]
    extrapolated: bool
    minutes_extrapolated: Optional[bool]

class ScoreRow(ScoreFields, total=False):
    """A ``sudolab score`` row; with ``all_metrics`` every candidate metric too
    (``givens``, ``hsolve``, ``mean_fixed``, … as floats)."""

    line: int
    puzzle: str
    label: Optional[str]
    calibrated_level: str
    hardest_technique: Optional[str]
    trial_depth: Optional[int]
    w_rating: Optional[int]
    b_rating: Optional[int]
    bxb: Optional[int]
    bxbb: Optional[int]
    berthier_status: Optional[str]

class RatingFields(TypedDict, total=False):
    """The human models' fields, in ``rate`` and ``analyze`` rows (a model not
    run leaves its fields ``None`` or out)."""

    givens: int
    candidates: Optional[int]
    backtracks: Optional[int]
    sisus_refutation_sum: Optional[float]
    sisus_refutation_sum_sd: Optional[float]
    sisus_dependency: Optional[float]
    sisus_dependency_sd: Optional[float]
    singles_dependency: Optional[float]
    singles_dependency_sd: Optional[float]
    singles_box_reach: Optional[float]
    singles_hidden_reach: Optional[float]
    singles_naked_reach: Optional[float]
    oracle_score: Optional[float]
    oracle_level: Optional[str]
    oracle_visits: Optional[float]
    oracle_visits_sd: Optional[float]
    hsolve: Optional[float]
    hsolve_sd: Optional[float]
    hsolve_median: Optional[float]
    nishio2: Optional[float]
    nishio3: Optional[float]
    nishio4: Optional[float]
    nishio4_sd: Optional[float]
    nishio4_median: Optional[float]
    nishio4_heuristic: Optional[float]
    solved_by_2: Optional[bool]
    solved_by_3: Optional[bool]
    solved_by_4: Optional[bool]
    weights_score: Optional[int]
    weights_level: Optional[str]
    hardest_technique: Optional[str]
    hardest_weight: Optional[int]
    basic_reach: Optional[float]
    serate: Optional[float]
    serate_ep: Optional[float]
    serate_ed: Optional[float]
    fowler: Optional[float]
    trial_depth: Optional[int]
    trial_steps: Optional[int]
    trial_rating: Optional[float]
    trial_eliminations: Optional[int]
    w_rating: Optional[int]
    b_rating: Optional[int]
    bxb: Optional[int]
    bxbb: Optional[int]
    berthier_status: Optional[str]
    sa_steps: Optional[float]
    sa_solved: Optional[float]
    harmony_cost: Optional[float]
    harmony_steps: Optional[float]
    status: Dict[str, str]

class RateRow(RatingFields, ScoreFields, total=False):
    """A ``sudolab rate`` row (the score's fields unless ``with_score=False``)."""

    puzzle: str
    label: Optional[str]

class _AnalyzePrecision(TypedDict, total=False):
    precision: float
    """Relaxation to a precision (± cells of ``mean_fixed``); absent without one."""
    rate_seed: int
    """Seed of the human models when it differs from ``seed`` (absent otherwise)."""

class AnalyzeParams(_AnalyzePrecision):
    """How an ``analyze`` row was computed (its ``params``)."""

    metrics: str
    seed: int
    k: Optional[Union[int, str]]
    """Edges removed, or ``"auto"`` (the row's ``k`` is then its puzzle's onset)."""
    samples: Optional[int]
    cap: Optional[int]
    fixedness: bool
    dedup: bool

class AnalysisRow(RatingFields, ScoreFields, total=False):
    """A ``sudolab analyze`` row: the fields of each requested group
    (clauses, relax, rate, score); a group the puzzle refuses is left out and
    says why in ``errors``."""

    line: int
    puzzle: str
    label: Optional[str]
    params: AnalyzeParams
    variables: int
    clauses: int
    alo_lengths: List[int]
    short_pct: float
    medium_pct: float
    long_pct: float
    k: int
    samples: int
    cap: int
    mean_solutions: float
    median_solutions: float
    mean_extra: float
    p_unique: float
    mean_fixed: float
    capped: int
    fixedness: List[float]
    errors: Dict[str, str]

class GeneratedRow(TypedDict):
    """A ``sudolab generate`` row."""

    puzzle: str
    method: str
    seed: int
    index: int
    givens: int
    minimal: bool
    symmetry: str
    attempts: int
    millis: float
    reached: bool
    distance: float
    acceptance: Optional[float]
    method_level: Optional[str]
    method_score: Optional[float]

# BEGIN generated by python/gen_stubs.py from sudolab.ANALYZE_PARAMETERS: do not edit
class AnalyzeParameters(TypedDict, total=False):
    """The keyword parameters of ``analyze``, ``analyze_batch``, ``analyze_options`` and
    ``sudolab.dask``'s functions (left out or ``None``: the CLI's default)."""

    metrics: Optional[str]
    """Metric groups, comma list: clauses, relax, rate-all (every model), rate:MODELS (e.g.
    rate:nishio,weights; the models of rate()) or score (the difficulty score, its level,
    SE-equivalent and predicted minutes). Default 'clauses,relax,score'."""
    k: Optional[Union[int, str]]
    """Relaxation: edges removed, or "auto": each puzzle's onset (where P(unique) falls through
    one half over 100 samples), recorded in the row's k and relaxation_onset_k. Default 45."""
    samples: Optional[int]
    """Relaxation: samples per puzzle (at most MAX_SAMPLES); with precision, the most that are
    drawn. Default 200."""
    seed: Optional[int]
    """Seed of every randomized metric (the relaxation's samples and the human models). Default
    1."""
    cap: Optional[int]
    """Relaxation: solution cap. Default 1000."""
    fixedness: Optional[bool]
    """Include the per-cell fixedness map in relax metrics. Default False."""
    precision: Optional[float]
    """Relaxation: draw samples until the 95 % interval of mean_fixed is within ± this many
    cells (at least 30, at most samples); each row reports the samples it used. Default
    None."""

class AnalyzeOptions(TypedDict):
    """:func:`analyze_options`: ``analyze``'s parameters, checked, defaults filled."""

    metrics: str
    k: Union[int, str]
    samples: int
    seed: int
    cap: int
    fixedness: bool
    precision: Optional[float]
# END generated

def parse_line(text: str) -> Tuple[str, Optional[str], int, List[int]]:
    """(line, label, side, row-major cells with 0 for a blank)."""

def line_from_cells(cells: Sequence[int]) -> str:
    """The puzzle line of row-major cell values (16, 81, 256 or 625 of them)."""

def encode(puzzle: str, encoding: Optional[str] = None) -> str:
    """DIMACS CNF text (``sudolab encode``)."""

def clauses(puzzle: str, encoding: Optional[str] = None, cuts: Optional[str] = None) -> ClausesRow:
    """A ``sudolab clauses`` row."""

def relax_report(
    puzzle: str,
    k: Optional[Union[int, str]] = None,
    samples: Optional[int] = None,
    seed: Optional[int] = None,
    cap: Optional[int] = None,
    engine: Optional[str] = None,
    verify: Optional[int] = None,
    with_samples: bool = False,
    precision: Optional[float] = None,
    all_samples: bool = False,
) -> Tuple[RelaxRow, Optional[List[SampleRow]]]:
    """A ``sudolab relax`` row and, when asked, the samples."""

def rate(
    puzzles: Sequence[str],
    models: Optional[str] = None,
    seed: Optional[int] = None,
    runs: Optional[int] = None,
    with_score: bool = True,
    serate_budget: Optional[int] = None,
) -> List[RateRow]:
    """``sudolab rate`` rows, computed on every core without the GIL."""

def score_rows(
    puzzles: Sequence[str],
    lines: Optional[Sequence[int]] = None,
    fast: Optional[bool] = None,
    scale: Optional[int] = None,
    seed: Optional[int] = None,
    all_metrics: Optional[bool] = None,
    serate_budget: Optional[int] = None,
    keep_going: bool = False,
) -> List[ScoreRow]:
    """``sudolab score`` rows, computed on every core without the GIL."""

def fit_score(
    results: str,
    source: str,
    label: str,
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
    source_weights: Optional[Dict[str, float]] = None,
    population: Optional[str] = None,
    seed: Optional[int] = None,
    bootstrap: Optional[int] = None,
) -> Dict[str, Any]:
    """``sudolab fit --score`` on a results table's text (JSONL or CSV)."""

def analyze_options(**options: Unpack[AnalyzeParameters]) -> AnalyzeOptions:
    """``analyze``'s parameters checked as the CLI checks them, defaults filled."""

def analyze(
    puzzles: Sequence[str],
    lines: Optional[Sequence[int]] = None,
    **options: Unpack[AnalyzeParameters],
) -> List[AnalysisRow]:
    """``sudolab analyze`` rows, computed on every core without the GIL."""

def generate_rows(
    method: Optional[str] = None,
    count: Optional[int] = None,
    seed: Optional[int] = None,
    order: Optional[int] = None,
    symmetry: Optional[str] = None,
    minimal: Optional[bool] = None,
    max_tries: Optional[int] = None,
    level: Optional[str] = None,
) -> List[GeneratedRow]:
    """``sudolab generate`` rows."""

def canon(puzzle: str) -> str:
    """The canonical form of a 4×4 or 9×9 puzzle."""

def fixedness_svg(puzzle: str, fixedness: Sequence[float]) -> str:
    """The HTML report's fixedness heatmap (SVG)."""

def clause_histogram_svg(series: Sequence[Tuple[str, Sequence[Union[int, float]]]]) -> str:
    """The HTML report's clause-length histogram (SVG)."""
