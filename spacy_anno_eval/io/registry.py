"""Readers as objects: every reader of the package names its format, what it reads, its suffixes, every file it
will open, and a sample of itself.

A :class:`Reader` is registered once, here (built in) or through
:func:`spacy_anno_eval.io.register_reader` / the ``spacy_anno_eval_readers``
entry points (a plugin), whatever it reads into:

=============== ====================================================== ==========================
kind            what the reader gives                                  read by
=============== ====================================================== ==========================
``spans``       annotation sets of a corpus (:class:`Corpus`)          score, qa, iaa, sets, ...
``trees``       phrase-structure trees                                 trees
``dependencies`` a dependency treebank (CoNLL-U)                       trees
``continuum``   γ's units (annotator, start, end, category)            gamma
``ratings``     a table of ratings (units by annotators)               agreement
``relations``   relations between annotations (ANNALIST)               relations
``mentions``    mentions without offsets (ANNALIST)                    align
``noisy``       noisy-text BIO                                         noisy
``taxonomy``    a taxonomy of concepts (BDM)                           bdm, --bdm
=============== ====================================================== ==========================

What every reader holds by being registered (DESIGN.md, Contracts):

- **It declares its inputs.** :meth:`Reader.inputs` names every file the reader
  will open for a path (the file; the files of a folder by the folder; side
  files: an XMI file's ``TypeSystem.xml``, a brat ``.ann``'s ``.txt``) before
  anything is read. :func:`declared_inputs` gives them for any path, and
  :func:`spacy_anno_eval.files.check_outputs` refuses an output that is one of
  them, for every command, without the command naming them.
- **It can be tried.** :meth:`Reader.sample` writes a small file of the format
  holding a given text, label, document id and number, nested to a given
  depth, or empty (:class:`Sample`). The contract suite
  (``tests/test_reader_contract.py``) iterates the registry and tries every
  reader on its own samples: a new reader is covered without editing the test.

Modules are named by string and imported on first use, as entry points are:
listing the readers imports none of them.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from importlib import import_module
from pathlib import Path
from typing import Any

from .sniff import sniff_format

KINDS = ("spans", "trees", "dependencies", "continuum", "ratings", "relations", "mentions", "noisy", "taxonomy")


@dataclass(frozen=True)
class Sample:
    """What :meth:`Reader.sample` writes: one document (or unit, sentence, row) whose text, label and id are these,
    with ``number`` in each numeric field the format has that the reader reads (a score, a confidence, a time, a
    rating; ``None``: the usual values), its structure nested ``depth`` levels deep where the format nests
    (0: as usual), or nothing at all (``empty``: a file of the format with no document, sentence or unit)."""

    text: str = "Ada Lovelace wrote the notes."
    label: str = "PER"
    doc_id: str = "d1"
    number: float | None = None
    depth: int = 0
    empty: bool = False

    @property
    def span(self) -> tuple[int, int]:
        """The character span the sample annotates: the text's first word."""
        end = self.text.find(" ")
        return 0, end if end > 0 else len(self.text)


Files = dict[str, bytes]
"""A sample: file names (relative, ``/`` between folders) and their bytes; the first is the path to read."""


def _import(target: str) -> Callable[..., Any]:
    module, _, name = target.partition(":")
    return getattr(import_module(module), name)


def _the_path(path: Path, **options: Any) -> list[Path]:
    """The inputs of most readers: the path itself (a folder stands for every file in it)."""
    return [path]


@dataclass(frozen=True)
class Reader:
    """A registered reader (module docstring).

    ``read``, ``inputs`` and ``sample`` are ``"module:function"`` targets, imported on first use, or callables
    (a plugin's). ``inputs(path, **options) -> list[Path]``: every file the reader opens for ``path`` (default:
    the path itself). ``sample(case: Sample) -> Files | None``: a sample file of the format (``None`` where the
    case cannot be written in it: no number field, no nesting). ``sniff(path) -> bool``: where several formats
    share a suffix (``shared_suffixes``), whether this file is of this format. ``sample_options``: the options its
    samples are read with (``(("label_feature", "value"),)`` where the format keeps the label in a feature).
    """

    name: str
    kind: str
    read: str | Callable[..., Any]
    suffixes: tuple[str, ...] = ()
    inputs: str | Callable[..., list[Path]] | None = None
    sample: str | Callable[[Sample], Files | None] | None = None
    shared_suffixes: tuple[str, ...] = ()
    sniff: str | Callable[[Path], bool] | None = None
    options: tuple[str, ...] = field(default=())
    sample_options: tuple[tuple[str, Any], ...] = ()

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"reader {self.name!r}: kind must be one of {', '.join(KINDS)}, got {self.kind!r}")

    def function(self) -> Callable[..., Any]:
        """The read function."""
        return self.read if callable(self.read) else _import(self.read)

    def __call__(self, path: str | os.PathLike, **kwargs: Any) -> Any:
        return self.function()(path, **kwargs)

    def declared(self, path: str | os.PathLike, **options: Any) -> list[Path]:
        """Every file this reader opens to read ``path`` with ``options`` (those it does not take ignored)."""
        inputs = self.inputs if self.inputs is not None else _the_path
        function = inputs if callable(inputs) else _import(inputs)
        return [Path(p) for p in function(Path(path), **options)]

    def write_sample(self, case: Sample, folder: str | os.PathLike) -> Path | None:
        """Write :meth:`sample` of ``case`` into ``folder``; the path to read, or ``None`` when the format cannot
        hold the case. Raise :class:`LookupError` for a reader without a sample."""
        if self.sample is None:
            raise LookupError(f"the reader {self.name!r} ({self.kind}) has no sample")
        function = self.sample if callable(self.sample) else _import(self.sample)
        files = function(case)
        if files is None:
            return None
        from ..files import write_bytes

        folder = Path(folder)
        first = None
        for name, data in files.items():
            target = folder.joinpath(*name.split("/"))
            write_bytes(target, data)  # test fixtures, in a folder of the caller's
            first = first or target
        return first

    def claims(self, path: Path) -> bool:
        """Whether this reader reads ``path`` by its name (or, for a shared suffix, its beginning)."""
        name = path.name.lower()
        if any(name.endswith(s) for s in self.suffixes):
            return True
        if any(name.endswith(s) for s in self.shared_suffixes) and self.sniff is not None:
            if self.sniff == BY_CONTENT:
                return sniff_format(path) == self.name
            sniff = self.sniff if callable(self.sniff) else _import(self.sniff)
            try:
                return bool(sniff(path))
            except Exception:  # noqa: BLE001 - a sniff that fails claims nothing; the reader says what is wrong
                return False
        return False


_M = "spacy_anno_eval."
#: the sniff of the span formats that share a suffix: :func:`spacy_anno_eval.io.sniff_format` names this reader
BY_CONTENT = "by-content"
_SPANS_SNIFF = BY_CONTENT

BUILTIN: tuple[Reader, ...] = (
    # annotation corpora (io.read_corpus)
    Reader("docbin", "spans", _M + "io.docbin:read_docbin", (".spacy",), sample=_M + "io.samples:docbin"),
    Reader("jsonl", "spans", _M + "io.jsonl:read_jsonl", (".jsonl",), sample=_M + "io.samples:jsonl"),
    Reader("conll", "spans", _M + "io.conll:read_conll",
           (".conll", ".iob", ".iob1", ".iob2", ".bio", ".bioes", ".bilou", ".tsv", ".txt", ".annotated"),
           sample=_M + "io.samples:conll"),
    Reader("brat", "spans", _M + "io.brat:read_brat", (".ann",), inputs=_M + "io.brat:declared_inputs",
           sample=_M + "io.samples:brat"),
    Reader("gate", "spans", _M + "io.gate:read_gate", (".bdocjs", ".gate.xml"), sample=_M + "io.samples:gate",
           shared_suffixes=(".xml", ".json"), sniff=_SPANS_SNIFF),
    Reader("xmi", "spans", _M + "io.xmi:read_xmi", (".xmi",), inputs=_M + "io.xmi:declared_inputs",
           sample=_M + "io.samples:xmi", shared_suffixes=(".xml",), sniff=_SPANS_SNIFF,
           sample_options=(("label_feature", "value"),)),
    Reader("tsv3", "spans", _M + "io.tsv3:read_tsv3", (), sample=_M + "io.samples:tsv3",
           shared_suffixes=(".tsv",), sniff=_SPANS_SNIFF, sample_options=(("label_feature", "value"),)),
    Reader("labelstudio", "spans", _M + "io.labelstudio:read_labelstudio", (), sample=_M + "io.samples:labelstudio",
           shared_suffixes=(".json",), sniff=_SPANS_SNIFF),
    Reader("doccano", "spans", _M + "io.doccano:read_doccano", (), inputs=_M + "io.doccano:declared_inputs",
           sample=_M + "io.samples:doccano", shared_suffixes=(".jsonl",), sniff=_SPANS_SNIFF),
    Reader("bioc", "spans", _M + "io.bioc:read_bioc", (".bioc", ".bioc.xml", ".bioc.json"),
           sample=_M + "io.samples:bioc", shared_suffixes=(".xml", ".json"), sniff=_SPANS_SNIFF),
    Reader("prodigy", "spans", _M + "io.prodigy:read_prodigy", (), sample=_M + "io.samples:prodigy",
           shared_suffixes=(".jsonl",), sniff=_SPANS_SNIFF),
    Reader("nif", "spans", _M + "io.nif:read_nif", (".ttl", ".nif"), sample=_M + "io.samples:nif"),
    # treebanks (trees)
    Reader("conllu", "dependencies", _M + "trees.conllu:read_conllu", (".conllu",),
           sample=_M + "trees.samples:conllu"),
    Reader("brackets", "trees", _M + "trees.brackets:read_brackets",
           (".mrg", ".ptb", ".gld", ".tst", ".brackets", ".penn"), sample=_M + "trees.samples:brackets"),
    Reader("export", "trees", _M + "trees.negra:read_negra", (".export", ".negra"),
           sample=_M + "trees.samples:export"),
    Reader("tiger", "trees", _M + "trees.tiger:read_tiger", (".tiger",), sample=_M + "trees.samples:tiger",
           shared_suffixes=(".xml",), sniff=_M + "trees.samples:is_tiger"),
    Reader("discbracket", "trees", _M + "trees.discbracket:read_discbracket", (".discbracket", ".dbr"),
           sample=_M + "trees.samples:discbracket"),
    # γ's own formats (gamma)
    Reader("gamma-csv", "continuum", _M + "gamma.readers:read_csv", (".csv",), sample=_M + "gamma.samples:csv"),
    Reader("gamma-json", "continuum", _M + "gamma.readers:read_fixture", (), sample=_M + "gamma.samples:fixture",
           shared_suffixes=(".json",), sniff=_M + "gamma.samples:is_fixture"),
    Reader("textgrid", "continuum", _M + "gamma.readers:read_textgrid", (".textgrid",),
           sample=_M + "gamma.samples:textgrid"),
    Reader("eaf", "continuum", _M + "gamma.readers:read_eaf", (".eaf",), sample=_M + "gamma.samples:eaf"),
    # a table of ratings (agreement)
    Reader("ratings", "ratings", _M + "agreement.summary:read_table", (".csv", ".tsv"),
           sample=_M + "agreement.samples:ratings"),
    # ANNALIST: relations, mentions without offsets
    Reader("relations", "relations", _M + "annalist.relations_reader:read_relations", (".jsonl", ".spacy"),
           sample=_M + "annalist.samples:relations"),
    Reader("mentions", "mentions", _M + "annalist.mentions:read_mentions_jsonl", (),
           sample=_M + "annalist.samples:mentions", shared_suffixes=(".jsonl",),
           sniff=_M + "annalist.mentions:is_mentions_jsonl"),
    # noisy text (nerval's BIO)
    Reader("bio", "noisy", _M + "noisy.reader:read_bio", (".bio", ".txt"), sample=_M + "noisy.samples:bio"),
    # taxonomies (BDM)
    Reader("taxonomy", "taxonomy", _M + "bdm.taxonomy:read_taxonomy", (".tsv", ".txt", ".owl", ".rdf", ".ttl"),
           sample=_M + "bdm.samples:taxonomy"),
)

_PLUGINS: dict[str, Reader] = {}


def register(reader: Reader) -> Reader:
    """Register ``reader`` (a plugin's; a built-in name is replaced for this process)."""
    _PLUGINS[reader.name] = reader
    return reader


def unregister(name: str) -> None:
    """Remove the plugin reader ``name`` (a built-in one it replaced comes back)."""
    _PLUGINS.pop(name, None)


def readers(kind: str | None = None) -> list[Reader]:
    """Every registered reader (plugins last), or those of ``kind``."""
    found = {r.name: r for r in BUILTIN if r.kind != "spans" or r.name not in _PLUGINS}
    found.update(_PLUGINS)
    return [r for r in found.values() if kind is None or r.kind == kind]


def reader(name: str, kind: str | None = None) -> Reader:
    """The reader registered as ``name`` (of ``kind``); :class:`LookupError` when there is none."""
    for r in readers(kind):
        if r.name == name:
            return r
    raise LookupError(name)


def declared_inputs(path: str | os.PathLike, fmt: str = "auto", **options: Any) -> list[Path]:
    """Every file a reader would open to read ``path``: the union of what each reader that claims ``path`` (by
    name, or ``fmt``) declares (:meth:`Reader.declared`), the path itself included. Used by
    :func:`spacy_anno_eval.files.check_outputs`, so that no output may be a file an input's reader opens (an XMI
    file's type system, a brat ``.ann``'s text)."""
    p = Path(path)
    found: dict[str, Path] = {os.path.realpath(p): p}
    if p.is_dir():
        return list(found.values())
    for r in readers():
        if (r.name == fmt) or (fmt == "auto" and r.claims(p)):
            try:
                declared = r.declared(p, **options)
            except Exception:  # noqa: BLE001 - a path the reader cannot read: it says so when it reads
                continue
            for d in declared:
                found.setdefault(os.path.realpath(d), d)
    return list(found.values())


class SideFile(str):
    """A file a reader opens besides the input it was given (``opened_with``), as a path string."""

    opened_with: str

    def __new__(cls, path: str | os.PathLike, opened_with: str | os.PathLike) -> SideFile:
        self = super().__new__(cls, os.fspath(path))
        self.opened_with = os.fspath(opened_with)
        return self

    def describe(self) -> str:
        """How a message names it: ``TypeSystem.xml (which the reader of doc.xmi opens)``."""
        return f"{self} (which the reader of {self.opened_with} opens)"


def expand_inputs(inputs: Iterable[Any]) -> list[Any]:
    """``inputs`` (paths; ``None`` and ``-`` kept) with the side files their readers declare added
    (:class:`SideFile`)."""
    out: list[Any] = []
    for given in inputs:
        out.append(given)
        if given is None or not isinstance(given, (str, os.PathLike)) or os.fspath(given) in ("", "-"):
            continue
        if not os.path.lexists(given):
            continue
        out.extend(SideFile(d, given) for d in declared_inputs(given)
                   if os.path.realpath(d) != os.path.realpath(given))
    return out


__all__ = ["BUILTIN", "KINDS", "Files", "Reader", "Sample", "SideFile", "declared_inputs", "expand_inputs", "reader",
           "readers", "register", "unregister"]
