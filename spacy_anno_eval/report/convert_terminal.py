"""``anno-eval convert`` on the terminal: the one line that says what was written and where.

:func:`written_line` formats the summary of :func:`~spacy_anno_eval.io.convert.convert` (documents, sets, the
annotations written, the (set, document) pairs whose categories were written, the output and its format), the
totals as the summary carries them (:func:`~spacy_anno_eval.io.convert.convert_summary`); nothing is counted here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def written_line(summary: Mapping[str, Any]) -> str:
    """``D documents, S set(s), N annotations written to OUT (FORMAT)``, with ``, categories of C (set,
    document) pair(s)`` before ``written`` when the summary's ``n_categorised`` is not ``None`` (a set carries
    document categories)."""
    n_categorised = summary["n_categorised"]
    categorised = f", categories of {n_categorised} (set, document) pair(s)" if n_categorised is not None else ""
    return (f"{summary['n_docs']} documents, {summary['n_sets']} set(s), {summary['n_annotations']} "
            f"annotations{categorised} written to {summary['out']} ({summary['to']})")


__all__ = ["written_line"]
