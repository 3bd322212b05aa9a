"""``sudolab.dask``: ``sudolab analyze`` over a Dask collection of puzzles.

Each partition of a Dask DataFrame (a column of puzzle lines) or Dask bag
(puzzle lines, e.g. from :func:`read_puzzles`) is analysed by one task with
:func:`sudolab.analyze_batch` (the parameters checked first, on the client,
by :func:`sudolab.analyze_options`), on every core of the worker that runs it, with
the metric groups, parameters and seeds of ``sudolab analyze``. Rows carry the
1-based input line of their puzzle (blank and ``#`` lines count, as in the
CLI), so the gathered result equals ``sudolab analyze --format jsonl`` on the
same input. A partition's rows depend only on its puzzles and the parameters,
so Dask may rerun it anywhere (a worker lost mid-run costs no row: the
scheduler retries its partitions elsewhere).

Any Dask cluster works: a ``distributed.LocalCluster``, ``dask-jobqueue``'s
``SLURMCluster`` (``docs/python.md``), Kubernetes. Give the client's
collection; the functions compute through the current default scheduler
(the last ``distributed.Client`` created, if any).
"""

from __future__ import annotations

import json
import os
from typing import TYPE_CHECKING, List, Tuple, Union

import dask
import dask.bag as db
import dask.dataframe as dd
import pandas as pd

from . import _takes_analyze_parameters, analyze_batch, analyze_options

if TYPE_CHECKING:
    from typing_extensions import Unpack

    from ._native import AnalyzeParameters

__all__ = ["read_puzzles", "analyze", "analyze_to_parquet"]


#: Bytes per partition of :func:`read_puzzles` by default: about 100 lines
#: of 9×9 puzzles (82 bytes each), so a file of a few hundred puzzles is
#: spread over every worker and a lost worker costs a few seconds of rerun.
DEFAULT_BLOCKSIZE = 100 * 83


def read_puzzles(path: Union[str, List[str]], blocksize: Union[int, str, None] = DEFAULT_BLOCKSIZE) -> db.Bag:
    """The lines of one puzzle file (or several, analysed one after the other)
    as a Dask bag, ``blocksize`` bytes per partition (default
    :data:`DEFAULT_BLOCKSIZE`, about 100 puzzles)."""
    return db.read_text(path, blocksize=blocksize)


def _is_puzzle(text: str) -> bool:
    t = text.strip()
    return bool(t) and not t.startswith("#")


def _analyze_partition(items, params: dict) -> Tuple[int, pd.DataFrame]:
    """Analyses one partition: (number of input lines in it, its rows with
    lines counted from 1 within the partition)."""
    if isinstance(items, pd.Series):
        items = items.tolist()
    texts = [str(t).rstrip("\r\n") for t in items]
    picked = [(i + 1, t) for i, t in enumerate(texts) if _is_puzzle(t)]
    if not picked:
        return len(texts), pd.DataFrame()
    frame = analyze_batch([t for _, t in picked], lines=[line for line, _ in picked], **params)
    return len(texts), frame


def _partitions(collection, column: str):
    if isinstance(collection, dd.DataFrame):
        return collection[column].to_delayed()
    if isinstance(collection, dd.Series):
        return collection.to_delayed()
    if isinstance(collection, db.Bag):
        return collection.to_delayed()
    raise TypeError(f"expected a Dask DataFrame, Series or bag of puzzle lines, not {type(collection).__name__}")


@_takes_analyze_parameters()
def analyze(collection, column: str = "puzzle", **options: Unpack[AnalyzeParameters]) -> pd.DataFrame:
    """Analyses every puzzle of ``collection`` (a Dask bag of lines, or the
    ``column`` of a Dask DataFrame), partition by partition on the cluster,
    and gathers one pandas DataFrame: the rows of ``sudolab analyze --format
    jsonl`` in input order, ``line`` counted over the whole collection. The
    parameters are :func:`sudolab.analyze_batch`'s, with the CLI's defaults,
    checked before anything is scheduled (:func:`sudolab.analyze_options`)."""
    params = analyze_options(**options)
    tasks = [dask.delayed(_analyze_partition)(part, params) for part in _partitions(collection, column)]
    results = dask.compute(*tasks)
    frames = []
    offset = 0
    for count, frame in results:
        if len(frame):
            frame = frame.copy()
            frame["line"] = frame["line"] + offset
            frames.append(frame)
        offset += count
    if not frames:
        return pd.DataFrame()
    return pd.concat(frames, ignore_index=True)


def _write_partition(items, offset: int, params: dict, path: str, number: int) -> int:
    count, frame = _analyze_partition(items, params)
    if len(frame):
        frame["line"] = frame["line"] + offset
        # Nested fields (params, errors) as JSON text: Parquet needs one type per column.
        for name in frame.columns:
            if frame[name].map(lambda v: isinstance(v, dict)).any():
                frame[name] = frame[name].map(lambda v: json.dumps(v) if isinstance(v, dict) else v)
        frame.to_parquet(os.path.join(path, f"part.{number:05}.parquet"), index=False)
    return len(frame)


@_takes_analyze_parameters()
def analyze_to_parquet(collection, path: str, column: str = "puzzle", **options: Unpack[AnalyzeParameters]) -> int:
    """Like :func:`analyze`, but each worker writes its partition's rows to
    ``path/part.NNNNN.parquet`` (a directory ``pandas.read_parquet`` and
    ``dask.dataframe.read_parquet`` read as one table; list fields such as
    ``alo_lengths`` stay lists, the nested ``params`` and ``errors`` are JSON
    text). Returns the number of rows written. The line offsets are counted
    first (one pass that reads the partitions' lengths)."""
    params = analyze_options(**options)
    os.makedirs(path, exist_ok=True)
    parts = _partitions(collection, column)
    counts = dask.compute(*[dask.delayed(len)(p) for p in parts])
    offsets = [sum(counts[:i]) for i in range(len(counts))]
    writes = [
        dask.delayed(_write_partition)(part, offset, params, path, number)
        for number, (part, offset) in enumerate(zip(parts, offsets))
    ]
    return int(sum(dask.compute(*writes)))
