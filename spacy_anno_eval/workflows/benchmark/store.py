"""Stored baselines in ``processed/``: written atomically, versioned, never half-overwritten.

A baseline is a folder ``processed/NAME/`` holding ``manifest.json`` and the
results: ``docs/`` (DocBin shards of the pipeline's Docs, each with
``user_data["doc_id"]``) when a pipeline ran, or ``predictions.jsonl`` when
the results were imported from a file (``--predictions``). The manifest
records what produced them: the model's name, version, language and
components, the SHA-256 of its config, the spaCy and toolkit versions, the
time, a sequence number (the newest baseline is the one with the highest),
the corpus hash (:func:`.layout.corpus_hash`) and the document count.

Atomicity (GATE overwrites its datastore; we never do): everything is written
to a hidden temporary folder in ``processed/`` and renamed into place at the
end. An exception half-way (a crashing component, Ctrl-C) removes the
temporary folder and leaves every earlier baseline byte for byte as it was.
When ``NAME`` exists, the new baseline becomes ``NAME@2`` (``@3``, ...) unless
``force=True``, which swaps the old folder out only after the new one is
complete.

Names come from the model (``{lang}_{name}-{version}``) or the user and must
be plain folder names: letters, digits, ``.``, ``_``, ``-``, ``+``, ``@``; no
separators, no leading dot, so no name can point outside ``processed/``.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import os
import re
import shutil
import tempfile
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ...errors import ConfigError, InputError
from .layout import BenchmarkDir, CleanCorpus, CleanDocument, corpus_hash

MANIFEST = "manifest.json"
DOCS = "docs"
PREDICTIONS = "predictions.jsonl"
SHARD_SIZE = 10_000
FORMAT_VERSION = 1
_NAME = re.compile(r"[A-Za-z0-9_+][A-Za-z0-9._+@-]{0,127}")


def check_name(name: str) -> str:
    """``name`` if it is a safe baseline folder name, else raise naming the rule."""
    if not isinstance(name, str) or not _NAME.fullmatch(name):
        raise ConfigError(f"baseline name {name!r}: use 1-128 letters, digits, '.', '_', '-', '+' or '@', "
                          f"not starting with '.', '-' or '@' (it becomes a folder in processed/)")
    return name


def model_label(nlp: Any) -> str:
    """``{lang}_{name}-{version}`` from the pipeline's meta, made a safe folder name."""
    meta = getattr(nlp, "meta", {}) or {}
    raw = f"{meta.get('lang') or getattr(nlp, 'lang', 'xx')}_{meta.get('name') or 'pipeline'}-" \
          f"{meta.get('version') or '0.0.0'}"
    safe = re.sub(r"[^A-Za-z0-9._+-]", "_", raw).lstrip(".-") or "pipeline"
    return safe[:120]


@dataclass
class Baseline:
    """A stored baseline: its folder and manifest."""

    path: Path
    manifest: dict[str, Any]

    @property
    def name(self) -> str:
        return self.path.name

    @property
    def data(self) -> Path:
        return self.path / self.manifest["data"]

    @property
    def format(self) -> str:
        return self.manifest["format"]


def list_baselines(bench: BenchmarkDir) -> list[Baseline]:
    """Every complete baseline in ``processed/``, oldest first (by sequence number)."""
    if not bench.processed.is_dir():
        return []
    found = []
    for folder in bench.processed.iterdir():
        if folder.name.startswith(".") or not folder.is_dir():
            continue
        manifest = folder / MANIFEST
        if not manifest.is_file():
            continue
        try:
            data = json.loads(manifest.read_text(encoding="utf-8"))
        except (json.JSONDecodeError, UnicodeDecodeError, OSError) as err:
            raise InputError(f"{manifest}: unreadable manifest ({err}); remove or repair the "
                             f"baseline") from err
        if not isinstance(data, dict) or "data" not in data or "format" not in data:
            raise InputError(f"{manifest}: not a baseline manifest (no 'data'/'format'); remove or repair the "
                             f"baseline")
        sequence = data.get("sequence", 0)
        if isinstance(sequence, bool) or not isinstance(sequence, int):
            raise InputError(f"{manifest}: \"sequence\" must be a whole number, got {sequence!r}; remove or "
                             f"repair the baseline")
        found.append(Baseline(folder, data))
    return sorted(found, key=lambda b: (int(b.manifest.get("sequence", 0)), b.name))


def get_baseline(bench: BenchmarkDir, name: str | None = None, *, exclude: Iterable[str] = ()) -> Baseline:
    """The baseline ``name``, or the newest one (not in ``exclude``); raise when there is none."""
    baselines = list_baselines(bench)
    if name is not None:
        check_name(name)
        for b in baselines:
            if b.name == name:
                return b
        known = ", ".join(b.name for b in baselines) or "none"
        raise InputError(f"{bench.processed}: no baseline named {name!r} (stored: {known})")
    skip = set(exclude)
    candidates = [b for b in baselines if b.name not in skip]
    if not candidates:
        raise InputError(f"{bench.processed}: no stored baseline; run 'anno-eval benchmark store "
                                 f"{bench.root} --model MODEL' first")
    return candidates[-1]


def _next_free(processed: Path, name: str) -> str:
    if not (processed / name).exists():
        return name
    k = 2
    while (processed / f"{name}@{k}").exists():
        k += 1
    return f"{name}@{k}"


def _sequence(bench: BenchmarkDir) -> int:
    return max((int(b.manifest.get("sequence", 0)) for b in list_baselines(bench)), default=0) + 1


def _progress(iterable: Iterable[Any], total: int, desc: str, quiet: bool) -> Iterator[Any]:
    """``iterable`` with a progress bar (documents per second, ETA) on a terminal; nothing when quiet or not a
    TTY (:func:`spacy_anno_eval.progress.progress_bar`)."""
    from ...progress import progress_bar

    with progress_bar(total, desc, "doc", enabled=not quiet) as bar:
        for item in iterable:
            yield item
            bar.update(1)


def input_docs(nlp: Any, documents: Iterable[CleanDocument]) -> Iterator[Any]:
    """Unannotated Docs for the pipeline: a DocBin's words kept, other texts tokenized by ``nlp``."""
    from spacy.tokens import Doc

    for d in documents:
        if d.words is not None:
            doc = Doc(nlp.vocab, words=d.words, spaces=d.spaces)
        else:
            doc = nlp.make_doc(d.text)
        doc.user_data["doc_id"] = d.doc_id
        yield doc


def run_pipeline(nlp: Any, documents: Iterable[CleanDocument], *, batch_size: int = 256,
                 quiet: bool = False) -> Iterator[Any]:
    """``nlp.pipe`` over ``documents`` (a list or a :class:`~.layout.CleanCorpus`, read once, a batch at a
    time; with a progress bar), checking each result keeps its text."""
    total = len(documents) if hasattr(documents, "__len__") else None
    mine, theirs = itertools.tee(documents)  # holds only the documents nlp.pipe has read ahead
    docs = nlp.pipe(input_docs(nlp, theirs), batch_size=batch_size)
    for d, doc in zip(mine, _progress(docs, total, "annotating", quiet), strict=True):
        if doc.text != d.text:
            raise InputError(f"document {d.doc_id!r}: the pipeline changed the text; a baseline must "
                                     f"keep the clean text so offsets compare with marked/")
        doc.user_data["doc_id"] = d.doc_id
        yield doc


def _write_docs(docs: Iterable[Any], folder: Path) -> tuple[int, int]:
    """DocBin shards of ``SHARD_SIZE`` docs in ``folder``; return (documents, entities)."""
    from spacy.tokens import DocBin

    folder.mkdir()
    n_docs = n_ents = shard = 0
    current = DocBin(store_user_data=True)

    def flush() -> None:
        nonlocal current, shard
        current.to_disk(folder / f"docs-{shard:05d}.spacy")
        shard += 1
        current = DocBin(store_user_data=True)

    for doc in docs:
        current.add(doc)
        n_docs += 1
        n_ents += len(doc.ents)
        if len(current) >= SHARD_SIZE:
            flush()
    if len(current) or not shard:
        flush()
    return n_docs, n_ents


def _manifest(name: str, sequence: int, source: str, chash: str, n_docs: int, data: str, fmt: str,
              extra: dict[str, Any]) -> dict[str, Any]:
    import spacy

    from ... import __version__

    return {"format_version": FORMAT_VERSION, "name": name, "sequence": sequence,
            "stored_at": datetime.now(UTC).isoformat(timespec="seconds"), "source": source,
            "corpus_hash": chash, "n_docs": n_docs, "data": data, "format": fmt,
            "spacy_version": spacy.__version__, "spacy_anno_eval_version": __version__, **extra}


def model_info(nlp: Any, model: str | os.PathLike | None = None) -> dict[str, Any]:
    """The model fields of a manifest: name, version, lang, components, config hash."""
    meta = getattr(nlp, "meta", {}) or {}
    config = nlp.config.to_str() if hasattr(nlp, "config") else ""
    return {"model": {"name": meta.get("name"), "version": meta.get("version"), "lang": meta.get("lang"),
                      "pipeline": list(getattr(nlp, "pipe_names", [])),
                      "path": os.fspath(model) if model is not None else None},
            "config_hash": hashlib.sha256(config.encode("utf-8")).hexdigest()}


def _commit(bench: BenchmarkDir, tmp: Path, name: str, force: bool) -> Path:
    """Rename the finished ``tmp`` into ``processed/name`` (or the next free ``name@k``)."""
    processed = bench.processed
    target = processed / name
    if force and target.exists():
        old = Path(tempfile.mkdtemp(prefix=f".old-{name}-", dir=processed))
        os.replace(target, old / name)
        try:
            os.replace(tmp, target)
        except BaseException:
            os.replace(old / name, target)
            raise
        shutil.rmtree(old, ignore_errors=True)
        return target
    for _ in range(100):
        target = processed / _next_free(processed, name)
        try:
            os.rename(tmp, target)  # fails if a folder of that name appeared meanwhile
            return target
        except OSError:
            if not target.exists():
                raise
    raise InputError(f"{processed}: could not find a free name for baseline {name!r}")


def _store(bench: BenchmarkDir, name: str, force: bool, write: Any) -> Baseline:
    """Run ``write(tmp_folder) -> manifest`` in a temporary folder and commit it atomically."""
    check_name(name)
    bench.processed.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".tmp-{name}-", dir=bench.processed))
    try:
        manifest = write(tmp)
        from ...files import write_text

        write_text(tmp / MANIFEST, json.dumps(manifest, indent=2, ensure_ascii=False) + "\n")
        target = _commit(bench, tmp, name, force)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    manifest["name"] = target.name
    if target.name != name:
        from ...files import write_text

        write_text(target / MANIFEST, json.dumps(manifest, indent=2, ensure_ascii=False) + "\n")
    return Baseline(target, manifest)


def store_baseline(bench: BenchmarkDir, nlp: Any, *, name: str | None = None, force: bool = False,
                   model: str | os.PathLike | None = None, batch_size: int = 256,
                   quiet: bool = False) -> Baseline:
    """Run ``nlp`` on ``clean/`` and store the Docs as a baseline (see the module docstring)."""
    documents = CleanCorpus(bench.clean, nlp.vocab)
    _, chash = documents.scan()
    name = check_name(name) if name is not None else model_label(nlp)
    sequence = _sequence(bench)
    started = time.perf_counter()

    def write(tmp: Path) -> dict[str, Any]:
        n_docs, n_ents = _write_docs(run_pipeline(nlp, documents, batch_size=batch_size, quiet=quiet), tmp / DOCS)
        extra = {**model_info(nlp, model), "n_entities": n_ents,
                 "seconds": round(time.perf_counter() - started, 3)}
        return _manifest(name, sequence, "model", chash, n_docs, DOCS, "docbin", extra)

    return _store(bench, name, force, write)


def import_baseline(bench: BenchmarkDir, predictions: str | os.PathLike, *, name: str, force: bool = False,
                    fmt: str = "auto", selector: str = "ents", features: Iterable[str] | None = None,
                    reader_options: dict[str, Any] | None = None) -> Baseline:
    """Store the annotations ``selector`` of an existing file (any reader's format) as a baseline.

    For results made elsewhere (another tool, a shared task submission): the
    spans are written as ``predictions.jsonl`` (text, spans, ``meta.id``).
    """
    from ...io import read_corpus

    check_name(name)
    corpus = read_corpus(predictions, format=fmt, selectors=[selector], features=list(features or []) or None,
                         **(reader_options or {}))
    table = corpus.get_set(selector)
    sequence = _sequence(bench)

    def write(tmp: Path) -> dict[str, Any]:
        from ...files import write_text

        lines = []
        bounds = table.doc.searchsorted(range(len(corpus) + 1)).tolist()
        labels = table.label_names().tolist()
        for d, (doc_id, text) in enumerate(zip(corpus.doc_ids, corpus.texts, strict=True)):
            spans = []
            for row in range(bounds[d], bounds[d + 1]):
                span = {"start": int(table.start[row]), "end": int(table.end[row]), "label": labels[row]}
                if table.features is not None and table.features[row]:
                    span["features"] = dict(table.features[row])
                spans.append(span)
            lines.append(json.dumps({"text": text, "spans": spans, "meta": {"id": doc_id}}, ensure_ascii=False))
        write_text(tmp / PREDICTIONS, "\n".join(lines) + "\n")
        extra = {"model": {"name": name, "version": None, "lang": None, "pipeline": [],
                           "path": os.fspath(predictions)}, "config_hash": None, "n_entities": len(table)}
        return _manifest(name, sequence, "predictions", corpus_hash(corpus.texts), len(corpus), PREDICTIONS,
                         "jsonl", extra)

    return _store(bench, name, force, write)


__all__ = ["Baseline", "check_name", "get_baseline", "import_baseline", "list_baselines", "model_label",
           "run_pipeline", "store_baseline"]
