"""The benchmark modes as one function each, and :func:`run_benchmark` that dispatches on the mode.

Every comparison goes through :func:`spacy_anno_eval.engine.evaluate` with the
gold of ``marked/`` as the key; the default mode then hands both evaluations to
:func:`.compare.compare_evaluations`. Results are JSON-ready dicts; the exit
code for CI is :data:`EXIT_OK` (0) unless the default mode finds a regression
(:data:`EXIT_REGRESSION`, 1). Bad input raises
:class:`~spacy_anno_eval.errors.AnnoEvalInputError` (exit 2 in the CLI).
"""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..annotations import Corpus
from ..corpus import Evaluation
from ..errors import AnnoEvalInputError
from . import MODES
from .compare import below_threshold, compare_evaluations
from .layout import BenchmarkDir, clean_documents, corpus_hash
from .settings import BenchmarkSettings
from .store import DOCS, Baseline, _write_docs, get_baseline, import_baseline, model_info, run_pipeline, store_baseline

EXIT_OK, EXIT_REGRESSION, EXIT_BAD_INPUT = 0, 1, 2


@dataclass
class BenchmarkResult:
    """A mode's result: the JSON-ready ``report``, the exit code, and the evaluations behind it."""

    report: dict[str, Any]
    exit_code: int = EXIT_OK
    evaluations: dict[str, Evaluation] = field(default_factory=dict)


def load_marked(bench: BenchmarkDir, settings: BenchmarkSettings) -> Corpus:
    """The gold corpus of ``marked/`` with the key set and the significant features."""
    from ..engine import load

    path, fmt = bench.marked_source()
    return load(str(path), [settings.key_set], fmt, settings.features)


def _evaluate(marked: Corpus, response: Corpus, settings: BenchmarkSettings) -> Evaluation:
    from ..engine import evaluate

    return evaluate(marked, response, key_set=settings.key_set, response_set=settings.response_set,
                    types=settings.types, features=settings.features, beta=settings.beta,
                    pairing=settings.pairing)


def _check_corpus(marked: Corpus, chash: str, what: str, bench: BenchmarkDir) -> None:
    mine = corpus_hash(marked.texts)
    if chash != mine:
        raise AnnoEvalInputError(
            f"{what} was made from a corpus with hash {chash[:12]}... but the texts of {bench.marked} hash to "
            f"{mine[:12]}...: the texts differ, so offsets would not compare; store the baseline again from "
            f"this clean/ folder, or pick another baseline with --name")


def score_baseline(bench: BenchmarkDir, baseline: Baseline, settings: BenchmarkSettings,
                   marked: Corpus | None = None) -> Evaluation:
    """Marked vs stored: the evaluation of ``baseline`` against ``marked/``."""
    from ..engine import load

    marked = marked if marked is not None else load_marked(bench, settings)
    _check_corpus(marked, baseline.manifest.get("corpus_hash", ""), f"baseline {baseline.name!r}", bench)
    response = load(str(baseline.data), [settings.response_set], baseline.format, settings.features)
    return _evaluate(marked, response, settings)


def score_current(bench: BenchmarkDir, nlp: Any, settings: BenchmarkSettings, marked: Corpus | None = None,
                  *, model: str | os.PathLike | None = None, quiet: bool = False,
                  batch_size: int = 256) -> tuple[Evaluation, dict[str, Any]]:
    """Marked vs current: run ``nlp`` on ``clean/`` into a temporary folder, score it, remove the folder."""
    from ..engine import load

    marked = marked if marked is not None else load_marked(bench, settings)
    documents = clean_documents(bench.clean, nlp.vocab)
    _check_corpus(marked, corpus_hash(d.text for d in documents), f"{bench.clean}", bench)
    with tempfile.TemporaryDirectory(prefix="anno-eval-current-") as tmp:
        folder = Path(tmp) / DOCS
        n_docs, n_ents = _write_docs(run_pipeline(nlp, documents, batch_size=batch_size, quiet=quiet), folder)
        response = load(str(folder), [settings.response_set], "docbin", settings.features)
        evaluation = _evaluate(marked, response, settings)
    info = {"name": "current", **model_info(nlp, model), "n_docs": n_docs, "n_entities": n_ents}
    return evaluation, info


def _scored(name: str, info: dict[str, Any], evaluation: Evaluation, settings: BenchmarkSettings,
            verbose: bool) -> dict[str, Any]:
    report = evaluation.report()
    out = {"name": name, "manifest": info, "report": report}
    if verbose:
        out["below_threshold"] = below_threshold(evaluation, report, settings)
    return out


def run_benchmark(mode: str, path: str | os.PathLike, *, settings: BenchmarkSettings | None = None,
                  nlp: Any = None, model: str | os.PathLike | None = None, name: str | None = None,
                  against: str | None = None, predictions: str | os.PathLike | None = None,
                  predictions_format: str = "auto", force: bool = False, verbose: bool = False,
                  quiet: bool = False, batch_size: int = 256) -> BenchmarkResult:
    """Run one benchmark ``mode`` (see :data:`spacy_anno_eval.benchmark.MODES`) on the folder ``path``.

    ``nlp`` (a loaded pipeline) or ``model`` (a path or package name, loaded
    with ``spacy.load``) is the current version; ``name`` picks the stored
    baseline (store: names it); ``against`` compares the baseline with another
    stored one instead of running a pipeline; ``predictions`` (store) imports
    results from a file instead of running a pipeline.
    """
    if mode not in MODES:
        raise AnnoEvalInputError(f"unknown benchmark mode {mode!r}; use one of {', '.join(MODES)}")
    settings = settings or BenchmarkSettings()
    verbose = verbose or mode == "verbose"
    if predictions is not None and mode != "store":
        raise AnnoEvalInputError(f"--predictions is for the store mode; {mode!r} reads stored baselines "
                                 f"(store the file first, then compare with --against)")
    if against is not None and (nlp is not None or model is not None):
        raise AnnoEvalInputError("give either a pipeline (--model) or a stored baseline (--against) as the "
                                 "current version, not both")
    if against is not None and mode not in ("default", "verbose"):
        raise AnnoEvalInputError(f"--against is for the default and verbose modes, not {mode!r}")
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
            raise AnnoEvalInputError(f"mode {mode!r} runs a pipeline: give --model PATH_OR_PACKAGE")
        import spacy

        try:
            return spacy.load(model)
        except OSError as err:
            raise AnnoEvalInputError(f"cannot load the pipeline {model!r}: {str(err).splitlines()[0]}") from err

    if mode == "store":
        if predictions is not None:
            if name is None:
                raise AnnoEvalInputError("store --predictions needs --name for the baseline")
            baseline = import_baseline(bench, predictions, name=name, force=force, fmt=predictions_format,
                                       selector=settings.response_set, features=settings.features)
        else:
            baseline = store_baseline(bench, pipeline(), name=name, force=force, model=model, quiet=quiet,
                                      batch_size=batch_size)
        return BenchmarkResult({"mode": mode, "baseline": baseline.manifest, "path": str(baseline.path)})

    marked = load_marked(bench, settings)
    if mode == "marked-vs-stored":
        baseline = get_baseline(bench, name)
        ev = score_baseline(bench, baseline, settings, marked)
        return BenchmarkResult({"mode": mode, "settings": settings.to_dict(),
                                "stored": _scored(baseline.name, baseline.manifest, ev, settings, verbose)},
                               evaluations={"stored": ev})
    if mode == "marked-vs-current":
        ev, info = score_current(bench, pipeline(), settings, marked, model=model, quiet=quiet,
                                 batch_size=batch_size)
        return BenchmarkResult({"mode": mode, "settings": settings.to_dict(),
                                "current": _scored("current", info, ev, settings, verbose)},
                               evaluations={"current": ev})
    # default / verbose: stored (old) vs current (new)
    if against is not None:
        new_baseline = get_baseline(bench, against)
        old_baseline = get_baseline(bench, name, exclude=[new_baseline.name])
        new_ev = score_baseline(bench, new_baseline, settings, marked)
        new_name, new_info = new_baseline.name, new_baseline.manifest
    else:
        old_baseline = get_baseline(bench, name)
        new_ev, new_info = score_current(bench, pipeline(), settings, marked, model=model, quiet=quiet,
                                         batch_size=batch_size)
        new_name = "current"
    old_ev = score_baseline(bench, old_baseline, settings, marked)
    comparison = compare_evaluations(old_ev, new_ev, settings, old_name=old_baseline.name, new_name=new_name)
    report = {"mode": mode, "settings": settings.to_dict(),
              "old": _scored(old_baseline.name, old_baseline.manifest, old_ev, settings, False),
              "new": _scored(new_name, new_info, new_ev, settings, verbose),
              "comparison": comparison}
    code = EXIT_REGRESSION if comparison["verdict"] == "regression" else EXIT_OK
    return BenchmarkResult(report, code, {"old": old_ev, "new": new_ev})


__all__ = ["EXIT_BAD_INPUT", "EXIT_OK", "EXIT_REGRESSION", "BenchmarkResult", "load_marked", "run_benchmark",
           "score_baseline", "score_current"]
