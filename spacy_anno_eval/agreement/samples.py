"""The sample of the ratings table reader (:meth:`spacy_anno_eval.io.registry.Reader.sample`).

A CSV table of ratings (a units x annotators table, irrCAC's layout): a header
``Units,ann1,ann2`` and one row per unit, the unit id ``case.doc_id``, both
annotators giving the category ``case.label``. ``case.number`` is a rating:
the row then holds ``1`` and the number, written as Python writes it
(``nan``, ``inf``). Ratings carry no text (``None`` for a case with another
text than the default) and do not nest (``None`` for a depth). ``empty``: the
header and no unit. A lone surrogate is written as the bytes
``surrogatepass`` gives, which no UTF-8 decoder accepts.
"""

from __future__ import annotations

from ..io.registry import Files, Sample
from ..io.samples import utf8


def ratings(case: Sample) -> Files | None:
    """``Units,ann1,ann2`` then ``<id>,<label>,<label>`` (or ``<id>,1,<number>``)."""
    if case.text != Sample().text or case.depth:
        return None
    lines = ["Units,ann1,ann2"]
    if not case.empty:
        cells = [case.label, case.label] if case.number is None else ["1", repr(float(case.number))]
        lines.append(",".join([case.doc_id, *cells]))
    return {"ratings.csv": utf8("\n".join(lines) + "\n")}
