"""The line a command prints on stderr for an output it wrote: ``WHAT written to PATH``.

``score`` (``report``), ``qa`` (``json report``, ``md report``, ``html report``), ``benchmark`` (``JSON
report``, ...), ``align`` (``reports``: the report folder) and ``sets`` (``sets``) each name what they wrote;
:func:`written_line` is the one wording. Lines of a command that also counts what it wrote read the counts
from the result (:mod:`~spacy_anno_eval.report.bdm_terminal`, :mod:`~spacy_anno_eval.report.convert_terminal`,
:func:`~spacy_anno_eval.report.iaa_terminal.matrix_written_line`).
"""

from __future__ import annotations

import os
from collections.abc import Mapping


def written_line(what: str, path: str | os.PathLike) -> str:
    """``WHAT written to PATH`` (``path`` as the command was given it, or as its writer returned it)."""
    return f"{what} written to {path}"


def written_lines(written: Mapping[str, str | os.PathLike], suffix: str = "") -> list[str]:
    """One :func:`written_line` per entry of ``written`` (``{what: path}``, in its order), ``suffix`` after
    each name (``" report"``: ``json report written to ...``)."""
    return [written_line(f"{what}{suffix}", path) for what, path in written.items()]


__all__ = ["written_line", "written_lines"]
