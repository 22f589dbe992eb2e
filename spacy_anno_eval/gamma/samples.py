"""Samples of γ's own formats, one function per reader (:meth:`spacy_anno_eval.io.registry.Reader.sample`).

A γ unit has an annotator, a category and a start and an end: each function
writes one unit of the annotator ``case.doc_id`` (the format's only name: the
tier, the annotator column) with the category ``case.label``, over
``case.span``; ``case.number`` is its end (a time: ``NaN`` is what a careless
writer puts there); nested ``case.depth`` levels where the format nests (the
fixture JSON; ELAN's XML), else ``None``; units carry no text (``None`` for
a case with another text than the default); or no unit at all
(``case.empty``). Text that UTF-8 cannot encode (a lone surrogate) is
written as a JSON escape in JSON, else as the bytes ``surrogatepass`` gives,
which no UTF-8 decoder accepts: what a damaged file holds. The contract suite
(``tests/test_reader_contract.py``) reads every sample through its reader.
"""

from __future__ import annotations

import os
from typing import Any

from ..errors import InputError
from ..io.parse import head_bytes
from ..io.registry import Files, Sample
from ..io.samples import java_double, json_bytes, nested, utf8

_DEFAULT_TEXT = Sample().text


def _unwritable(case: Sample, *, nests: bool) -> bool:
    return case.text != _DEFAULT_TEXT or (not nests and case.depth > 0)


def _times(case: Sample) -> tuple[float, float]:
    start, end = case.span
    return float(start), float(end) if case.number is None else float(case.number)


def _number_text(value: float) -> str:
    return repr(value) if value != int(value) or abs(value) >= 2**53 else str(int(value))


def csv(case: Sample) -> Files | None:
    """pygamma-agreement's CSV: ``annotator,category,start,end`` lines without a header."""
    if _unwritable(case, nests=False):
        return None
    if case.empty:
        return {"sample.csv": b""}
    start, end = _times(case)
    end_text = java_double(end) if end != end or end in (float("inf"), float("-inf")) else _number_text(end)
    return {"sample.csv": utf8(f"{case.doc_id},{case.label},{_number_text(start)},{end_text}\n")}


def fixture(case: Sample) -> Files | None:
    """A DKPro / pygamma γ fixture: ``{"continuum": [{annotator, start, end, category}], "tier2": {...}}``; the
    depth nests a value of ``tier2`` (which the reader keeps)."""
    if _unwritable(case, nests=True):
        return None
    units: list[dict[str, Any]] = []
    if not case.empty:
        start, end = _times(case)
        units.append({"annotator": case.doc_id, "start": start, "end": end, "category": case.label})
    data: dict[str, Any] = {"continuum": units, "tier2": {"sampledContinua": []}}
    if case.depth:
        data["tier2"]["extra"] = nested(case.depth)
    return {"sample.json": json_bytes(data)}


def is_fixture(path: str | os.PathLike) -> bool:
    """Whether the ``.json`` file ``path`` is a γ fixture: its first bytes open an object whose first key is
    ``continuum`` (or show a ``"continuum"`` key)."""
    try:
        head = head_bytes(path, 4096).decode("utf-8", errors="replace").lstrip("\ufeff \t\r\n")
    except InputError:
        return False
    return head.startswith("{") and '"continuum"' in head


def textgrid(case: Sample) -> Files | None:
    """A Praat TextGrid (long text format): one IntervalTier named after the annotator, the unit an interval
    between two blank ones."""
    if _unwritable(case, nests=False):
        return None
    start, end = _times(case)
    total = max(end, start) + 1.0 if end == end and end != float("inf") else 100.0
    lines = ['File type = "ooTextFile"', 'Object class = "TextGrid"', "", "xmin = 0", f"xmax = {_praat(total)}"]
    if case.empty:
        lines += ["tiers? <absent>"]
    else:
        name = case.doc_id.replace('"', '""')
        label = case.label.replace('"', '""')
        intervals = [(0.0, start, ""), (start, end, label), (end, total, "")]
        if start == 0:
            intervals = intervals[1:]
        lines += ["tiers? <exists>", "size = 1", "item []:", "    item [1]:", '        class = "IntervalTier"',
                  f'        name = "{name}"', "        xmin = 0", f"        xmax = {_praat(total)}",
                  f"        intervals: size = {len(intervals)}"]
        for k, (a, b, text) in enumerate(intervals, 1):
            lines += [f"        intervals [{k}]:", f"            xmin = {_praat(a)}", f"            xmax = {_praat(b)}",
                      f'            text = "{text}"']
    return {"sample.TextGrid": utf8("\n".join(lines) + "\n")}


def _praat(value: float) -> str:
    """A number as Praat writes it (``nan``, ``inf`` as Python does: Praat itself writes ``--undefined--``)."""
    return _number_text(value) if value == value and abs(value) != float("inf") else repr(value)


def eaf(case: Sample) -> Files | None:
    """An ELAN ``.eaf`` (EAF 2.8, as pympi writes it): one tier ``TIER_ID`` = the annotator, one aligned
    annotation between two time slots (milliseconds); the depth nests elements in the ``HEADER``."""
    if _unwritable(case, nests=True):
        return None
    start, end = _times(case)

    def ms(value: float) -> str:
        return java_double(value * 1000) if value != value or abs(value) == float("inf") else str(round(value * 1000))

    inner = "<x>" * case.depth + "</x>" * case.depth
    tier = "" if case.empty else (
        f'<TIER LINGUISTIC_TYPE_REF="default-lt" TIER_ID="{_xml(case.doc_id)}"><ANNOTATION>'
        '<ALIGNABLE_ANNOTATION ANNOTATION_ID="a1" TIME_SLOT_REF1="ts1" TIME_SLOT_REF2="ts2">'
        f"<ANNOTATION_VALUE>{_xml(case.label)}</ANNOTATION_VALUE></ALIGNABLE_ANNOTATION></ANNOTATION></TIER>")
    slots = "" if case.empty else (f'<TIME_SLOT TIME_SLOT_ID="ts1" TIME_VALUE="{ms(start)}"/>'
                                   f'<TIME_SLOT TIME_SLOT_ID="ts2" TIME_VALUE="{ms(end)}"/>')
    document = ("<?xml version='1.0' encoding='UTF-8'?>\n"
                '<ANNOTATION_DOCUMENT AUTHOR="sample" DATE="2020-11-25T16:42:31+01:00" FORMAT="2.8" VERSION="2.8">'
                f'<HEADER MEDIA_FILE="" TIME_UNITS="milliseconds">{inner}</HEADER>'
                f"<TIME_ORDER>{slots}</TIME_ORDER>{tier}"
                '<LINGUISTIC_TYPE LINGUISTIC_TYPE_ID="default-lt" TIME_ALIGNABLE="true"/>'
                "</ANNOTATION_DOCUMENT>\n")
    return {"sample.eaf": utf8(document)}


def _xml(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace('"', "&quot;")
