"""``anno-eval bdm`` on the terminal: the one line that says what was written.

:func:`written_line` reads the counts from the result
(:class:`~spacy_anno_eval.bdm.distance.BDMScores`: its concepts, and its records, one per unordered pair of
concepts, identity pairs included); nothing is counted here.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any


def written_line(scores: Any, out: str | Path) -> str:
    """``N concepts, M pairs written to OUT`` (stderr: the pairs themselves are the file)."""
    return f"{len(scores.concepts)} concepts, {len(scores)} pairs written to {out}"


__all__ = ["written_line"]
