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
to a hidden temporary folder ``processed/.tmp-NAME-*`` and renamed into place
at the end. An exception half-way (a crashing component, Ctrl-C) removes the
temporary folder and leaves every earlier baseline byte for byte as it was.
When ``NAME`` exists, the new baseline becomes ``NAME@2`` (``@3``, ...) unless
``force=True``, which never takes the old baseline away before the new one is
in: the finished temporary folder moves *into* ``NAME/`` as ``vSEQ-HEX/``, its
manifest (``"data": "vSEQ-HEX/docs"``) then replaces ``NAME/manifest.json`` in
one :func:`os.replace`, and only then is the old data removed. So ``NAME``
resolves to the complete old or the complete new baseline at every instant,
even under ``kill -9``. (A baseline's data is wherever its manifest's
``"data"`` says, relative to its folder, so older baselines, with ``docs/``
or ``predictions.jsonl`` next to the manifest, read as before.)

Concurrency and leftovers: the sequence number and the free name are chosen,
and the folder renamed into place, under an exclusive ``flock`` on
``processed/`` itself, so concurrent stores get distinct names and sequence
numbers. Each store also holds a lock on its own temporary folder while it
works; the next store removes temporary folders nobody holds (those of killed
stores) and data folders no manifest refers to (a ``--force`` killed
half-way). Folders get the permissions ``mkdir`` gives (0o777 less the umask).

Names come from the model (``{lang}_{name}-{version}``) or the user and must
be plain folder names: letters, digits, ``.``, ``_``, ``-``, ``+``, ``@``; no
separators, no leading dot, so no name can point outside ``processed/``.
"""

from __future__ import annotations

import hashlib
import itertools
import os
import re
import secrets
import shutil
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ...errors import ConfigError, InputError
from ...files import json_text, umask, write_json
from ...io.parse import json_file
from .layout import BenchmarkDir, CleanCorpus, CleanDocument, corpus_hash

MANIFEST = "manifest.json"
DOCS = "docs"
PREDICTIONS = "predictions.jsonl"
SHARD_SIZE = 10_000
FORMAT_VERSION = 1
TMP_PREFIX = ".tmp-"
_LEGACY_OLD_PREFIX = ".old-"  # where earlier versions moved a baseline aside during --force
_NAME = re.compile(r"[A-Za-z0-9_+][A-Za-z0-9._+@-]{0,127}")
_PAYLOAD = re.compile(r"v[0-9]+-[0-9a-f]{8}")  # the data folder a --force moves into NAME/

try:
    import fcntl
except ImportError:  # pragma: no cover - no flock (Windows): no lock, and temporaries are never taken as stale
    fcntl = None  # type: ignore[assignment]


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
        data = json_file(manifest, expected="remove or repair the baseline")
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


def _flock(fd: int, blocking: bool = True) -> bool:
    """An exclusive ``flock`` on ``fd``; ``False`` when ``blocking`` is off and someone else holds it."""
    if fcntl is None:  # pragma: no cover
        return True
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | (0 if blocking else fcntl.LOCK_NB))
    except BlockingIOError:
        return False
    return True


@contextmanager
def _locked(processed: Path) -> Iterator[None]:
    """Hold the store lock of ``processed/`` (an exclusive ``flock`` on the folder itself; a ``.lock`` file
    in it where a file system cannot lock folders)."""
    from ...files import lock_folder

    with lock_folder(processed, _flock):
        yield


def _in_use(folder: Path) -> bool:
    """Whether a live store holds the lock of its temporary ``folder``."""
    if fcntl is None:  # pragma: no cover - cannot tell: leave it
        return True
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return False
    try:
        return not _flock(fd, blocking=False)
    except OSError:  # pragma: no cover
        return True
    finally:
        os.close(fd)


def _remove(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path, ignore_errors=True)
    else:
        path.unlink(missing_ok=True)


def _clean_leftovers(bench: BenchmarkDir) -> list[Baseline]:
    """Remove what killed stores left behind (under the store lock); return the baselines.

    - temporary folders ``.tmp-*`` no live store holds;
    - data folders inside a baseline that its manifest does not name (a ``--force`` killed between moving
      the new data in and removing the old);
    - ``.old-*`` folders of earlier versions' ``--force``: a baseline in one whose name is free is moved back.
    """
    processed = bench.processed
    for entry in sorted(processed.iterdir()):
        if entry.name.startswith(_LEGACY_OLD_PREFIX) and entry.is_dir() and not entry.is_symlink():
            for inner in entry.iterdir():
                if (inner / MANIFEST).is_file() and _NAME.fullmatch(inner.name) \
                        and not (processed / inner.name).exists():
                    os.rename(inner, processed / inner.name)
            _remove(entry)
        elif entry.name.startswith(TMP_PREFIX) and not _in_use(entry):
            _remove(entry)
    baselines = list_baselines(bench)
    for b in baselines:
        keep = Path(str(b.manifest["data"])).parts[:1]
        if not keep:
            continue
        for entry in b.path.iterdir():
            if entry.name not in keep and (entry.name in (DOCS, PREDICTIONS) or _PAYLOAD.fullmatch(entry.name)):
                _remove(entry)
    return baselines


def _new_temp(processed: Path, name: str) -> tuple[Path, int]:
    """A temporary folder for a store of ``name`` with normal permissions, and the fd holding its lock."""
    tmp = Path(tempfile.mkdtemp(prefix=f"{TMP_PREFIX}{name}-", dir=processed))
    os.chmod(tmp, 0o777 & ~umask())
    fd = os.open(tmp, os.O_RDONLY)
    _flock(fd, blocking=False)  # new, so free; taken under the store lock, so no cleaner sees it unlocked
    return tmp, fd


def _sync(path: Path) -> None:
    """``fsync`` ``path`` (a file or a folder), so a rename after it cannot reach the disk before it."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    except OSError:  # pragma: no cover - a file system that cannot sync folders
        pass
    finally:
        os.close(fd)


def _sync_tree(folder: Path) -> None:
    for path in sorted(folder.rglob("*"), reverse=True):
        if not path.is_symlink():
            _sync(path)
    _sync(folder)


def _write_manifest(folder: Path, manifest: dict[str, Any]) -> None:
    write_json(folder / MANIFEST, manifest)


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

    from ...annotations.docs import entity_count

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
        n_ents += entity_count(doc)
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


def _force_into(target: Path, old: Baseline, tmp: Path, manifest: dict[str, Any]) -> Path:
    """``--force`` onto the baseline ``old`` at ``target``: move ``tmp`` in as a data folder, swap the
    manifest in one rename, then remove the old data (see the module docstring)."""
    sub = f"v{manifest['sequence']}-{secrets.token_hex(4)}"
    manifest["data"] = f"{sub}/{manifest['data']}"
    _write_manifest(tmp, manifest)
    os.rename(tmp, target / sub)
    os.replace(target / sub / MANIFEST, target / MANIFEST)  # the instant the name turns to the new baseline
    old_top = Path(str(old.manifest["data"])).parts[:1]
    if old_top and old_top[0] != sub and (old_top[0] in (DOCS, PREDICTIONS) or _PAYLOAD.fullmatch(old_top[0])):
        _remove(target / old_top[0])
    return target


def _commit(bench: BenchmarkDir, tmp: Path, name: str, force: bool, manifest: dict[str, Any]) -> Path:
    """Under the store lock: give ``manifest`` its sequence number and name, and move the finished ``tmp``
    to ``processed/name`` (or the next free ``name@k``; with ``force``, into ``name``)."""
    processed = bench.processed
    baselines = _clean_leftovers(bench)
    manifest["sequence"] = max((int(b.manifest.get("sequence", 0)) for b in baselines), default=0) + 1
    target = processed / name
    if force:
        old = next((b for b in baselines if b.name == name), None)
        if old is not None:
            manifest["name"] = name
            return _force_into(target, old, tmp, manifest)
        if target.exists() or target.is_symlink():  # not a baseline: set aside for the next store to remove
            os.rename(target, processed / f"{TMP_PREFIX}{name}-replaced-{secrets.token_hex(4)}")
    for _ in range(100):
        target = processed / _next_free(processed, name)
        manifest["name"] = target.name
        _write_manifest(tmp, manifest)
        try:
            os.rename(tmp, target)  # fails if a folder of that name appeared meanwhile (a store not locking)
            return target
        except OSError:
            if not target.exists():
                raise
    raise InputError(f"{processed}: could not find a free name for baseline {name!r}")


def _store(bench: BenchmarkDir, name: str, force: bool, write: Callable[[Path], dict[str, Any]]) -> Baseline:
    """Run ``write(tmp_folder) -> manifest`` in a temporary folder and commit it atomically."""
    check_name(name)
    bench.processed.mkdir(parents=True, exist_ok=True)
    with _locked(bench.processed):
        _clean_leftovers(bench)
        tmp, tmp_lock = _new_temp(bench.processed, name)
    try:
        manifest = write(tmp)
        _sync_tree(tmp)
        with _locked(bench.processed):
            target = _commit(bench, tmp, name, force, manifest)
            _sync(target)
            _sync(bench.processed)
    except BaseException:
        _remove(tmp)
        raise
    finally:
        os.close(tmp_lock)
    return Baseline(target, manifest)


def store_baseline(bench: BenchmarkDir, nlp: Any, *, name: str | None = None, force: bool = False,
                   model: str | os.PathLike | None = None, batch_size: int = 256,
                   quiet: bool = False) -> Baseline:
    """Run ``nlp`` on ``clean/`` and store the Docs as a baseline (see the module docstring)."""
    documents = CleanCorpus(bench.clean, nlp.vocab)
    _, chash = documents.scan()
    name = check_name(name) if name is not None else model_label(nlp)
    started = time.perf_counter()

    def write(tmp: Path) -> dict[str, Any]:
        n_docs, n_ents = _write_docs(run_pipeline(nlp, documents, batch_size=batch_size, quiet=quiet), tmp / DOCS)
        extra = {**model_info(nlp, model), "n_entities": n_ents,
                 "seconds": round(time.perf_counter() - started, 3)}
        return _manifest(name, 0, "model", chash, n_docs, DOCS, "docbin", extra)  # sequence: set at commit

    return _store(bench, name, force, write)


def _snippet(text: str, at: int) -> str:
    part = text[at:at + 20]
    return repr(part + "..." if len(text) > at + 20 else part) if part else "the end"


def check_documents(source: str | os.PathLike, ids: Sequence[str], texts: Sequence[str], what: str,
                    reference: Iterable[tuple[str, str]]) -> None:
    """Raise :class:`InputError` naming the first document where ``ids``/``texts`` (of ``source``) and the
    (id, text) pairs of ``reference`` (``what``, e.g. ``clean/``) differ: one missing on either side, or
    another text (with the first differing character)."""
    mine: dict[str, str] = {}
    for doc_id, text in zip(ids, texts, strict=True):
        if doc_id in mine:
            raise InputError(f"{source}: document {doc_id!r} occurs twice; ids must be unique")
        mine[doc_id] = text
    seen = set()
    for doc_id, text in reference:
        seen.add(doc_id)
        if doc_id not in mine:
            raise InputError(f"{source}: document {doc_id!r} of {what} is missing ({len(mine)} documents here); "
                             f"the results must be for the same documents as {what}")
        if mine[doc_id] != text:
            at = next((i for i, (a, b) in enumerate(zip(mine[doc_id], text, strict=False)) if a != b),
                      min(len(text), len(mine[doc_id])))
            raise InputError(f"{source}: document {doc_id!r}: the text differs from {what} at character {at} "
                             f"({_snippet(mine[doc_id], at)} here, {_snippet(text, at)} there); the results must "
                             f"be for the same texts")
    for doc_id in mine:
        if doc_id not in seen:
            raise InputError(f"{source}: document {doc_id!r} is not in {what}; the results must be for the "
                             f"same documents as {what}")


def import_baseline(bench: BenchmarkDir, predictions: str | os.PathLike, *, name: str, force: bool = False,
                    fmt: str = "auto", selector: str = "ents", features: Iterable[str] | None = None,
                    reader_options: dict[str, Any] | None = None,
                    references: Sequence[tuple[str, Callable[[], Iterable[tuple[str, str]]]]] = ()) -> Baseline:
    """Store the annotations ``selector`` of an existing file (any reader's format) as a baseline.

    For results made elsewhere (another tool, a shared task submission): the
    spans are written as ``predictions.jsonl`` (text, spans, ``meta.id``).
    ``references``: (what, a function giving (id, text) pairs) of the corpora
    the file must match (:func:`check_documents`), checked before anything is
    written.
    """
    from ...io import read_corpus

    check_name(name)
    corpus = read_corpus(predictions, format=fmt, selectors=[selector], features=list(features or []) or None,
                         **(reader_options or {}))
    for what, documents in references:
        check_documents(predictions, corpus.doc_ids, corpus.texts, what, documents())
    table = corpus.get_set(selector)

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
            lines.append(json_text({"text": text, "spans": spans, "meta": {"id": doc_id}}))
        write_text(tmp / PREDICTIONS, "\n".join(lines) + "\n")
        extra = {"model": {"name": name, "version": None, "lang": None, "pipeline": [],
                           "path": os.fspath(predictions)}, "config_hash": None, "n_entities": len(table)}
        return _manifest(name, 0, "predictions", corpus_hash(corpus.texts), len(corpus), PREDICTIONS,
                         "jsonl", extra)  # sequence: set at commit

    return _store(bench, name, force, write)


__all__ = ["Baseline", "check_documents", "check_name", "get_baseline", "import_baseline", "list_baselines",
           "model_label", "run_pipeline", "store_baseline"]
