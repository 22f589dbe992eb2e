"""``anno-eval convert`` on the terminal: the one line that says what was written and where.

:func:`written_line` formats the summary of :func:`~spacy_anno_eval.io.convert.convert` (documents, sets, the
output and its format) with the annotations written and the (set, document) pairs whose categories were
written, as the caller gives them; nothing is counted here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def written_line(summary: Mapping[str, Any], n_annotations: int, n_categorised: int | None = None) -> str:
    """``D documents, S set(s), N annotations written to OUT (FORMAT)``, with ``, categories of C (set,
    document) pair(s)`` before ``written`` when ``n_categorised`` is given (a set carries document
    categories)."""
    categorised = f", categories of {n_categorised} (set, document) pair(s)" if n_categorised is not None else ""
    return (f"{summary['n_docs']} documents, {len(summary['sets'])} set(s), {n_annotations} "
            f"annotations{categorised} written to {summary['out']} ({summary['to']})")


__all__ = ["written_line"]
