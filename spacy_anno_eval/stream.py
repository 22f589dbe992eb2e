"""Scoring a corpus shard by shard: bounded memory in one process, or spread over a Dask cluster.

Every accumulator of an :class:`~spacy_anno_eval.corpus.Evaluation` is a sum
(counts per type, counts per document), so a corpus split into shards can be
scored shard by shard and the results merged (:meth:`Evaluation.merge`) into
exactly the evaluation of the whole: the same counts, the same report, byte
for byte once written as JSON.

Shards: a key and a response given as a folder of shard files, a glob
pattern (``"gold/*.spacy"``) or a single file. The i-th key shard is compared
with the i-th response shard (so both must be split the same way; a folder
or glob is taken in sorted order). Only one pair of shards is in memory at a
time in-process; each shard's evaluation keeps its per-document counts, and
its pairs only when ``keep_pairs`` (for diffs).

``scheduler``: ``None`` (in-process), ``"local:N"`` (a local Dask cluster of
N worker processes, one thread each) or the address of a running Dask
scheduler (``"tcp://host:8786"``). With Dask, each shard is a task (the
worker reads the files itself), a task whose worker dies is retried on
another worker, and results are merged in shard order, so the result equals
the in-process one exactly. Dask is the optional extra
``spacy-anno-eval[dask]``.
"""

from __future__ import annotations

import glob as globlib
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .corpus import Evaluation
from .errors import AnnoEvalInputError

#: file suffixes a folder of shards may hold
SHARD_SUFFIXES = (".spacy", ".jsonl", ".conll", ".iob", ".iob2", ".bio", ".bioes", ".txt")


def shard_paths(source: str | os.PathLike) -> list[Path]:
    """The shard files of ``source``: a file, a folder (its shard files, sorted) or a glob pattern (sorted)."""
    text = os.fspath(source)
    p = Path(text)
    if p.is_file():
        return [p]
    if p.is_dir():
        files = sorted(f for f in p.iterdir() if f.is_file() and f.suffix.lower() in SHARD_SUFFIXES)
        if not files:
            raise AnnoEvalInputError(f"{p}: no shard files ({', '.join(SHARD_SUFFIXES)}) in this folder")
        return files
    if any(ch in text for ch in "*?["):
        files = sorted(Path(f) for f in globlib.glob(text) if Path(f).is_file())
        if not files:
            raise AnnoEvalInputError(f"{text}: the pattern matches no file")
        return files
    raise AnnoEvalInputError(f"{p}: no such file, folder or pattern")


def pair_shards(key: str | os.PathLike, response: str | os.PathLike) -> list[tuple[Path, Path]]:
    """Key and response shards, paired by position; raise when their numbers differ."""
    ks, rs = shard_paths(key), shard_paths(response)
    if len(ks) != len(rs):
        raise AnnoEvalInputError(f"the key has {len(ks)} shards ({key}) but the response {len(rs)} ({response}); "
                                 f"split both the same way")
    return list(zip(ks, rs, strict=True))


def _score_pair(pair: tuple[str, str], options: dict[str, Any], keep_pairs: bool) -> Evaluation:
    from .engine import evaluate

    ev = evaluate(pair[0], pair[1], **options)
    if not keep_pairs:
        ev.alignment, ev.texts = None, None
    return ev


def _merge(evaluations: Sequence[Evaluation]) -> Evaluation:
    return evaluations[0] if len(evaluations) == 1 else Evaluation.concat(evaluations)


def open_client(scheduler: str) -> tuple[Any, Any]:
    """A Dask client for ``"local:N"`` (and its cluster, to close) or a scheduler address."""
    try:
        from distributed import Client, LocalCluster
    except ImportError as err:
        raise AnnoEvalInputError('--dask needs Dask: pip install "spacy-anno-eval[dask]"') from err
    if scheduler.startswith("local:"):
        try:
            n = int(scheduler.split(":", 1)[1])
        except ValueError:
            n = 0
        if n < 1:
            raise AnnoEvalInputError(f"--dask {scheduler!r}: write local:N with N >= 1 workers")
        cluster = LocalCluster(n_workers=n, threads_per_worker=1, processes=True, dashboard_address=None)
        return Client(cluster), cluster
    return Client(scheduler), None


def score_shards(key: str | os.PathLike, response: str | os.PathLike, *, scheduler: str | None = None,
                 client: Any = None, keep_pairs: bool = False, progress: bool = False, retries: int = 2,
                 task: Any = None, **options: Any) -> Evaluation:
    """The evaluation of ``key`` against ``response``, shard by shard (see the module docstring).

    ``options`` go to :func:`spacy_anno_eval.engine.evaluate` (``key_set``,
    ``types``, ``pairing``, ...). ``client``: an open ``distributed.Client``
    to use instead of ``scheduler``. ``task``: a picklable function
    ``(pair, options, keep_pairs) -> Evaluation`` to run per shard instead of
    the default (for instrumentation: timing, fault injection in tests).
    """
    task = task or _score_pair
    pairs = [(str(k), str(r)) for k, r in pair_shards(key, response)]
    if scheduler is None and client is None:
        results = []
        bar = _bar(progress, len(pairs))
        docs = 0
        for pair in pairs:
            results.append(task(pair, options, keep_pairs))
            if bar is not None:
                docs += len(results[-1].doc_ids)
                elapsed = bar.format_dict.get("elapsed") or 0.0
                bar.set_postfix(docs=docs, docs_per_s=f"{docs / elapsed:,.0f}" if elapsed else "-", refresh=False)
                bar.update(1)
        if bar is not None:
            bar.close()
        return _merge(results)
    own = None
    if client is None:
        client, own = open_client(scheduler)
    try:
        futures = client.map(task, pairs, options=options, keep_pairs=keep_pairs, pure=False, retries=retries)
        results = client.gather(futures)
    finally:
        if own is not None:
            client.close()
            own.close()
    return _merge(results)


def _bar(progress: bool, total: int) -> Any:
    """A tqdm bar with ETA and documents per second, on a terminal when asked (quiet otherwise)."""
    import sys

    if not progress or not sys.stderr.isatty():
        return None
    from tqdm import tqdm

    return tqdm(total=total, desc="shards", unit="shard", leave=False)


__all__ = ["SHARD_SUFFIXES", "open_client", "pair_shards", "score_shards", "shard_paths"]
