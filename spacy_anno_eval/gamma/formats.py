"""γ's own file formats: CSV (and TSV) units, DKPro / pygamma JSON fixtures, Praat TextGrid, ELAN EAF.

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

These files name their annotators. :func:`read_units` reads one of them by
format name; :mod:`spacy_anno_eval.io.registry` registers the readers (kind
``continuum``) with their suffixes and samples, and
:func:`spacy_anno_eval.gamma.readers.read_continuum` reads any of them by
path. Every reader raises :class:`~spacy_anno_eval.errors.InputError` naming
the file (and line, tier or unit) on bad input.
"""

from __future__ import annotations

import csv
import io
import math
import os
import re
from pathlib import Path
from typing import Any

from .. import files
from ..errors import InputError, where
from ..io.parse import decode, json_file, read_bytes
from .continuum import Continuum, offset_problem

PathLike = str | os.PathLike
Unit = tuple[str, float, float, str]


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
# by format name


def read_units(p: Path, fmt: str, sep: str | None) -> Continuum:
    """The continuum of a file in one of γ's own formats (``csv``, ``tsv``, ``json``, ``textgrid``, ``eaf``);
    ``sep``: the delimiter of a CSV file (default ``,``; ``tsv``: a tab)."""
    if fmt in ("csv", "tsv"):
        return read_csv(p, delimiter=sep or ("\t" if fmt == "tsv" else ","))
    if fmt == "json":
        return read_fixture(p)[0]
    if fmt == "textgrid":
        return read_textgrid(p)
    return read_eaf(p)


__all__ = ["fixture_samples", "read_csv", "read_eaf", "read_fixture", "read_textgrid", "read_units", "write_csv"]
