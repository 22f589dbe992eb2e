"""The sample of the taxonomy reader (:meth:`spacy_anno_eval.io.registry.Reader.sample`).

A tab-separated ``child<TAB>parent`` list (GATE's BDM taxonomies as text):
the concept ``case.label`` under ``Entity``, beside ``LOC``. The depth is a
chain of concepts ``C1 -> C2 -> ... -> Entity`` that long above the label (a
taxonomy nests by its subclass edges). A taxonomy holds no text, id or number
(``None`` for a case with any of them). ``empty``: an empty file. A lone
surrogate is written as the bytes ``surrogatepass`` gives, which no UTF-8
decoder accepts.
"""

from __future__ import annotations

from ..io.registry import Files, Sample
from ..io.samples import utf8


def taxonomy(case: Sample) -> Files | None:
    """``child<TAB>parent`` lines."""
    default = Sample()
    if case.number is not None or case.text != default.text or case.doc_id != default.doc_id:
        return None
    if case.empty:
        return {"taxonomy.tsv": b""}
    chain = [case.label] + [f"C{k}" for k in range(1, case.depth + 1)] + ["Entity"]
    lines = [f"{child}\t{parent}" for child, parent in zip(chain, chain[1:], strict=False)] + ["LOC\tEntity"]
    return {"taxonomy.tsv": utf8("\n".join(lines) + "\n")}
