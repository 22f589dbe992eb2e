"""Read (and write) a γ :class:`~.continuum.Continuum` from the files annotators and γ tools use.

Formats, with where they come from:

- **CSV** (``.csv``; ``.tsv`` is the same with a tab): one unit per line,
  ``annotator,category,start,end``, no header: the layout pygamma-agreement
  (github.com/bootphon/pygamma-agreement) reads with ``Continuum.from_csv``
  and keeps its test continua in (``AlexPaulSuzan.csv``, the Mathet et al.
  2015 figures). The Gamma software (https://gamma.greyc.fr) also imports
  CSV; check its manual for the column order before feeding it files
  written here. Numbers may be integers or decimals. A first line
  whose start and end cells are words (``annotator,category,start,end``) is
  taken as a header and skipped. Cells are read as they are (no stripping,
  as pygamma-agreement does): ``Alex, A,1,2`` has the category ``" A"``.
  Unlike pygamma-agreement, which skips a row with ``start >= end``, this
  reader raises, naming the line. :func:`write_csv` writes the same layout.
- **DKPro / pygamma JSON fixtures** (``.json``): the γ validation fixtures of
  DKPro Statistics, generated with pygamma-agreement 0.5.9: ``continuum`` is a
  list of ``{annotator, start, end, category}``; ``tier2.sampledContinua[*].units``
  holds the sampled continua (see :func:`read_fixture`, :func:`fixture_samples`).
- **Praat TextGrid** (``.TextGrid``, text format, long or short; Praat manual,
  "TextGrid file formats"): every IntervalTier is an annotator named after the
  tier, every interval with non-blank text a unit ``(xmin, xmax, text)`` in
  seconds. Point tiers (TextTier) have no durations and are left out.
- **ELAN EAF** (``.eaf``, ELAN Annotation Format, read with
  :mod:`xml.etree.ElementTree`): every TIER with time-aligned annotations
  (``ALIGNABLE_ANNOTATION``) is an annotator named by its ``TIER_ID``; a unit
  runs between its two ``TIME_SLOT``\\ s (milliseconds, given here in seconds)
  and its category is the ``ANNOTATION_VALUE``. Tiers without such annotations
  (symbolic tiers, empty tiers) are left out.
- **spaCy** Docs or a ``.spacy`` DocBin: one annotation set per annotator
  (selectors ``ents`` / ``spans:<key>``, see :mod:`spacy_anno_eval.annotations.table`),
  positions in characters or tokens; several documents are laid end to end
  on one axis (:func:`from_docs`).
- **Annotation corpora**: any format :func:`spacy_anno_eval.io.read_corpus`
  reads (GATE, INCEpTION XMI and TSV3, Label Studio, doccano, BioC, Prodigy,
  NIF, brat, JSONL, CoNLL), one annotator per set, character positions,
  documents laid end to end as for spaCy (:func:`from_corpus`).

**Partial coverage** (DocBins and corpora). A document for which a set has no
annotation record (a DocBin without that span group; an export where the
annotator never opened, skipped or cancelled it) is not one they annotated as
empty. γ aligns every annotator along one continuum and computes one figure
for all documents, so an annotator cannot be left out of one stretch of it:
such a document is left out for every annotator, the continuum is the
documents all of them annotated (:attr:`Continuum.documents` lists what was
left out and for whom; a warning says how many). GATE's QA summariser for
Teamware (user guide 10.7) and INCEpTION's agreement page compare two
annotators only on the documents both annotated; on one continuum of N
annotators that is the documents all of them annotated. To compare annotators
with less overlap, name fewer of them with ``sets``. ``missing_as_empty=True`` (``--missing-as-empty``) keeps every
document, counting a missing record as an annotation with nothing in it.

:func:`read_continuum` picks the reader by the file's suffix. Every reader
raises :class:`~spacy_anno_eval.errors.InputError` naming the file
(and line, tier or document) on bad input.
"""

from __future__ import annotations

import csv
import io
import math
import os
import re
import warnings
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from .. import files
from ..annotations.docs import as_docs, doc_id, found_selectors, span_rows
from ..annotations.table import parse_selector
from ..errors import ConfigError, InputError, where
from ..io.parse import decode, json_file, read_bytes
from .continuum import Continuum, offset_problem

if TYPE_CHECKING:
    from ..annotations.table import Corpus

PathLike = str | os.PathLike
Unit = tuple[str, float, float, str]

UNITS = ("char", "token")
FORMATS = ("csv", "tsv", "json", "textgrid", "eaf", "spacy")
_SUFFIX_FORMAT = {".csv": "csv", ".tsv": "tsv", ".json": "json", ".textgrid": "textgrid", ".eaf": "eaf",
                  ".spacy": "spacy"}


# ---------------------------------------------------------------------------
# common helpers


_SAVE_AS = "save it as UTF-8 (or UTF-16 with a byte-order mark)"


def _read_text(p: Path, data: bytes | None = None) -> str:
    """The file (or its ``data``) as text: UTF-16 after a UTF-16 byte-order mark, else UTF-8 (BOM allowed); read
    by the located loaders (:mod:`spacy_anno_eval.io.parse`)."""
    if data is None:
        data = read_bytes(p)
    encoding = "utf-16" if data[:2] in (b"\xff\xfe", b"\xfe\xff") else "utf-8"
    return decode(data, p, encoding, fix=_SAVE_AS)


def _float(text: str) -> float | None:
    """``text`` as a float, or None when it is not a number."""
    try:
        return float(text)
    except ValueError:
        return None


def _format_number(x: float) -> str:
    """An integral value without ``.0`` (``3``), any other value as its shortest round-tripping ``repr``."""
    if x.is_integer() and abs(x) < 2**53:
        return str(int(x))
    return repr(x)


def _line_of(text: str, pos: int) -> int:
    return text.count("\n", 0, pos) + 1


# ---------------------------------------------------------------------------
# CSV (pygamma-agreement, Gamma software)

_HEADER_WORD = re.compile(r"[A-Za-z_][\w .\-]*")


def _is_header(start: str, end: str) -> bool:
    """Whether a first row's start and end cells are column names rather than numbers."""
    return all(_float(c) is None and _HEADER_WORD.fullmatch(c.strip()) for c in (start, end))


def read_csv(path: PathLike, *, delimiter: str = ",") -> Continuum:
    """Read ``annotator,category,start,end`` lines (no header needed; see the module docstring).

    Blank lines are skipped. Raise :class:`InputError` with the line
    number for a line without 4 fields, a start or end that is not a finite
    number, ``start >= end`` or an empty annotator, and for a file without units.
    """
    p = Path(path)
    src = str(p)
    sep = "tab" if delimiter == "\t" else repr(delimiter)
    reader = csv.reader(io.StringIO(_read_text(p), newline=""), delimiter=delimiter)
    units: list[Unit] = []
    first = True
    try:
        for row in reader:
            if not any(cell.strip() for cell in row):
                continue
            at = where(src, line=reader.line_num)
            if len(row) != 4:
                raise InputError(f"{at}: {len(row)} field{'s' if len(row) != 1 else ''}, expected 4 "
                                         f"(annotator, category, start, end) separated by {sep}")
            annotator, category, start_text, end_text = row
            if first:
                first = False
                if _is_header(start_text, end_text):
                    continue
            numbers = []
            for name, cell in (("start", start_text), ("end", end_text)):
                value = _float(cell)
                if value is None or not math.isfinite(value):
                    finite = "finite " if value is not None else ""
                    raise InputError(f"{at}: {name} {cell!r} is not a {finite}number")
                if offset_problem(value):
                    raise InputError(f"{at}: {name} {cell.strip()} {offset_problem(value)}")
                numbers.append(value)
            start, end = numbers
            if not annotator.strip():
                raise InputError(f"{at}: empty annotator (the first field names who made the unit)")
            if not start < end:
                raise InputError(f"{at}: start {start_text.strip()} >= end {end_text.strip()}; "
                                         f"a unit needs start < end")
            units.append((annotator, start, end, category))
    except csv.Error as exc:
        raise InputError(f"{where(src, line=reader.line_num)}: unreadable CSV ({exc})") from exc
    if not units:
        raise InputError(f"{src}: no units (empty file); expected lines annotator{delimiter}category"
                                 f"{delimiter}start{delimiter}end")
    return Continuum.from_units(units, source=src)


def write_csv(continuum: Continuum, path: PathLike, *, delimiter: str = ",") -> Path:
    """Write ``continuum`` as ``annotator,category,start,end`` lines (no header), atomically; return the path.

    Integral positions are written as integers (``3``), others as their
    ``repr`` (which reads back to the same float). Fields are quoted only when
    they hold the delimiter, a quote or a line break. Annotators without units
    are not written (the format cannot say they exist).
    """
    buf = io.StringIO()
    writer = csv.writer(buf, delimiter=delimiter, lineterminator="\n")
    for annotator, start, end, category in continuum.units():
        writer.writerow([annotator, category, _format_number(start), _format_number(end)])
    return files.write_text(path, buf.getvalue())


# ---------------------------------------------------------------------------
# DKPro Statistics / pygamma-agreement JSON fixtures


def _units_from_json(items: Any, source: str) -> Continuum:
    """A continuum from a JSON list of ``{annotator, start, end, category}`` objects."""
    if not isinstance(items, list):
        raise InputError(f"{source}: expected a list of units, got {type(items).__name__}")
    units: list[Unit] = []
    for k, item in enumerate(items, 1):
        if not isinstance(item, dict) or not {"annotator", "start", "end", "category"} <= item.keys():
            raise InputError(f"{source}, unit {k}: expected an object with annotator, start, end, "
                                     f"category; got {item!r}")
        annotator, start, end, category = item["annotator"], item["start"], item["end"], item["category"]
        for name, value in (("start", start), ("end", end)):
            if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
                raise InputError(f"{source}, unit {k}: {name} {value!r} is not a finite number")
            if offset_problem(value):
                raise InputError(f"{source}, unit {k}: {name} {value!r} {offset_problem(value)}")
        if not str(annotator if annotator is not None else "").strip():
            raise InputError(f"{source}, unit {k}: empty annotator")
        if not start < end:
            raise InputError(f"{source}, unit {k}: start {start} >= end {end}; a unit needs start < end")
        units.append((str(annotator), float(start), float(end), "" if category is None else str(category)))
    return Continuum.from_units(units, source=source)


def read_fixture(path: PathLike) -> tuple[Continuum, dict[str, Any]]:
    """Read a DKPro/pygamma γ fixture: its ``continuum`` as a :class:`Continuum`, and the whole parsed JSON."""
    p = Path(path)
    data = json_file(p, fix=_SAVE_AS, expected="a γ fixture is a JSON object with a 'continuum' list")
    if not isinstance(data, dict) or "continuum" not in data:
        raise InputError(f"{p}: not a γ fixture: expected a JSON object with a 'continuum' list of "
                                 f"{{annotator, start, end, category}}")
    if isinstance(data["continuum"], list) and not data["continuum"]:
        raise InputError(f"{p}: nothing to compare: the continuum holds no units; a γ fixture lists them as "
                         f"{{annotator, start, end, category}} objects")
    return _units_from_json(data["continuum"], f"{p}, continuum"), data


def fixture_samples(data: dict[str, Any] | PathLike) -> list[Continuum]:
    """The sampled continua of a fixture (``tier2.sampledContinua[*].units``), in file order.

    ``data`` is the JSON returned by :func:`read_fixture`, or the fixture's path.
    Each sample keeps its own annotator names.
    """
    source = "fixture"
    if isinstance(data, str | os.PathLike):
        source = str(data)
        data = read_fixture(data)[1]
    samples = (data.get("tier2") or {}).get("sampledContinua") if isinstance(data, dict) else None
    if not isinstance(samples, list):
        raise InputError(f"{source}: no tier2.sampledContinua list in this fixture")
    out = []
    for k, sample in enumerate(samples):
        if not isinstance(sample, dict) or "units" not in sample:
            raise InputError(f"{source}: tier2.sampledContinua[{k}] has no 'units' list")
        out.append(_units_from_json(sample["units"], f"{source}, tier2.sampledContinua[{k}]"))
    return out


# ---------------------------------------------------------------------------
# spaCy Docs and DocBins


def parse_sets(sets: str | Iterable[str] | None) -> list[str]:
    """Annotation-set selectors from a list or a ``;``-separated string, validated, in the given order."""
    if sets is None:
        items: list[str] = []
    else:
        from ..annotations.table import split_names

        items = [part for s in ([sets] if isinstance(sets, str) else sets) for part in split_names(str(s))]
    if not items:
        raise InputError("no annotation sets given: pass one selector per annotator, "
                                 "e.g. --sets 'spans:ann1;spans:ann2'")
    for s in items:
        parse_selector(s)
    seen: set[str] = set()
    for s in items:
        if s in seen:
            raise InputError(f"annotation set {s!r} given twice; each annotator needs its own set")
        seen.add(s)
    return items


def default_sets(annotators: Sequence[str], found: Sequence[str] | None, source: str) -> list[str]:
    """The sets to compare when none are named: ``annotators`` (:meth:`~spacy_anno_eval.annotations.table.Corpus.
    annotators`), checked to be two or more; else :class:`InputError` listing the sets the input holds."""
    if len(annotators) >= 2:
        return list(annotators)
    held = ", ".join(found or annotators) or "none"
    raise InputError(f"{source or 'corpus'}: {len(annotators)} annotator set{'s' if len(annotators) != 1 else ''} "
                     f"({', '.join(annotators) or 'none'}) where γ compares two or more; name them with --sets "
                     f"(sets=), e.g. --sets 'spans:ann1;spans:ann2' (the sets: {held})")


#: the start of the warning of a continuum that leaves documents out (the CLI shows the same in its table)
LEFT_OUT = "documents left out of γ"


def _lay_out(doc_ids: Sequence[str], sizes: Sequence[int], rows: dict[str, list[tuple[int, int, int, str]]],
             covered: dict[str, np.ndarray], selectors: list[str], *, missing_as_empty: bool,
             source: str) -> Continuum:
    """One continuum from documents laid end to end, each document ``d`` shifted by the sizes of the documents
    before it that are compared, plus one per document (units of two documents never touch).

    γ aligns every annotator on one axis: a stretch an annotator never annotated would count as one they left
    empty. So a document that some set of ``selectors`` does not cover (``covered[s][d]`` False: no annotation
    record) is left out for every annotator, unless ``missing_as_empty``; what was compared is recorded in
    :attr:`Continuum.documents`, and a warning names what was left out.
    """
    n = len(doc_ids)
    every = np.ones(n, dtype=bool)
    for s in selectors:
        every &= covered[s]
    keep = np.ones(n, dtype=bool) if missing_as_empty else every
    counts = {s: int(covered[s].sum()) for s in selectors}
    if n and not keep.any():
        shown = ", ".join(f"{s} {k}" for s, k in counts.items())
        raise InputError(f"{source or 'corpus'}: no document is covered by every annotator set (documents each set "
                         f"annotated, of {n}: {shown}); γ lays every annotator on one continuum, so it compares the "
                         f"documents all of them annotated. Name annotators who share documents with --sets, or pass "
                         f"--missing-as-empty (missing_as_empty=True) to count a document a set has no record for "
                         f"as annotated with nothing")
    shift = np.zeros(n, dtype=np.int64)
    position = 0
    for d in np.flatnonzero(keep).tolist():
        shift[d] = position
        position += int(sizes[d]) + 1
    units: list[Unit] = []
    for selector in selectors:
        for d, s, e, label in rows[selector]:
            if not s < e:
                raise InputError(f"{where(source, doc_ids[d], span=(s, e))}: empty span in {selector!r} (label "
                                 f"{label!r}); a unit needs start < end")
            if keep[d]:
                units.append((selector, int(shift[d]) + s, int(shift[d]) + e, label))
    continuum = Continuum.from_units(units, annotators=selectors, source=source)
    not_covered = np.flatnonzero(~every).tolist()
    continuum.documents = {
        "n_documents": n, "n_compared": int(keep.sum()), "missing_as_empty": bool(missing_as_empty),
        "sets": list(selectors), "covered": counts,
        "not_covered": [{"doc": doc_ids[d], "sets": [s for s in selectors if not covered[s][d]]} for d in not_covered],
        "left_out": [doc_ids[d] for d in np.flatnonzero(~keep).tolist()],
        # the positions the compared documents span, end to end with one position between two documents: what
        # every annotator covered (unitizing alpha counts the stretches nobody marked as gaps)
        "extent": [0, max(position - 1, 0)],
    }
    left = continuum.documents["left_out"]
    if left:
        first = continuum.documents["not_covered"][0]
        warnings.warn(f"{source or 'corpus'}: {len(left)} of {n} {LEFT_OUT}, not covered by every annotator set "
                      f"(first: {first['doc']!r}, no record of {', '.join(first['sets'])}); --missing-as-empty "
                      f"counts them as annotated with nothing", UserWarning, stacklevel=3)
    return continuum


def _docs_covered(docs: Sequence[Any], selector: str) -> np.ndarray:
    """Whether each Doc holds the set ``selector``: a span group that is present, even empty, is an annotation
    record; an absent one is not (``ents`` is in every Doc)."""
    kind, key = parse_selector(selector)
    if kind == "ents":
        return np.ones(len(docs), dtype=bool)
    return np.fromiter((key in doc.spans for doc in docs), dtype=bool, count=len(docs))


def from_docs(docs: Iterable[Any] | PathLike, sets: str | Iterable[str] | None = None, *, unit: str = "char",
              source: str = "", missing_as_empty: bool = False) -> Continuum:
    """A continuum from spaCy Docs: annotator = selector, one unit per span (category = its label).

    ``sets``: selectors such as ``["spans:ann1", "spans:ann2"]`` or
    ``"spans:ann1;spans:ann2"``; ``None``: every span group some Doc holds
    (two or more). ``unit="char"`` places a span at
    ``[start_char, end_char)``, ``unit="token"`` at ``[start, end)``. Document
    ``k`` is shifted by the lengths (in ``unit``) of the compared documents before
    it plus one per document, so that units of different documents never touch.

    **Coverage.** A Doc without a set's span group (``doc.spans`` lacks the
    key) has no annotation record of that annotator, as opposed to an empty
    group (an annotation with nothing in it). γ needs every annotator on the
    whole continuum, so such a document is left out (for every annotator, with
    a warning; :attr:`Continuum.documents` says which and why), unless
    ``missing_as_empty``: then it counts as annotated with nothing (the
    behaviour before coverage was recorded). A selector that no document holds
    (not even as an empty span group) raises
    :class:`~spacy_anno_eval.errors.InputError` listing the sets that exist.
    ``docs`` may also be the path of a ``.spacy`` file (see :func:`read_docbin`).
    """
    if isinstance(docs, str | os.PathLike):
        return read_docbin(docs, sets, unit=unit, missing_as_empty=missing_as_empty)
    if unit not in UNITS:
        raise InputError(f"unknown unit {unit!r}: use 'char' or 'token'")
    docs = as_docs(docs, source or "docs")
    found = found_selectors(docs)
    if sets is None:
        selectors = default_sets([s for s in found if s.startswith("spans:")], found, source or "docs")
    else:
        selectors = parse_sets(sets)
    missing = [s for s in selectors if s not in found]
    if missing:
        raise InputError(f"{source or 'docs'}: no document has the annotation set {missing[0]!r}; the sets are: "
                         f"{', '.join(found)}")
    sizes = [len(doc.text) if unit == "char" else len(doc) for doc in docs]
    rows = {selector: span_rows(docs, selector, unit=unit) for selector in selectors}
    covered = {selector: _docs_covered(docs, selector) for selector in selectors}
    ids = [doc_id(doc, d) for d, doc in enumerate(docs)]
    return _lay_out(ids, sizes, rows, covered, selectors, missing_as_empty=missing_as_empty,
                    source=source or "docs")


def read_docbin(path: PathLike, sets: str | Iterable[str] | None = None, *, unit: str = "char",
                missing_as_empty: bool = False) -> Continuum:
    """:func:`from_docs` on the Docs of a ``.spacy`` DocBin (or a folder of ``.spacy`` shards, by name)."""
    import spacy
    from spacy.tokens import DocBin

    from ..io.docbin import docbin_files

    if sets is not None:
        parse_sets(sets)
    if unit not in UNITS:
        raise InputError(f"unknown unit {unit!r}: use 'char' or 'token'")
    vocab = spacy.blank("xx").vocab
    docs: list[Any] = []
    for f in docbin_files(path):
        try:
            docs.extend(DocBin().from_disk(f).get_docs(vocab))
        except OSError as exc:
            raise InputError(f"{f}: cannot read ({exc.strerror or exc})") from exc
        except Exception as exc:  # zlib, msgpack, missing keys
            raise InputError(f"{f}: not a spaCy DocBin ({type(exc).__name__}: {exc})") from exc
    return from_docs(docs, sets, unit=unit, source=str(path), missing_as_empty=missing_as_empty)


def from_corpus(corpus: Corpus, sets: str | Iterable[str] | None = None, *,
                missing_as_empty: bool = False) -> Continuum:
    """A continuum (character positions) from a :class:`~spacy_anno_eval.annotations.table.Corpus` that any
    reader of :mod:`spacy_anno_eval.io` made: annotator = set, one unit per annotation (category = its label).

    ``sets``: selectors (``spans:NAME``); ``None``: the corpus's annotators
    (:meth:`~spacy_anno_eval.annotations.table.Corpus.annotators`: the
    annotators, users or model versions of an annotation tool's export), two or
    more. Documents are laid end to end as in :func:`from_docs`, and a document
    some set does not cover (:meth:`~spacy_anno_eval.annotations.table.Corpus.covered`:
    the export holds no annotation record of it, as for a skipped or cancelled
    task) is left out, unless ``missing_as_empty``.
    """
    source = corpus.source or "corpus"
    if sets is None:
        selectors = default_sets(corpus.annotators(), corpus.found_sets, source)
    else:
        selectors = parse_sets(sets)
    corpus.check_sets(selectors)
    rows: dict[str, list[tuple[int, int, int, str]]] = {}
    for s in selectors:
        t = corpus.get_set(s)
        rows[s] = list(zip(t.doc.tolist(), t.start.tolist(), t.end.tolist(), t.label_names().tolist(), strict=True))
    covered = {s: corpus.covered(s) for s in selectors}
    return _lay_out(list(corpus.doc_ids), corpus.lengths().tolist(), rows, covered, selectors,
                    missing_as_empty=missing_as_empty, source=source)


def read_annotations(path: PathLike, fmt: str = "auto", sets: str | Iterable[str] | None = None, *,
                     missing_as_empty: bool = False, **options: Any) -> Continuum:
    """:func:`from_corpus` on the corpus :func:`spacy_anno_eval.io.read_corpus` reads from ``path`` in format
    ``fmt`` (``auto``: detected); ``options`` go to the reader (``label_feature``, ``sep``, ...)."""
    from ..io import read_corpus

    selectors = parse_sets(sets) if sets is not None else ["ents"]
    corpus = read_corpus(path, fmt, selectors=selectors, **options)
    if sets is None and any(name not in corpus.sets for name in corpus.annotators()):
        # a reader that reads only the sets asked for: read again, asking for the annotators it holds
        corpus = read_corpus(path, fmt, selectors=corpus.annotators(), **options)
    return from_corpus(corpus, sets, missing_as_empty=missing_as_empty)


# ---------------------------------------------------------------------------
# Praat TextGrid (text format, long or short)

# The text formats hold the same sequence of values; the long one adds labels
# ("xmin =", "intervals [3]:") and may carry "!" comments. Only strings (with
# "" for a quote), numbers and <flags> count; a malformed number ("1.5x") or a
# word right after "=" is kept as a wrong value, so that "xmin = one" is
# reported where it stands.
_PRAAT_TOKEN = re.compile(r"""
      "(?P<str>(?:[^"]|"")*)"
    | (?P<num>[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)(?![\w.])
    | (?P<bad>[-+.\d][^\s"]*)
    | (?P<flag><[A-Za-z]+>)
    | ![^\n]*
    | \[[^\]\n]*\]
    | [A-Za-z_][\w?]*
    | =[ \t]*(?P<word>[^\s"<!\d.+\-][^\s"]*)
    | (?P<other>\S)
""", re.VERBOSE)


class _PraatTokens:
    """The values of a Praat text file, read one at a time with line numbers for errors."""

    def __init__(self, text: str, source: str) -> None:
        self.text = text
        self.source = source
        self.values: list[tuple[str, str, int]] = []
        for m in _PRAAT_TOKEN.finditer(text):
            kind = m.lastgroup
            if kind == "other" and m.group() == '"':
                raise InputError(f"{where(source, line=_line_of(text, m.start()))}: unterminated string")
            if kind in ("str", "num", "flag", "word", "bad"):
                value = m.group(kind).replace('""', '"') if kind == "str" else m.group(kind)
                self.values.append((kind, value, m.start(kind)))
        self.i = 0

    def _next(self, kind: str, what: str) -> tuple[str, int]:
        if self.i >= len(self.values):
            raise InputError(f"{self.source}: file ends where {what} was expected (truncated TextGrid?)")
        k, value, pos = self.values[self.i]
        if k != kind:
            raise InputError(f"{where(self.source, line=_line_of(self.text, pos))}: expected {what}, "
                                     f"found {value!r}")
        self.i += 1
        return value, pos

    def string(self, what: str) -> str:
        return self._next("str", what)[0]

    def number(self, what: str) -> float:
        return float(self._next("num", what)[0])

    def count(self, what: str) -> int:
        value, pos = self._next("num", what)
        if not re.fullmatch(r"\+?\d+", value):
            raise InputError(f"{where(self.source, line=_line_of(self.text, pos))}: {what} {value!r} is "
                                     f"not a count")
        return int(value)

    def flag(self, what: str) -> str:
        return self._next("flag", what)[0]

    def line(self) -> int:
        """Line of the value read last."""
        return _line_of(self.text, self.values[self.i - 1][2])


def read_textgrid(path: PathLike) -> Continuum:
    """Read a Praat TextGrid (text format, long or short; UTF-8 or UTF-16).

    Annotator = IntervalTier name, unit = interval with non-blank text, category
    = the text as written. Every IntervalTier is an annotator, also one with
    no units. Raise on a binary TextGrid, a tier named twice, an interval with
    ``xmin >= xmax`` or a truncated file.
    """
    p = Path(path)
    src = str(p)
    data = read_bytes(p)
    if data.startswith(b"ooBinaryFile"):
        raise InputError(f"{src}: a binary Praat file; save the TextGrid as a text file in Praat")
    text = _read_text(p, data)
    tokens = _PraatTokens(text, src)
    first = tokens.values[0] if tokens.values else ("", "", 0)
    if first[:2] != ("str", "ooTextFile"):
        raise InputError(f"{src}: not a Praat TextGrid text file (it should start with "
                                 f'File type = "ooTextFile"; found {first[1]!r})')
    tokens.i = 1
    object_class = tokens.string('Object class "TextGrid"')
    if not object_class.startswith("TextGrid"):
        raise InputError(f"{src}: a Praat {object_class!r}, not a TextGrid")
    tokens.number("xmin")
    tokens.number("xmax")
    n_tiers = tokens.count("number of tiers") if tokens.flag("<exists>") == "<exists>" else 0
    units: list[Unit] = []
    names: list[str] = []
    for t in range(1, n_tiers + 1):
        tier_class = tokens.string(f"the class of tier {t}")
        name = tokens.string(f"the name of tier {t}")
        tokens.number("xmin")
        tokens.number("xmax")
        size = tokens.count(f"the size of tier {name!r}")
        if tier_class == "IntervalTier":
            if name in names:
                raise InputError(f"{where(src, line=tokens.line())}: a second tier named {name!r}; "
                                         f"tier names are the annotators and must differ")
            names.append(name)
            for k in range(1, size + 1):
                xmin = tokens.number(f"xmin of interval {k} of tier {name!r}")
                line = tokens.line()
                xmax = tokens.number(f"xmax of interval {k} of tier {name!r}")
                label = tokens.string(f"the text of interval {k} of tier {name!r}")
                if not label.strip():
                    continue
                for what, value in (("xmin", xmin), ("xmax", xmax)):
                    if offset_problem(value):
                        raise InputError(f"{where(src, line=line)}: {what} {value!r} of interval {k} of tier "
                                         f"{name!r} {offset_problem(value)}")
                if not xmin < xmax:
                    raise InputError(f"{where(src, line=line)}: interval {k} of tier {name!r} "
                                             f"has xmin {xmin} >= xmax {xmax}")
                units.append((name, xmin, xmax, label))
        elif tier_class == "TextTier":
            for k in range(1, size + 1):
                tokens.number(f"the time of point {k} of tier {name!r}")
                tokens.string(f"the mark of point {k} of tier {name!r}")
        else:
            raise InputError(f"{where(src, line=tokens.line())}: unknown tier class {tier_class!r}; "
                                     f"expected 'IntervalTier' or 'TextTier'")
    if not names:
        raise InputError(f"{src}: nothing to compare: no IntervalTier, so no annotators and no units")
    return Continuum.from_units(units, annotators=names, source=src)


# ---------------------------------------------------------------------------
# ELAN EAF


def read_eaf(path: PathLike) -> Continuum:
    """Read an ELAN ``.eaf`` file: tiers with time-aligned annotations are annotators, positions in seconds.

    Raise on invalid XML (with its line), an annotation whose time slot is
    missing or unaligned (no ``TIME_VALUE``), ``start >= end``, or a file
    without any time-aligned annotation.
    """
    p = Path(path)
    src = str(p)
    from ..io.xml import parse_xml  # entities refused

    root = parse_xml(p, source=src)
    if root.tag.rsplit("}", 1)[-1] != "ANNOTATION_DOCUMENT":
        raise InputError(f"{src}: not an ELAN file (root element {root.tag!r}, expected ANNOTATION_DOCUMENT)")
    slots: dict[str, float | None] = {}
    for slot in root.iterfind("{*}TIME_ORDER/{*}TIME_SLOT"):
        value = slot.get("TIME_VALUE")
        ms = _float(value) if value is not None else None
        if value is not None and (ms is None or not math.isfinite(ms)):
            raise InputError(f"{src}: TIME_SLOT {slot.get('TIME_SLOT_ID')!r} has TIME_VALUE {value!r}, "
                                     f"not a number of milliseconds")
        if ms is not None and offset_problem(ms / 1000.0):
            raise InputError(f"{src}: TIME_SLOT {slot.get('TIME_SLOT_ID')!r} has TIME_VALUE {value!r} ms, which "
                             f"{offset_problem(ms / 1000.0)}")
        slots[slot.get("TIME_SLOT_ID", "")] = ms

    def seconds(ref: str | None, tier: str, ann_id: str | None) -> float:
        if ref not in slots:
            raise InputError(f"{src}: annotation {ann_id!r} of tier {tier!r} refers to time slot {ref!r}, "
                                     f"which TIME_ORDER does not define")
        ms = slots[ref]
        if ms is None:
            raise InputError(f"{src}: annotation {ann_id!r} of tier {tier!r} uses the unaligned time slot "
                                     f"{ref!r} (no TIME_VALUE); align it in ELAN")
        return ms / 1000.0

    units: list[Unit] = []
    names: set[str] = set()
    for tier in root.iterfind("{*}TIER"):
        tier_id = tier.get("TIER_ID", "")
        annotations = tier.findall("{*}ANNOTATION/{*}ALIGNABLE_ANNOTATION")
        if not annotations:
            continue
        if not tier_id.strip():
            raise InputError(f"{src}: a tier with annotations has no TIER_ID")
        if tier_id in names:
            raise InputError(f"{src}: two tiers with TIER_ID {tier_id!r}")
        names.add(tier_id)
        for ann in annotations:
            ann_id = ann.get("ANNOTATION_ID")
            start = seconds(ann.get("TIME_SLOT_REF1"), tier_id, ann_id)
            end = seconds(ann.get("TIME_SLOT_REF2"), tier_id, ann_id)
            if not start < end:
                raise InputError(f"{src}: annotation {ann_id!r} of tier {tier_id!r} has start {start} s "
                                         f">= end {end} s")
            units.append((tier_id, start, end, ann.findtext("{*}ANNOTATION_VALUE") or ""))
    if not units:
        raise InputError(f"{src}: nothing to compare: no time-aligned annotations (ALIGNABLE_ANNOTATION) in any "
                         f"tier, so no units")
    return Continuum.from_units(units, source=src)


# ---------------------------------------------------------------------------
# dispatch


#: suffixes that γ's own formats share with annotation-tool exports: the file's beginning tells
_SHARED_SUFFIXES = (".json", ".tsv")
#: suffixes that a corpus format (CoNLL) reads but say nothing of the content: never taken for a corpus unguided
_UNTOLD_SUFFIXES = (".txt",)


def continuum_format(path: PathLike, fmt: str = "auto") -> str:
    """The format :func:`read_continuum` reads ``path`` in: one of :data:`FORMATS` (γ's own, ``spacy`` for a
    DocBin) or the name of a corpus format of :mod:`spacy_anno_eval.io` (``gate``, ``xmi``, ``tsv3``, ...).

    ``auto``: a ``.json`` or ``.tsv`` file is a corpus when its beginning says so
    (:func:`spacy_anno_eval.io.sniff_format`: Label Studio, GATE, BioC JSON,
    WebAnno TSV3), else γ's fixture JSON or TSV units; ``.csv``, ``.TextGrid``,
    ``.eaf`` and ``.spacy`` are γ's own; any other suffix, and a folder, is
    detected as a corpus (:func:`spacy_anno_eval.io.detect_format`; a DocBin
    folder is ``spacy``). A ``.txt`` file is read only when named (or as brat
    beside its ``.ann``). ``fmt`` names the format instead (``docbin`` is ``spacy``).
    """
    from ..io import detect_format, formats, sniff_format

    p = Path(path)
    if fmt != "auto":
        if fmt in FORMATS:
            return fmt
        if fmt in formats():
            return "spacy" if fmt == "docbin" else fmt
        raise InputError(f"unknown continuum format {fmt!r}; use one of {', '.join(FORMATS)} (units) or "
                         f"{', '.join(f for f in formats() if f != 'docbin')} (annotation corpora)")
    suffix = p.suffix.lower()
    if not p.is_dir():
        if suffix in _SHARED_SUFFIXES:
            return sniff_format(p) or _SUFFIX_FORMAT[suffix]
        if suffix in _SUFFIX_FORMAT:
            return _SUFFIX_FORMAT[suffix]
        if suffix in _UNTOLD_SUFFIXES and not p.with_suffix(".ann").exists():
            raise InputError(f"{p}: cannot tell the format from the suffix {p.suffix!r}; use one of "
                             f"{', '.join(sorted(_SUFFIX_FORMAT))} or name the format")
    try:
        name = detect_format(p)
    except InputError:
        if p.is_dir() or not p.exists():
            raise
        raise InputError(f"{p}: cannot tell the format from the suffix {p.suffix!r}; use one of "
                         f"{', '.join(sorted(_SUFFIX_FORMAT))} or an annotation corpus's, or name the "
                         f"format") from None
    return "spacy" if name == "docbin" else name


def read_continuum(path: PathLike, *, fmt: str = "auto", sets: str | Sequence[str] | None = None,
                   unit: str = "char", sep: str | None = None, label_feature: str | None = None,
                   missing_as_empty: bool = False) -> Continuum:
    """Read a continuum from ``path``, in the format :func:`continuum_format` tells (or ``fmt`` names).

    γ's own formats: ``csv`` (``.csv``), ``tsv`` (``.tsv``), ``json``
    (DKPro/pygamma fixture), ``textgrid`` (``.TextGrid``), ``eaf``; they name
    their annotators. ``spacy``: a ``.spacy`` DocBin or a folder of them
    (:func:`read_docbin`; uses ``unit``). Any annotation corpus
    :func:`spacy_anno_eval.io.read_corpus` reads (GATE, INCEpTION XMI / TSV3,
    Label Studio, doccano, BioC, Prodigy, NIF, brat, JSONL, CoNLL; character
    positions): :func:`from_corpus`, with ``label_feature`` and ``sep`` for
    its reader. For DocBins and corpora ``sets`` names one selector per
    annotator (default: the input's annotator sets), and a document a set does
    not cover is left out unless ``missing_as_empty``. ``sep``: the delimiter
    of a CSV file (default ``,``; ``.tsv``: a tab).
    """
    p = Path(path)
    fmt = continuum_format(p, fmt)
    if fmt not in FORMATS or fmt == "spacy":
        if label_feature is not None and fmt == "spacy":
            raise ConfigError(f"{p}: --label-feature (label_feature=) reads labels of annotation-tool exports; a "
                              f"DocBin's spans carry their labels")
        if fmt == "spacy":
            if sep is not None:
                raise ConfigError(f"{p}: --sep (sep=) is the delimiter of a CSV file; a DocBin has none")
            return read_docbin(p, sets, unit=unit, missing_as_empty=missing_as_empty)
        if unit != "char":
            raise ConfigError(f"{p}: --unit {unit} (unit=) needs spaCy Docs; a {fmt} corpus has character "
                              f"offsets only")
        options = {k: v for k, v in (("label_feature", label_feature), ("sep", sep)) if v is not None}
        return read_annotations(p, fmt, sets, missing_as_empty=missing_as_empty, **options)
    if label_feature is not None:
        raise ConfigError(f"{p}: --label-feature (label_feature=) reads labels of annotation-tool exports; a {fmt} "
                          f"file's units carry their categories")
    if sep is not None and fmt not in ("csv", "tsv"):
        raise ConfigError(f"{p}: --sep (sep=) is the delimiter of a CSV file; a {fmt} file has none")
    if sep is not None and (not isinstance(sep, str) or len(sep) != 1 or sep in "\r\n\""):
        raise ConfigError(f"sep must be one character (the CSV delimiter, e.g. ';' or a tab), got {sep!r}")
    if sets:
        names = _read_units(p, fmt, sep).annotators  # a file that cannot be read says so first
        given = sets if isinstance(sets, str) else ",".join(map(str, sets))
        raise InputError(f"{p}: --sets {given}: --sets applies to spaCy input only and to annotation corpora; a "
                         f"{fmt} file names its annotators ({', '.join(names) or 'none'}): leave --sets out")
    return _read_units(p, fmt, sep)


def _read_units(p: Path, fmt: str, sep: str | None) -> Continuum:
    """The continuum of a file in one of γ's own formats."""
    if fmt in ("csv", "tsv"):
        return read_csv(p, delimiter=sep or ("\t" if fmt == "tsv" else ","))
    if fmt == "json":
        return read_fixture(p)[0]
    if fmt == "textgrid":
        return read_textgrid(p)
    return read_eaf(p)


__all__ = ["FORMATS", "LEFT_OUT", "UNITS", "continuum_format", "default_sets", "fixture_samples", "from_corpus",
           "from_docs", "parse_sets", "read_annotations", "read_continuum", "read_csv", "read_docbin", "read_eaf",
           "read_fixture", "read_textgrid", "write_csv"]
