"""``anno-eval adjudicate`` on the terminal: the one line that says what the gold set holds and where it went.

:func:`summary_line` reads every count from the summary of
:func:`~spacy_anno_eval.workflows.adjudicate.adjudicate_files` (gold annotations agreed, chosen and rejected,
documents, rows left undecided, and the lines of the ``--undecided`` file when one was written); nothing is
counted here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def summary_line(summary: Mapping[str, Any]) -> str:
    """``T gold annotations (A agreed, C chosen, R rejected) in D documents written to OUT; U rows left
    undecided``, then ``, listed in FILE (N lines to fill in)`` when the summary names an undecided file."""
    return (f"{summary['total']} gold annotations ({summary['agreed']} agreed, {summary['chosen']} chosen, "
            f"{summary['rejected']} rejected) in {summary['docs']} documents written to {summary['out']}; "
            f"{summary['unresolved']} rows left undecided"
            + (f", listed in {summary['undecided']} ({summary['undecided_lines']} lines to fill in)"
               if "undecided" in summary else ""))


__all__ = ["summary_line"]
