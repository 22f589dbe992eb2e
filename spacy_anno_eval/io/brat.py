"""brat standoff files (``.ann`` beside ``.txt``), as the brat documentation defines them.

Format (brat.nlplab.org/standoff.html): the ``.txt`` file holds the text; each
line of the ``.ann`` file is one annotation, fields separated by TABs, the
first field an id whose first letter gives the kind:

- ``T`` text-bound annotation: ``T1<TAB>Label START END[;START END...]<TAB>text``
  (character offsets into the ``.txt``, end exclusive) -> one span;
- ``A`` attribute (``M``, the older "modification", alike):
  ``A1<TAB>Negated T1`` (binary -> ``True``) or ``A2<TAB>Type T1 Value``
  (-> ``"Value"``) -> feature ``Negated`` / ``Type`` of span ``T1``;
- ``R`` relations, ``E`` events, ``N`` normalisations, ``*`` equivalences and
  ``#`` annotator notes are ignored, as are attributes of events.

Choices:

- discontinuous spans (``0 5;10 15``) become one span from the first start to
  the last end; a :class:`DiscontinuousSpanWarning` says how many per file;
- the ``.ann`` text must equal the ``.txt`` slice (for a discontinuous span,
  the fragments joined by one space, as brat writes them); line ends in the
  slice (CRLF, LF, CR) compare equal to spaces, since an ``.ann`` line cannot
  hold one. A mismatch raises :class:`InputError` naming file, line
  and span. A ``T`` line without a text field is not checked;
- the ``.txt`` is read without newline translation, so offsets count a CRLF
  as two characters, as brat does;
- document ids are the file stems; a folder is read in sorted order;
- ``features`` keeps only the named attributes (``None``: no features);
- brat has one layer of entities: it is put under every requested selector.
"""

from __future__ import annotations

import codecs
import os
import re
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..annotations.table import ALL_FEATURES, Corpus, SpanTable, SpanTableBuilder, one_layer_selectors
from ..errors import DiscontinuousSpanWarning, InputError, where
from .parse import decode, read_bytes

IGNORED_KINDS = ("R", "E", "N", "*", "#")
_NEWLINES = re.compile(r"\r\n|\r|\n")


def declared_inputs(path: Path, **options: Any) -> list[Path]:
    """Every file :func:`read_brat` opens for ``path``: an ``.ann`` file and its ``.txt`` (either named), or the
    folder (:mod:`spacy_anno_eval.io.registry`)."""
    if path.is_dir() or path.suffix.lower() not in (".ann", ".txt"):
        return [path]
    return [path.with_suffix(".ann"), path.with_suffix(".txt")]


def brat_files(path: str | os.PathLike) -> list[tuple[Path, Path]]:
    """The (``.ann``, ``.txt``) pairs of a file or folder, sorted by name."""
    p = Path(path)
    if p.is_dir():
        anns = sorted(p.glob("*.ann"))
        if not anns:
            raise InputError(f"{p}: no .ann files in this folder")
    elif p.suffix.lower() in (".ann", ".txt"):
        anns = [p.with_suffix(".ann")]
    else:
        raise InputError(f"{p}: a brat document is an .ann file (with its .txt) or a folder of them")
    pairs = []
    for ann in anns:
        txt = ann.with_suffix(".txt")
        for f in (ann, txt):
            if not f.is_file():
                raise InputError(f"{f}: missing (a brat document needs both {ann.name} and {txt.name})")
        pairs.append((ann, txt))
    return pairs


def _read_text(path: Path, encoding: str) -> str:
    """A file's text without newline translation (brat offsets count every character), read by
    :func:`~.parse.read_bytes` and :func:`~.parse.decode` (the bytes decoded: line ends are kept as they are).

    A leading byte-order mark that ``encoding`` reads as a character (``utf-8``, ``utf-16-le``; not ``utf-8-sig``
    or ``utf-16``, which take it as a mark) stays one, as brat's server counts it (it reads the ``.txt`` with
    ``codecs.open(..., encoding='utf8')``): ``decode`` drops it, so it is put back."""
    data = read_bytes(path)
    text = decode(data, path, encoding)
    if codecs.getincrementaldecoder(encoding)().decode(data[:16]).startswith("\ufeff"):
        text = "\ufeff" + text
    return text


def _parse_offsets(field: str, source: str, lineno: int) -> list[tuple[int, int]]:
    """``START END[;START END...]`` -> fragments."""
    fragments = []
    for part in field.split(";"):
        bits = part.split()
        if len(bits) != 2 or not all(b.lstrip("-").isdigit() for b in bits):
            raise InputError(f"{where(source, line=lineno)}: bad offsets {field!r}; "
                                     f"expected 'START END' or 'START END;START END...'")
        fragments.append((int(bits[0]), int(bits[1])))
    return fragments


def _same_text(expected: str, written: str) -> bool:
    """Whether the ``.ann`` text matches the ``.txt`` slice (line ends read as spaces)."""
    return _NEWLINES.sub(" ", expected) == _NEWLINES.sub(" ", written)


class _Span:
    __slots__ = ("start", "end", "label", "features")

    def __init__(self, start: int, end: int, label: str) -> None:
        self.start, self.end, self.label = start, end, label
        self.features: dict[str, Any] = {}


def _text_bound(fields: list[str], text: str, source: str, lineno: int) -> tuple[_Span, bool]:
    """A ``T`` line -> its span, and whether it was discontinuous."""
    if len(fields) < 2 or not fields[1].strip():
        raise InputError(f"{where(source, line=lineno)}: a T line needs 'ID<TAB>Label START END"
                                 f"<TAB>text'")
    label, _, offsets = fields[1].strip().partition(" ")
    fragments = _parse_offsets(offsets, source, lineno)
    for s, e in fragments:
        if not 0 <= s < e <= len(text):
            raise InputError(
                f"{where(source, line=lineno, span=(s, e))}: offsets outside the text of "
                f"{len(text)} characters (or start >= end)")
    if len(fields) >= 3:
        expected = " ".join(text[s:e] for s, e in fragments)
        if not _same_text(expected, fields[2]):
            crlf = " (the .txt has CRLF line ends; were the offsets computed on LF text?)" if "\r\n" in text else ""
            raise InputError(
                f"{where(source, line=lineno, span=(fragments[0][0], fragments[-1][1]))}: the .ann text "
                f"{fields[2]!r} differs from the .txt text {expected!r} at these offsets{crlf}")
    start = min(s for s, _ in fragments)
    end = max(e for _, e in fragments)
    return _Span(start, end, label), len(fragments) > 1


def _attribute(fields: list[str], spans: dict[str, _Span], source: str, lineno: int,
               keep: set[str]) -> str | None:
    """An ``A``/``M`` line -> a feature of its target span (events' attributes are ignored); the attribute's
    name, ``None`` for an event's."""
    parts = fields[1].split() if len(fields) > 1 else []
    if len(parts) not in (2, 3):
        raise InputError(f"{where(source, line=lineno)}: an attribute line needs "
                                 f"'ID<TAB>Name TARGET [VALUE]', got {fields!r}")
    name, target = parts[0], parts[1]
    if not target.startswith("T"):
        return None
    if target not in spans:
        raise InputError(f"{where(source, line=lineno)}: attribute {fields[0]} names {target}, "
                                 f"which is not a text-bound annotation of this file")
    if name in keep or ALL_FEATURES in keep:
        spans[target].features[name] = parts[2] if len(parts) == 3 else True
    return name


def read_ann(ann_text: str, text: str, source: str = "", features: Sequence[str] | None = None,
             seen: set[str] | None = None) -> tuple[list[_Span], int]:
    """Parse one ``.ann`` file's content against its text.

    Return the spans (in file order) and the number of discontinuous ones;
    ``seen`` (when given) collects the name of every attribute of a span.
    """
    spans: dict[str, _Span] = {}
    attributes: list[tuple[int, list[str]]] = []
    discontinuous = 0
    keep = set(features or ())
    for lineno, line in enumerate(ann_text.split("\n"), 1):
        line = line.rstrip("\r")
        if not line.strip():
            continue
        fields = line.split("\t")
        ident = fields[0].strip()
        kind = ident[:1]
        if kind == "T":
            if ident in spans:
                raise InputError(f"{where(source, line=lineno)}: the id {ident} is used twice")
            spans[ident], broken = _text_bound(fields, text, source, lineno)
            discontinuous += broken
        elif kind in ("A", "M"):
            attributes.append((lineno, fields))
        elif kind not in IGNORED_KINDS:
            raise InputError(f"{where(source, line=lineno)}: unknown brat annotation id {ident!r} "
                                     f"(expected T, A, M, R, E, N, * or #)")
    for lineno, fields in attributes:
        name = _attribute(fields, spans, source, lineno, keep)
        if seen is not None and name is not None:
            seen.add(name)
    return list(spans.values()), discontinuous


def read_brat(path: str | os.PathLike, *, selectors: Sequence[str] = ("ents",),
              features: Sequence[str] | None = None, encoding: str = "utf-8", **options: Any) -> Corpus:
    """Read a brat ``.ann`` file (with its ``.txt``) or a folder of them into a :class:`Corpus`.

    See the module docstring for the format and the choices made; ``options``
    exist so that every reader is called alike (:func:`~spacy_anno_eval.io.read_corpus`
    refuses any but ``encoding``). Selectors: ``ents``, ``spans`` or ``spans:<NAME>`` (the one layer).
    """
    selectors = one_layer_selectors(selectors, str(path), "brat")
    pairs = brat_files(path)
    builder = SpanTableBuilder()
    doc_ids, texts = [], []
    seen: set[str] = set()
    for d, (ann, txt) in enumerate(pairs):
        text = _read_text(txt, encoding)
        spans, discontinuous = read_ann(_read_text(ann, "utf-8-sig" if encoding == "utf-8" else encoding),
                                        text, str(ann), features, seen)
        if discontinuous:
            warnings.warn(f"{ann}: {discontinuous} discontinuous span(s) read as one span from the first "
                          f"start to the last end", DiscontinuousSpanWarning, stacklevel=2)
        for span in spans:
            builder.add(d, span.start, span.end, span.label, span.features if features else None)
        doc_ids.append(ann.stem)
        texts.append(text)
    table = builder.build()
    if features and table.features is None:
        table.features = [{} for _ in range(len(table))]
    sets = {sel: _copy(table) for sel in selectors}
    return Corpus(doc_ids, texts, sets, str(path), found_features=sorted(seen))


def _copy(table: SpanTable) -> SpanTable:
    """The same spans as a separate table (selectors must not share mutable state)."""
    feats = [dict(f) for f in table.features] if table.features is not None else None
    return SpanTable(table.doc.copy(), table.start.copy(), table.end.copy(), table.label.copy(),
                     list(table.labels), feats)


__all__ = ["DiscontinuousSpanWarning", "brat_files", "read_ann", "read_brat"]
