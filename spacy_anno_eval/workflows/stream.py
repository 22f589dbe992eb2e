"""Scoring a corpus shard by shard: bounded memory in one process, or spread over a Dask cluster.

Every accumulator of an :class:`~spacy_anno_eval.spans.counts.Evaluation` is a sum
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
the in-process one exactly. Bad input in a shard raises its
:class:`~spacy_anno_eval.errors.InputError` once (not retried); a task whose
workers keep dying raises :class:`~spacy_anno_eval.errors.WorkerDiedError` naming the shard. Dask is the optional extra
``spacy-anno-eval[dask]``.
"""

from __future__ import annotations

import os
import traceback
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import islice
from typing import Any

from ..cluster import check_scheduler, dask_client
from ..errors import AnnoEvalError, InputError, WorkerDiedError  # WorkerDiedError: still importable from here
from ..io.units import StreamIds, Unit, read_unit, shard_units
from ..progress import progress_bar
from ..spans.counts import Evaluation
from ..spans.credit import CreditRule
from ..spans.parts import check_sets
from ..spans.settings import SpanSettings


def _span(options: dict[str, Any]) -> SpanSettings:
    """The span settings among ``options`` (validated once: :meth:`SpanSettings.split`)."""
    return SpanSettings.split(options)["settings"]


def pair_shards(key: str | os.PathLike, response: str | os.PathLike, fmt: str = "auto",
                docs_per_chunk: int | None = None, sharded: bool = True,
                options: dict[str, Any] | None = None) -> list[tuple[Unit, Unit]]:
    """Key and response units (:func:`shard_units`), paired by position; raise when their numbers differ.
    ``options``: the :func:`~spacy_anno_eval.spans.engine.evaluate` options (sets and reader options)."""
    options = options or {}
    read = dict(options.get("reader_options") or {})
    settings = _span(options)
    ks = shard_units(key, fmt, docs_per_chunk, sharded, selectors=[settings.key_set], **read)
    rs = shard_units(response, fmt, docs_per_chunk, sharded, selectors=[settings.response_set], **read)
    if len(ks) != len(rs):
        what, hint = ("chunks", " (the same documents in the same order)") if docs_per_chunk else ("shards", "")
        raise InputError(f"the key has {len(ks)} {what} ({key}) but the response {len(rs)} ({response}); "
                                 f"split both the same way{hint}")
    return list(zip(ks, rs, strict=True))


@dataclass
class ShardResult:
    """What one shard's task sends back: its evaluation (pairs dropped unless kept), the ids the key's file
    gives its documents when the shard is a chunk (``None`` per positional id; see
    :func:`spacy_anno_eval.io.chunks.global_doc_ids`), and what ``collect`` made of the shard."""

    evaluation: Evaluation
    found_ids: list[str | None] | None = None
    extras: Any = None
    names: SeenNames | None = None


@dataclass
class SeenNames:
    """The set, type and feature names one shard (or chunk) holds, merged over the stream, so that a name
    that matches nothing in the whole corpus is refused (DESIGN.md, Contracts: names are checked) while one
    that only some shards have is fine. A shard that is a whole corpus checks its own names in
    :func:`~spacy_anno_eval.spans.engine.evaluate`; the parts of a stream are checked here, once."""

    key_sets: set[str] | None = field(default_factory=set)       # None: a reader did not say
    response_sets: set[str] | None = field(default_factory=set)
    labels: set[str] = field(default_factory=set)
    carried: set[str] = field(default_factory=set)
    found_features: list[list[str] | None] = field(default_factory=list)
    parts: bool = False

    @classmethod
    def of(cls, kc: Any, rc: Any, key_set: str, response_set: str) -> SeenNames:
        from ..spans.engine import names_in

        names = cls(None if kc.found_sets is None else set(kc.found_sets),
                    None if rc.found_sets is None else set(rc.found_sets), parts=bool(kc.part or rc.part))
        for corpus, selector in ((kc, key_set), (rc, response_set)):
            labels, carried = names_in(corpus, [selector])
            names.labels |= labels
            names.carried |= carried
            if corpus.found_features not in names.found_features:
                names.found_features.append(corpus.found_features)
        return names

    def add(self, other: SeenNames) -> None:
        self.key_sets = None if self.key_sets is None or other.key_sets is None else self.key_sets | other.key_sets
        self.response_sets = (None if self.response_sets is None or other.response_sets is None
                              else self.response_sets | other.response_sets)
        self.labels |= other.labels
        self.carried |= other.carried
        self.found_features += [f for f in other.found_features if f not in self.found_features]
        self.parts = self.parts or other.parts

    def check(self, source: str, options: dict[str, Any]) -> None:
        """Raise :class:`InputError` for a set no shard holds, a type no annotation has or a feature no
        annotation carries, listing what exists."""
        from ..spans.engine import check_features, check_types

        settings = _span(options)
        key_set, response_set = settings.key_set, settings.response_set
        for side, selector, found in (("key", key_set, self.key_sets), ("response", response_set,
                                                                        self.response_sets)):
            check_sets([selector], found, f"{source}: no {side} document in any shard has")
        where_ = f"{source} ({key_set} vs {response_set}, every shard)"
        if settings.types:
            check_types(settings.types, self.labels, where_)
        if settings.features:
            check_features(settings.features, self.carried, self.found_features, where_)


def _read_pair(pair: tuple[Unit, Unit], options: dict[str, Any]) -> tuple[Any, Any, list[str | None] | None]:
    """The key and response corpora of a pair of units (:func:`read_unit`), and the key's found ids."""
    key, response = pair
    settings = _span(options)
    key_set, response_set = settings.key_set, settings.response_set
    read = dict(fmt=options.get("fmt", "auto"), features=list(settings.features) if settings.features else None,
                reader_options=options.get("reader_options"))
    if key == response:
        kc, found = read_unit(key, list(dict.fromkeys([key_set, response_set])), **read)
        return kc, kc, found
    kc, found = read_unit(key, [key_set], **read)
    rc, _ = read_unit(response, [response_set], **read)
    return kc, rc, found


def _score_pair(pair: tuple[Unit, Unit], options: dict[str, Any], keep_pairs: bool,
                collect: Callable[[Evaluation], Any] | None = None) -> ShardResult:
    """Score one pair of units; run ``collect`` on the evaluation while it still has its pairs."""
    from ..spans.engine import evaluate

    key, response, found = _read_pair(pair, options)
    settings = _span(options)
    names = SeenNames.of(key, response, settings.key_set, settings.response_set)
    chunked = not isinstance(pair[0], str)
    if not len(key) and not len(response):   # an empty shard, or a chunk of Prodigy reject/ignore lines only
        return ShardResult(_empty(), [], collect(None) if collect is not None else None, names)
    try:
        ev = evaluate(key, response, **options)
    except InputError as err:
        if not chunked:
            raise
        raise InputError(
            f"chunk {pair[0].index + 1} of {pair[0].path} (from line {pair[0].first_line}) and of {pair[1].path} "
            f"(from line {pair[1].first_line}): {err}. Chunks are cut every --chunk-docs documents on both "
            f"sides, Prodigy reject/ignore lines included: both files need the same documents in the same "
            f"order, or score without --chunk-docs") from err
    extras = collect(ev) if collect is not None else None
    return ShardResult(ev if keep_pairs else ev.without_pairs(), found, extras, names)


def _empty() -> Evaluation:
    """The evaluation of no documents (an empty shard, or a chunk whose lines were all left out)."""
    import numpy as np

    from ..spans.counts import N_FIELDS

    zeros = np.zeros((0, N_FIELDS), dtype=np.int64)
    return Evaluation([], [], zeros, zeros.copy(), None, {})


@dataclass
class _TaskError:
    """A shard task's :class:`AnnoEvalError`, sent back as a value: bad input fails the same way on every try,
    so it is neither retried nor logged by the worker; the client raises it."""

    error: AnnoEvalError


def _guarded(task: Any, pair: tuple[Unit, Unit], options: dict[str, Any], keep_pairs: bool,
             collect: Any = None) -> Any:
    """Run ``task`` on a worker; its :class:`AnnoEvalError` comes back as a :class:`_TaskError` (the worker's
    traceback attached as a note, which ``--debug`` prints)."""
    try:
        return task(pair, options, keep_pairs, collect)
    except AnnoEvalError as err:
        err.add_note("on the Dask worker:\n" + traceback.format_exc().rstrip())
        return _TaskError(err)


def _ordered_results(client: Any, task: Any, pairs: Sequence[tuple[Unit, Unit]], options: dict[str, Any],
                     keep_pairs: bool, collect: Any, retries: int) -> Iterator[ShardResult]:
    """The shards' results in shard order, with at most two tasks per worker thread submitted and not yet
    taken (a finished result waits on its worker until taken, so this bounds what the cluster holds);
    each future is released once taken, and the rest are cancelled if one fails."""
    ahead = max(2, 2 * sum(client.nthreads().values()))
    queue: deque[Any] = deque()
    shards: deque[tuple[Unit, Unit]] = deque()
    todo = iter(pairs)

    def submit(n: int) -> None:
        for pair in islice(todo, n):
            queue.append(client.submit(_guarded, task, pair, options=options, keep_pairs=keep_pairs,
                                       collect=collect, pure=False, retries=retries))
            shards.append(pair)

    submit(ahead)
    try:
        while queue:
            future, pair = queue.popleft(), shards.popleft()
            try:
                result = future.result()
            except Exception as err:
                if type(err).__name__ != "KilledWorker":  # distributed.scheduler.KilledWorker
                    raise
                tries = err.args[2] + 1 if len(err.args) > 2 and isinstance(err.args[2], int) else "several"
                raise WorkerDiedError(
                    f"shard {_file_of(pair[0])}: the Dask worker running it died, {tries} times (out of memory, "
                    f"or a crash in native code); give the workers more memory, or split the shard") from err
            future.release()
            if isinstance(result, _TaskError):
                raise result.error
            submit(1)
            yield result
    finally:
        if queue:
            client.cancel(list(queue))


def _merge(pairs: Sequence[tuple[Unit, Unit]], results: Sequence[ShardResult]) -> Evaluation:
    """The shards' evaluations as one, each document with the id reading the whole stream gives it
    (:class:`StreamIds`)."""
    evaluations = [r.evaluation for r in results]
    if not any(ev.doc_ids for ev in evaluations):
        raise InputError(f"{_file_of(pairs[0][0])}: no documents in any shard")
    merged = evaluations[0] if len(evaluations) == 1 else Evaluation.concat(evaluations)
    ids = StreamIds()
    for (key, _), result in zip(pairs, results, strict=True):
        ids.add(key, result.found_ids, result.evaluation.doc_ids)
    merged.doc_ids = ids.final()
    return merged


def _file_of(unit: Unit) -> str:
    return unit if isinstance(unit, str) else unit.path


def score_shards(key: str | os.PathLike, response: str | os.PathLike, *, scheduler: str | None = None,
                 client: Any = None, keep_pairs: bool = False, progress: bool = False, retries: int = 2,
                 task: Any = None, docs_per_chunk: int | None = None, sharded: bool = True,
                 credit: CreditRule | None = None, **options: Any) -> Evaluation:
    """The evaluation of ``key`` against ``response``, shard by shard (see the module docstring).

    ``options`` go to :func:`spacy_anno_eval.spans.engine.evaluate` (``key_set``,
    ``types``, ``pairing``, ...). ``credit``: a picklable credit rule (such as
    :class:`spacy_anno_eval.bdm.credit.BdmCredit`) run on each shard's pairs
    where the shard is scored; the sums merge exactly, so the merged report's
    credit figures (``report()["bdm"]``) equal those of the whole corpus at
    once. ``client``: an open ``distributed.Client``
    to use instead of ``scheduler``. ``docs_per_chunk``: read JSONL and CoNLL
    files in chunks of that many documents. ``task``: a picklable function
    ``(pair, options, keep_pairs, collect) -> ShardResult`` to run per shard
    instead of the default (for instrumentation: timing, fault injection in
    tests).
    """
    return scan_shards(key, response, scheduler=scheduler, client=client, keep_pairs=keep_pairs, progress=progress,
                       retries=retries, task=task, docs_per_chunk=docs_per_chunk, sharded=sharded, credit=credit,
                       **options)[0]


def scan_shards(key: str | os.PathLike, response: str | os.PathLike, *,
                collect: Callable[[Evaluation], Any] | None = None, consume: Callable[[Any], None] | None = None,
                scheduler: str | None = None, client: Any = None,
                keep_pairs: bool = False, progress: bool = False, retries: int = 2, task: Any = None,
                docs_per_chunk: int | None = None, sharded: bool = True, credit: CreditRule | None = None,
                **options: Any) -> tuple[Evaluation, list[Any]]:
    """:func:`score_shards`, and ``collect(evaluation)`` of every shard, run where the shard is scored
    while its pairs are still there (a picklable function; with Dask, on the worker; ``collect(None)`` for
    a chunk whose lines were all left out, such as Prodigy reject/ignore lines).

    ``consume``: called with each shard's ``collect`` result in shard order as
    soon as it is there (then not kept); without it the results are returned,
    in shard order, beside the merged evaluation. ``credit``: as in :func:`score_shards`.
    """
    task = task or _score_pair
    options = SpanSettings.split(options)  # every value checked before a shard is read
    if client is None and scheduler is not None:
        check_scheduler(scheduler)  # the Dask address too
    if credit is not None:
        options = {**options, "credit": credit}
    pairs = pair_shards(key, response, options.get("fmt", "auto"), docs_per_chunk, sharded, options)
    results: list[ShardResult] = []
    kept: list[Any] = []

    def take(result: ShardResult) -> None:
        if consume is not None:
            consume(result.extras)
        else:
            kept.append(result.extras)
        result.extras = None
        results.append(result)

    with progress_bar(len(pairs), "shards", "shard", enabled=progress) as bar, \
            dask_client(scheduler, client) as client:
        if client is None:
            shard_results: Iterator[ShardResult] = (task(pair, options, keep_pairs, collect) for pair in pairs)
        else:
            shard_results = _ordered_results(client, task, pairs, options, keep_pairs, collect, retries)
        for result in shard_results:
            take(result)
            bar.update(1, docs=len(result.evaluation.doc_ids))
    seen = [r.names for r in results if r.names is not None]
    if seen and any(n.parts for n in seen):
        whole = SeenNames()
        for names in seen:
            whole.add(names)
        whole.check(str(key), options)
    return _merge(pairs, results), kept


__all__ = ["SeenNames", "ShardResult", "WorkerDiedError", "pair_shards", "scan_shards", "score_shards"]
