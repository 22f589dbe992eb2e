"""Readers: turn files into a :class:`~spacy_anno_eval.annotations.table.Corpus`.

Built-in formats (name: suffixes):

- ``docbin``: spaCy DocBin (``.spacy``), read by :mod:`.docbin`;
- ``jsonl``: spaCy / Prodigy JSONL (``.jsonl``), read by :mod:`.jsonl`;
- ``conll``: token-per-line with BIO-style tags (``.conll``, ``.iob``, ``.iob2``,
  ``.bio``, ``.bioes``, ``.tsv``, ``.txt``), read by :mod:`.conll`;
- ``brat``: brat standoff (``.ann`` beside ``.txt``, or a folder of them), read by :mod:`.brat`.

Annotation tools' exports, one set per annotator, user, model version or
named set (:mod:`.multiset` holds the rules they share):

- ``gate``: GATE XML (``GateDocument``) and gatenlp's bdoc JSON (``.bdocjs``), read by :mod:`.gate`;
- ``xmi``: UIMA CAS XMI as INCEpTION exports it (``.xmi``, with its type system), read by :mod:`.xmi`;
- ``tsv3``: WebAnno / INCEpTION TSV3 (``.tsv`` starting ``#FORMAT=WebAnno TSV 3``), read by :mod:`.tsv3`;
- ``labelstudio``: Label Studio JSON exports (``.json``), read by :mod:`.labelstudio`;
- ``doccano``: doccano JSONL exports, read by :mod:`.doccano`;
- ``bioc``: BioC XML and JSON, read by :mod:`.bioc`;
- ``prodigy``: Prodigy JSONL with ``_annotator_id`` (one set per annotator), read by :mod:`.prodigy`;
- ``nif``: NIF 2.x Turtle (``.ttl``), read by :mod:`.nif`.

Where a suffix is shared (``.xml``, ``.json``, ``.jsonl``, ``.tsv``), the
file's beginning tells the format (:func:`detect_format`); a folder is read
in the format of the files it holds.

Every reader has the signature ``reader(path, *, selectors, features, **options) -> Corpus``.
``selectors`` are the annotation sets the caller wants (``ents``, ``spans:NAME``,
or a format's own names); readers of single-layer formats (JSONL spans, CoNLL
tags, brat entities) put that one layer under ``ents``, ``spans`` and any
``spans:NAME`` (CoNLL also reads ``column:N``) and refuse other names.

Names are checked (DESIGN.md, Contracts): :func:`read_corpus` refuses an
option the reader does not take (:func:`reader_options` lists those it takes;
a plugin reader with ``**options`` takes any), naming those it takes; an option
at the default a built-in reader gives it asks for nothing and passes. One set
of options for inputs of several formats (a key and a response) is split with
:func:`split_options`. A reader that knows which sets its documents hold
records them (``Corpus.found_sets``; DocBin span groups), so that a selector no
document holds can be refused.

A user plugs in a reader for their own format, as ANNALIST's plugin engine
allows, with :func:`register_reader` or through the ``spacy_anno_eval_readers``
entry point group (``name = package.module:function``)::

    from spacy_anno_eval.io import register_reader

    @register_reader("myformat", suffixes=(".myf",))
    def read_myformat(path, *, selectors=("ents",), features=None, **options):
        ...
        return Corpus(doc_ids, texts, {sel: table for sel in selectors}, source=str(path))
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .. import files as _files
from ..errors import ConfigError, InputError
from . import registry
from .sniff import SNIFFED as _SNIFFED
from .sniff import sniff_format

if TYPE_CHECKING:
    from ..annotations.table import Corpus

ReadFunction = Callable[..., "Corpus"]

#: the built-in span readers (:mod:`.registry`: every reader of the package, whatever it reads)
_BUILTIN: dict[str, registry.Reader] = {r.name: r for r in registry.BUILTIN if r.kind == "spans"}
_PLUGINS: dict[str, registry.Reader] = {}
_ENTRY_POINTS_LOADED = False
_ENTRY_POINTS_LOCK = threading.Lock()


def register_reader(name: str, suffixes: Sequence[str] = (), *, inputs: Callable[..., list[Path]] | None = None,
                    sample: Callable[[registry.Sample], registry.Files | None] | None = None
                    ) -> Callable[[ReadFunction], ReadFunction]:
    """Decorator: register ``reader`` for format ``name`` and file ``suffixes`` (a span corpus reader:
    :class:`.registry.Reader` of kind ``spans``). ``inputs(path, **options)``: every file the reader opens for
    ``path`` when it is more than the path itself (side files); ``sample(case)``: a sample file of the format,
    which the contract suite tries the reader on."""

    def decorate(function: ReadFunction) -> ReadFunction:
        _PLUGINS[name] = registry.register(registry.Reader(name, "spans", function,
                                                           tuple(s.lower() for s in suffixes), inputs=inputs,
                                                           sample=sample))
        return function

    return decorate


def unregister_reader(name: str) -> None:
    """Remove the plugin reader registered as ``name`` (:func:`register_reader`); a built-in reader that it
    replaced comes back. Nothing happens when no plugin has the name."""
    _PLUGINS.pop(name, None)
    registry.unregister(name)


def _load_entry_points() -> None:
    """Register the readers of the ``spacy_anno_eval_readers`` entry points, once (under a lock: the key and
    the response may be read in two threads). An entry point names a read function (a span reader) or a
    :class:`.registry.Reader`."""
    global _ENTRY_POINTS_LOADED
    with _ENTRY_POINTS_LOCK:
        if _ENTRY_POINTS_LOADED:
            return
        from importlib.metadata import entry_points

        for ep in entry_points(group="spacy_anno_eval_readers"):
            if ep.name not in _PLUGINS:
                loaded = ep.load()
                found = loaded if isinstance(loaded, registry.Reader) else registry.Reader(ep.name, "spans", loaded)
                registry.register(found)
                if found.kind == "spans":
                    _PLUGINS[ep.name] = found
        _ENTRY_POINTS_LOADED = True


def formats() -> list[str]:
    """Names of every available format."""
    _load_entry_points()
    return sorted(set(_BUILTIN) | set(_PLUGINS))


def get_reader(name: str) -> ReadFunction:
    """The read function registered for format ``name``."""
    _load_entry_points()
    if name in _PLUGINS:
        return _PLUGINS[name].function()
    if name in _BUILTIN:
        return _BUILTIN[name].function()
    raise InputError(f"unknown format {name!r}: use auto or one of {', '.join(formats())}")


_FOLDER_SUFFIXES = (".ann", ".spacy", ".xmi", ".tsv", ".xml", ".bdocjs", ".json", ".jsonl", ".ttl")


def _detect_folder(p: Path) -> str:
    """A folder's format: that of the files it holds (brat for ``.ann`` files; else the first file, searched
    recursively in sorted order, whose format can be told). Files of several formats are refused."""
    if any(p.glob("*.ann")):
        return "brat"
    if any(p.glob("*.spacy")):
        return "docbin"
    found: dict[str, str] = {}
    for f in sorted(p.rglob("*")):
        if f.is_file() and f.suffix.lower() in _FOLDER_SUFFIXES and not f.name.startswith("."):
            name = sniff_format(f) if f.suffix.lower() in _SNIFFED else _by_suffix(f.name.lower())
            if name is not None:
                found.setdefault(name, str(f))
        if len(found) > 1:
            break
    if len(found) == 1:
        return next(iter(found))
    if found:
        kinds = ", ".join(f"{k}: {v}" for k, v in found.items())
        raise InputError(f"{p}: the folder holds files of several formats ({kinds}); "
                         f"pass --format, or keep one format per folder")
    raise InputError(f"{p}: cannot tell the format of this folder (no file of a known format); pass --format "
                     f"({', '.join(formats())})")


def _by_suffix(name: str) -> str | None:
    for fmt, plugin in _PLUGINS.items():
        if any(name.endswith(s) for s in plugin.suffixes):
            return fmt
    # the longest matching suffix wins (``.bioc.xml`` before ``.xml``)
    best = None
    for fmt, builtin in _BUILTIN.items():
        for s in builtin.suffixes:
            if name.endswith(s) and (best is None or len(s) > best[1]):
                best = (fmt, len(s))
    return best[0] if best else None


def detect_format(path: str | os.PathLike) -> str:
    """Guess a file's format from its suffix, or where several formats share it from its beginning
    (:func:`sniff_format`); a folder's from the files it holds (a folder of ``.ann`` files is brat)."""
    _load_entry_points()
    p = Path(path)
    if p.is_dir():
        return _detect_folder(p)
    suffix = p.suffix.lower()
    if suffix == ".txt" and p.with_suffix(".ann").exists():
        return "brat"
    if suffix in _SNIFFED:
        sniffed = sniff_format(p)
        if sniffed is not None:
            return sniffed
    name = _by_suffix(p.name.lower())
    if name is not None:
        return name
    raise InputError(f"{p}: cannot tell the format from the suffix {suffix!r}; pass --format "
                             f"({', '.join(formats())})")


def read_corpus(path: str | os.PathLike, format: str = "auto", *, selectors: Sequence[str] = ("ents",),
                features: Sequence[str] | None = None, allow_empty: bool = False, **options: Any) -> Corpus:
    """Read ``path`` into a :class:`Corpus` holding the annotation sets ``selectors``.

    ``format="auto"`` picks the reader by suffix (:func:`detect_format`);
    ``options`` go to the reader (for CoNLL: ``scheme``, ``strict``, ...).
    Raise :class:`InputError` for a missing file or, unless
    ``allow_empty`` (one shard of many may be empty), an empty corpus.
    """
    if not isinstance(path, (str, os.PathLike)):
        raise ConfigError(f"path: expected the path of a corpus file or folder, got {type(path).__name__} "
                          f"{path!r:.60}")
    p = Path(path)
    if not p.exists():
        raise InputError(f"{p}: no such file or folder")
    name = detect_format(p) if format == "auto" else format
    check_options(name, options, str(p))
    corpus = get_reader(name)(p, selectors=tuple(selectors), features=features, **options)
    if not len(corpus) and not allow_empty:
        raise InputError(f"{p}: the corpus has no documents (read as {name})")
    if not allow_empty and _holds_nothing(corpus):
        raise InputError(f"{p}: nothing to compare: the {len(corpus)} document(s) read as {name} hold no text and no "
                         f"annotation (an empty file of the format); give a file with the documents' text")
    return corpus


def _holds_nothing(corpus: Corpus) -> bool:
    """Whether every document of ``corpus`` has an empty text and no set has an annotation (a brat ``.ann``
    beside an empty ``.txt``, a TSV3 header without sentences, an empty CAS). Cheap: texts are looked at only
    when no set holds an annotation, and a corpus that knows its text lengths is not built."""
    if any(len(table) for table in corpus.sets.values()):
        return False
    if corpus.text_lengths is not None:
        import numpy as np

        return not np.asarray(corpus.text_lengths).any()
    return all(not text for text in corpus.texts)


#: the parameters of a reader that are no reader options
_NOT_OPTIONS = {"path", "selectors", "features"}


def reader_options(name: str) -> tuple[str, ...] | None:
    """The options the reader of format ``name`` takes (its keyword parameters besides ``selectors`` and
    ``features``); ``None`` when it takes any (a plugin reader with ``**options``). The built-in readers take
    ``**options`` only to be called alike; they take no option they do not name."""
    import inspect

    reader = get_reader(name)
    params = inspect.signature(reader).parameters.values()
    if name not in _BUILTIN and any(p.kind is p.VAR_KEYWORD for p in params):
        return None
    return tuple(p.name for p in params if p.kind in (p.KEYWORD_ONLY, p.POSITIONAL_OR_KEYWORD)
                 and p.name not in _NOT_OPTIONS)


def _is_default(option: str, value: Any) -> bool:
    """Whether ``value`` is the default some built-in reader gives its parameter ``option``."""
    import inspect

    for name in _BUILTIN:
        param = inspect.signature(get_reader(name)).parameters.get(option)
        if param is not None and param.default is not param.empty and type(param.default) is type(value) \
                and param.default == value:
            return True
    return False


def check_options(name: str, options: dict[str, Any], source: str = "") -> None:
    """Raise :class:`ConfigError` for an option the reader of format ``name`` does not take, naming those it
    takes (``source``: the file, for the message)."""
    takes = reader_options(name)
    unknown = [o for o in options if takes is not None and o not in takes]
    if unknown:
        split_options([name], options, [source] if source else ())


def split_options(names: Sequence[str], options: dict[str, Any], sources: Sequence[str] = ()) -> list[dict[str, Any]]:
    """One set of reader options for several inputs read in the formats ``names`` (a key and a response): each
    input gets the options its reader takes; an option that none of them takes raises :class:`ConfigError`."""
    takes = [reader_options(n) for n in names]
    untaken = [o for o in options if all(t is not None and o not in t for t in takes)]
    # an option at the default value a built-in reader gives it asks for nothing (the CLI's --strict-scheme off)
    options = {k: v for k, v in options.items() if k not in untaken or not _is_default(k, v)}
    unknown = [o for o in untaken if o in options]
    if unknown:
        readers = list(dict.fromkeys(names))
        offered = ", ".join(dict.fromkeys(o for t in takes if t is not None for o in t)) or "no options"
        prefix = f"{', '.join(dict.fromkeys(sources))}: " if sources else ""
        option = f"option{'s' if len(unknown) > 1 else ''} {', '.join(map(repr, unknown))}"
        if len(readers) == 1:
            raise ConfigError(f"{prefix}the {readers[0]} reader takes no {option}; it takes {offered}")
        raise ConfigError(f"{prefix}neither the {' nor the '.join(readers)} reader takes the {option}; they take "
                          f"{offered}")
    return [{k: v for k, v in options.items() if t is None or k in t} for t in takes]


# every command's outputs are checked against the files its inputs' readers declare (files.check_outputs)
_files.register_input_expander(registry.expand_inputs)

__all__ = ["check_options", "detect_format", "formats", "get_reader", "read_corpus", "reader_options",
           "register_reader", "split_options", "unregister_reader"]
