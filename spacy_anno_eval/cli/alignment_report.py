"""What ``align`` and ``relations`` share: the alignment report folder (their MUC table on the terminal is
:mod:`spacy_anno_eval.report.annalist_terminal`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

REPORT_FILES = ("scores.json", "alignment.tsv", "alignment.jsonl")


def report_files(folder: Path | None) -> list[Path]:
    """The files of the alignment report in ``folder`` (none without a folder), for
    :func:`~spacy_anno_eval.files.check_outputs`."""
    return [] if folder is None else [folder / name for name in REPORT_FILES]


def write_alignment_report(folder: Path, rows: list[dict[str, Any]], data: dict[str, Any]) -> None:
    """``scores.json``, ``alignment.tsv`` and ``alignment.jsonl`` in ``folder``, each written atomically."""
    from ..files import rows_as_jsonl, rows_as_tsv, write_text
    from ..report.json import write_json

    columns = list(dict.fromkeys(c for r in rows for c in r)) if rows else ["doc", "status"]
    scores, tsv, jsonl = report_files(folder)
    write_json(data, scores)
    write_text(tsv, rows_as_tsv(rows, columns))
    write_text(jsonl, rows_as_jsonl(rows))
