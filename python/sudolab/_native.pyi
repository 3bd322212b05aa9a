"""Type stubs of ``sudolab._native``, the PyO3 extension under ``sudolab``.

Rows are JSON text of the library's row types (the CLI's ``--format jsonl``);
the ``sudolab`` package turns them into dicts and DataFrames. Every function
raises ``ValueError`` for a bad puzzle or parameter and
``sudolab.EngineDisagreement`` when two engines disagree.
"""

from typing import List, Optional, Sequence, Tuple

MAX_SAMPLES: int
MAX_RUNS: int
MAX_GENERATED: int

def parse_line(text: str) -> Tuple[str, Optional[str], int, List[int]]:
    """(line, label, side, row-major cells with 0 for a blank)."""

def line_from_cells(cells: Sequence[int]) -> str:
    """The puzzle line of row-major cell values (16, 81, 256 or 625 of them)."""

def encode(puzzle: str, encoding: str) -> str:
    """DIMACS CNF text (``sudolab encode``)."""

def clauses(puzzle: str, encoding: str, cuts: Optional[str] = None) -> str:
    """A ``sudolab clauses`` JSON row."""

def relax_report(
    puzzle: str,
    k: int,
    samples: int,
    seed: int,
    cap: int,
    engine: str,
    verify: Optional[int] = None,
    with_samples: bool = False,
) -> Tuple[str, Optional[str]]:
    """A ``sudolab relax`` JSON row (line 1) and, when asked, the samples as a JSON list."""

def rate(
    puzzles: Sequence[str], models: str, seed: int, runs: Optional[int] = None, with_score: bool = True
) -> List[str]:
    """``sudolab rate`` JSON rows, computed on every core without the GIL."""

def score_rows(
    puzzles: Sequence[str],
    lines: Optional[Sequence[int]] = None,
    fast: bool = False,
    scale: int = 4,
    seed: Optional[int] = None,
    all_metrics: bool = False,
) -> List[str]:
    """``sudolab score`` JSON rows, computed on every core without the GIL."""

def analyze(
    puzzles: Sequence[str],
    lines: Optional[Sequence[int]] = None,
    metrics: str = "clauses,relax,score",
    k: int = 45,
    samples: int = 200,
    seed: int = 1,
    cap: int = 1000,
    fixedness: bool = False,
) -> List[str]:
    """``sudolab analyze`` JSONL rows, computed on every core without the GIL."""

def generate_rows(
    method: str = "minimal",
    count: int = 1,
    seed: int = 0,
    order: int = 3,
    symmetry: str = "none",
    minimal: bool = False,
    max_tries: int = 1000,
    level: Optional[str] = None,
) -> List[str]:
    """``sudolab generate`` JSON rows."""

def canon(puzzle: str) -> str:
    """The canonical form of a 4×4 or 9×9 puzzle."""

def fixedness_svg(puzzle: str, fixedness: Sequence[float]) -> str:
    """The HTML report's fixedness heatmap (SVG)."""

def clause_histogram_svg(series: Sequence[Tuple[str, Sequence[int]]]) -> str:
    """The HTML report's clause-length histogram (SVG)."""
