"""The benchmark modes as one function each, and :func:`run_benchmark` that dispatches on the mode.

Every comparison goes through :func:`spacy_anno_eval.spans.engine.evaluate` with the
gold of ``marked/`` as the key; the default mode then hands both evaluations to
:func:`.compare.compare_evaluations`. Results are JSON-ready dicts; the exit
code for CI is :data:`EXIT_OK` (0) unless the default mode finds a regression
(:data:`EXIT_REGRESSION`, 1). Bad input raises
:class:`~spacy_anno_eval.errors.InputError` (exit 2 in the CLI).
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...annotations.table import Corpus
from ...errors import ConfigError, InputError
from ...spans.counts import Evaluation
from . import MODES
from .compare import below_threshold, compare_evaluations
from .layout import BenchmarkDir, CleanCorpus, corpus_hash
from .settings import BenchmarkSettings
from .store import (
    DOCS,
    SHARD_SIZE,
    Baseline,
    _write_docs,
    get_baseline,
    import_baseline,
    model_info,
    run_pipeline,
    store_baseline,
)

EXIT_OK, EXIT_REGRESSION, EXIT_BAD_INPUT = 0, 1, 2


@dataclass
class BenchmarkResult:
    """A mode's result: the JSON-ready ``report``, the exit code, and the evaluations behind it."""

    report: dict[str, Any]
    exit_code: int = EXIT_OK
    evaluations: dict[str, Evaluation] = field(default_factory=dict)
    #: per scope, the Annotation Diff's documents and the number of documents with pairs, when the
    #: evaluation was scored window by window (its pairs are gone)
    diffs: dict[str, tuple[list[Any], int]] = field(default_factory=dict)

    def _repr_html_(self) -> str:
        """A notebook's view: the verdict and the per-type table (:mod:`spacy_anno_eval.report.notebook`)."""
        from ...report.notebook import benchmark_html

        return benchmark_html(self.report)


def load_marked(bench: BenchmarkDir, settings: BenchmarkSettings) -> Corpus:
    """The gold corpus of ``marked/`` with the key set and the significant features."""
    from ...spans.engine import load

    path, fmt = bench.marked_source()
    return load(str(path), [settings.key_set], fmt, settings.features, **settings.reader_options)


def _score_data(marked: Corpus, data: str | os.PathLike, fmt: str, settings: BenchmarkSettings) -> Evaluation:
    """A version's stored annotations (a folder or file in ``fmt``) read whole and scored against ``marked``."""
    from ...spans.engine import load

    return settings.evaluate(marked, load(str(data), [settings.response_set], fmt, settings.features))


def _check_corpus(marked: Corpus, chash: str, what: str, bench: BenchmarkDir) -> None:
    mine = corpus_hash(marked.texts)
    if chash != mine:
        raise InputError(
            f"{what} was made from a corpus with hash {chash[:12]}... but the texts of {bench.marked} hash to "
            f"{mine[:12]}...: the texts differ, so offsets would not compare; store the baseline again from "
            f"this clean/ folder, or pick another baseline with --name")


def _references(bench: BenchmarkDir, settings: BenchmarkSettings) -> list[tuple[str, Any]]:
    """What imported results must match (:func:`.store.check_documents`): the documents of ``clean/`` and of
    ``marked/``, those that exist."""
    refs: list[tuple[str, Any]] = []
    if bench.clean.exists():
        refs.append((f"{bench.clean}/", lambda: ((d.doc_id, d.text) for d in CleanCorpus(bench.clean))))
    if bench.marked.is_dir():
        def marked() -> Any:
            corpus = load_marked(bench, settings)
            return zip(corpus.doc_ids, corpus.texts, strict=True)

        refs.append((f"{bench.marked}/", marked))
    return refs


def _check_baseline(marked: Corpus, baseline: Baseline, bench: BenchmarkDir) -> None:
    """Raise when ``baseline`` was made from other texts than those of ``marked/``."""
    _check_corpus(marked, baseline.manifest.get("corpus_hash", ""), f"baseline {baseline.name!r}", bench)


def score_baseline(bench: BenchmarkDir, baseline: Baseline, settings: BenchmarkSettings,
                   marked: Corpus | None = None) -> Evaluation:
    """Marked vs stored: the evaluation of ``baseline`` against ``marked/``."""
    marked = marked if marked is not None else load_marked(bench, settings)
    _check_baseline(marked, baseline, bench)
    return _score_data(marked, baseline.data, baseline.format, settings)


def score_current(bench: BenchmarkDir, nlp: Any, settings: BenchmarkSettings, marked: Corpus | None = None,
                  *, model: str | os.PathLike | None = None, quiet: bool = False,
                  batch_size: int = 256) -> tuple[Evaluation, dict[str, Any]]:
    """Marked vs current: run ``nlp`` on ``clean/`` into a temporary folder, score it, remove the folder."""
    marked = marked if marked is not None else load_marked(bench, settings)
    with current_docs(bench, nlp, marked, model=model, quiet=quiet, batch_size=batch_size) as (folder, info):
        return _score_data(marked, folder, "docbin", settings), info


@contextmanager
def current_docs(bench: BenchmarkDir, nlp: Any, marked: Corpus, *, model: str | os.PathLike | None = None,
                 quiet: bool = False, batch_size: int = 256) -> Iterator[tuple[Path, dict[str, Any]]]:
    """Run ``nlp`` on ``clean/`` into DocBin shards in a temporary folder; yield the folder and the run's
    manifest; remove the folder afterwards."""
    documents = CleanCorpus(bench.clean, nlp.vocab)
    _check_corpus(marked, documents.scan()[1], f"{bench.clean}", bench)
    with tempfile.TemporaryDirectory(prefix="anno-eval-current-") as tmp:
        folder = Path(tmp) / DOCS
        n_docs, n_ents = _write_docs(run_pipeline(nlp, documents, batch_size=batch_size, quiet=quiet), folder)
        yield folder, {"name": "current", **model_info(nlp, model), "n_docs": n_docs, "n_entities": n_ents}


def _score_versions(marked: Corpus, versions: list[tuple[Path, str]], settings: BenchmarkSettings,
                    verbose: bool, quiet: bool) -> Any:
    """Score the versions window by window (:mod:`.windows`); ``None`` when they do not split alike."""
    from .windows import score_windows

    return score_windows(marked, versions, settings, verbose=verbose, docs_per_chunk=SHARD_SIZE,
                         progress=not quiet)


def _scored(name: str, info: dict[str, Any], evaluation: Evaluation, settings: BenchmarkSettings,
            verbose: bool, rows: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    report = evaluation.report()
    out = {"name": name, "manifest": info, "report": report}
    if verbose:
        out["below_threshold"] = below_threshold(evaluation, report, settings, rows)
    return out


def _single(mode: str, scope: str, name: str, info: dict[str, Any], marked: Corpus,
            version: tuple[Path, str], settings: BenchmarkSettings, verbose: bool, quiet: bool) -> BenchmarkResult:
    """A marked-vs-* mode: one version against ``marked/``, window by window when it splits so."""
    scored = _score_versions(marked, [version], settings, verbose, quiet)
    if scored is None:
        ev = _score_data(marked, *version, settings)
        return BenchmarkResult({"mode": mode, "settings": settings.to_dict(),
                                scope: _scored(name, info, ev, settings, verbose)}, evaluations={scope: ev})
    (v,), _ = scored
    return BenchmarkResult({"mode": mode, "settings": settings.to_dict(),
                            scope: _scored(name, info, v.evaluation, settings, verbose, v.not_correct)},
                           evaluations={scope: v.evaluation}, diffs={scope: (v.diff, v.n_with_pairs)})


def _compare(mode: str, marked: Corpus, old: Baseline,
             new: tuple[str, dict[str, Any], Path, str], settings: BenchmarkSettings, verbose: bool,
             quiet: bool, client: Any = None) -> BenchmarkResult:
    """The default / verbose mode: ``old`` (a stored baseline) and the new version, against ``marked/``."""
    new_name, new_info, new_data, new_fmt = new
    scored = _score_versions(marked, [(old.data, old.format), (new_data, new_fmt)], settings, verbose, quiet)
    if scored is None:
        old_ev = _score_data(marked, old.data, old.format, settings)
        new_ev = _score_data(marked, new_data, new_fmt, settings)
        comparison = compare_evaluations(old_ev, new_ev, settings, old_name=old.name, new_name=new_name,
                                         client=client)
        rows_old = rows_new = None
    else:
        (o, n), changes = scored
        old_ev, new_ev = o.evaluation, n.evaluation
        comparison = compare_evaluations(old_ev, new_ev, settings, old_name=old.name, new_name=new_name,
                                         counts=(o.doc_type_counts, n.doc_type_counts, o.labels), changes=changes,
                                         client=client)
        rows_old, rows_new = o.not_correct, n.not_correct
    report = {"mode": mode, "settings": settings.to_dict(),
              "old": _scored(old.name, old.manifest, old_ev, settings, False, rows_old),
              "new": _scored(new_name, new_info, new_ev, settings, verbose, rows_new),
              "comparison": comparison}
    code = EXIT_REGRESSION if comparison["verdict"] == "regression" else EXIT_OK
    return BenchmarkResult(report, code, {"old": old_ev, "new": new_ev})


def run_benchmark(mode: str, path: str | os.PathLike, *, settings: BenchmarkSettings | None = None,
                  nlp: Any = None, model: str | os.PathLike | None = None, name: str | None = None,
                  against: str | None = None, predictions: str | os.PathLike | None = None,
                  predictions_format: str = "auto", force: bool = False, verbose: bool = False,
                  quiet: bool = False, batch_size: int = 256, client: Any = None) -> BenchmarkResult:
    """Run one benchmark ``mode`` (see :data:`spacy_anno_eval.workflows.benchmark.MODES`) on the folder ``path``.

    ``nlp`` (a loaded pipeline) or ``model`` (a path or package name, loaded
    with ``spacy.load``) is the current version; ``name`` picks the stored
    baseline (store: names it); ``against`` compares the baseline with another
    stored one instead of running a pipeline; ``predictions`` (store) imports
    results from a file instead of running a pipeline; ``client``: an open
    Dask client for the significance samples (the same result as without).
    """
    if mode not in MODES:
        raise ConfigError(f"unknown benchmark mode {mode!r}; use one of {', '.join(MODES)}")
    settings = settings or BenchmarkSettings()
    verbose = verbose or mode == "verbose"
    if predictions is not None and mode != "store":
        raise ConfigError(f"--predictions is for the store mode; {mode!r} reads stored baselines "
                          f"(store the file first, then compare with --against)")
    if against is not None and (nlp is not None or model is not None):
        raise ConfigError("give either a pipeline (--model) or a stored baseline (--against) as the "
                          "current version, not both")
    if against is not None and mode not in ("default", "verbose"):
        raise ConfigError(f"--against is for the default and verbose modes, not {mode!r}")
    need = {"store": ("clean",), "marked-vs-stored": ("marked", "processed")}.get(mode, ("clean", "marked"))
    if mode in ("default", "verbose") and against is not None:
        need = ("marked", "processed")
    if mode == "store" and predictions is not None:
        need = ()
    bench = BenchmarkDir.open(path, need=need)

    def pipeline() -> Any:
        if nlp is not None:
            return nlp
        if model is None:
            raise ConfigError(f"mode {mode!r} runs a pipeline: give --model PATH_OR_PACKAGE")
        import spacy

        try:
            return spacy.load(model)
        except OSError as err:
            raise InputError(f"cannot load the pipeline {model!r}: {str(err).splitlines()[0]}") from err

    if mode == "store":
        if predictions is not None:
            if name is None:
                raise ConfigError("store --predictions needs --name for the baseline")
            baseline = import_baseline(bench, predictions, name=name, force=force, fmt=predictions_format,
                                       selector=settings.response_set, features=settings.features,
                                       references=_references(bench, settings),
                                       reader_options=settings.reader_options)
        else:
            baseline = store_baseline(bench, pipeline(), name=name, force=force, model=model, quiet=quiet,
                                      batch_size=batch_size)
        return BenchmarkResult({"mode": mode, "baseline": baseline.manifest, "path": str(baseline.path)})

    marked = load_marked(bench, settings)
    if mode == "marked-vs-stored":
        baseline = get_baseline(bench, name)
        _check_baseline(marked, baseline, bench)
        return _single(mode, "stored", baseline.name, baseline.manifest, marked,
                       (baseline.data, baseline.format), settings, verbose, quiet)
    if mode == "marked-vs-current":
        with current_docs(bench, pipeline(), marked, model=model, quiet=quiet, batch_size=batch_size) as (folder,
                                                                                                         info):
            return _single(mode, "current", "current", info, marked, (folder, "docbin"), settings,
                           verbose, quiet)
    # default / verbose: stored (old) vs current (new)
    if against is not None:
        new_baseline = get_baseline(bench, against)
        old_baseline = get_baseline(bench, name, exclude=[new_baseline.name])
        for baseline in (old_baseline, new_baseline):
            _check_baseline(marked, baseline, bench)
        return _compare(mode, marked, old_baseline, (new_baseline.name, new_baseline.manifest,
                                                             new_baseline.data, new_baseline.format),
                        settings, verbose, quiet, client)
    old_baseline = get_baseline(bench, name)
    _check_baseline(marked, old_baseline, bench)
    with current_docs(bench, pipeline(), marked, model=model, quiet=quiet, batch_size=batch_size) as (folder, info):
        return _compare(mode, marked, old_baseline, ("current", info, folder, "docbin"), settings, verbose,
                        quiet, client)


__all__ = ["EXIT_BAD_INPUT", "EXIT_OK", "EXIT_REGRESSION", "BenchmarkResult", "load_marked", "run_benchmark",
           "score_baseline", "score_current"]
