"""Renderers: turn a report (the dict of :meth:`Evaluation.report`) into text.

Renderers never recompute a measure: they format the figures they are given.
:func:`write_reports` writes the JSON, Markdown and HTML reports, each
atomically (a temporary file in the target folder, then :func:`os.replace`).
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ..errors import ConfigError
from .rows import check_measures, to_dataframe, to_rows

__all__ = ["FORMATS", "to_dataframe", "to_rows", "write_reports"]

FORMATS = {"json": "report.json", "md": "report.md", "html": "report.html"}


def _check_formats(formats: Sequence[str], where: str) -> None:
    bad = [f for f in formats if f not in FORMATS]
    if bad:
        raise ConfigError(f"unknown report format {', '.join(map(repr, bad))} in {where}; "
                         f"choose from {', '.join(FORMATS)}")


def write_reports(evaluation: Any, output_dir: str | os.PathLike | None = None,
                  formats: Sequence[str] = ("json", "md", "html"), *,
                  measures: Sequence[str] = ("strict", "lenient", "average"),
                  paths: Mapping[str, str | os.PathLike] | None = None,
                  classification: dict[str, Any] | None = None, report: dict[str, Any] | None = None,
                  title: str | None = None, max_diff_docs: int | None = None,
                  max_doc_rows: int | None = None, diff: tuple[Sequence[Any], int] | None = None) -> dict[str, Path]:
    """Write the reports of ``evaluation``; return ``{format: path}``.

    Formats: ``json`` (exactly ``report``, default ``evaluation.report()``),
    ``md`` (Markdown tables) and ``html`` (a self-contained page with the
    Annotation Diff). With ``output_dir`` each format in ``formats`` goes to
    ``output_dir/report.{json,md,html}``; ``paths`` (``{format: file}``) puts a
    format elsewhere, and without ``output_dir`` exactly the formats of
    ``paths`` are written. Every file is rendered before the first is written,
    and each is written atomically, so no report is ever half-written.
    ``classification`` (see :mod:`spacy_anno_eval.agreement.classification`) adds a
    Classification section; ``max_diff_docs`` / ``max_doc_rows`` cap the HTML
    Annotation Diff and Document statistics (defaults in
    :mod:`spacy_anno_eval.report.html`). ``diff``: the Annotation Diff's
    documents already chosen and the number of documents with pairs (an
    evaluation scored window by window keeps those, not its pairs).
    """
    from ..files import write_text
    from .json import write_json

    if isinstance(formats, str):
        formats = [formats]
    paths = dict(paths or {})
    _check_formats(list(formats), "formats")
    _check_formats(list(paths), "paths")
    measures = check_measures(measures)
    if output_dir is None:
        if not paths:
            raise ConfigError("write_reports needs an output_dir or paths ({format: file})")
        targets = {fmt: Path(p) for fmt, p in paths.items()}
    else:
        targets = {fmt: Path(output_dir) / FORMATS[fmt] for fmt in formats}
        targets.update({fmt: Path(p) for fmt, p in paths.items()})
    if report is None:
        report = evaluation.report()
    if classification is not None and "classification" not in report:
        report = {**report, "classification": classification}  # the JSON holds what the pages show

    rendered: dict[str, str] = {}
    if "md" in targets:
        from .markdown import render_markdown

        rendered["md"] = render_markdown(report, measures=measures, classification=classification, title=title,
                                         max_doc_rows=max_doc_rows)
    if "html" in targets:
        from .html import MAX_DIFF_DOCS, MAX_DOC_ROWS, diff_panel_of, render_html

        rendered["html"] = render_html(
            report, evaluation, measures=measures, classification=classification, title=title,
            max_diff_docs=MAX_DIFF_DOCS if max_diff_docs is None else max_diff_docs,
            max_doc_rows=MAX_DOC_ROWS if max_doc_rows is None else max_doc_rows,
            diff_html=None if diff is None else diff_panel_of(report, diff[0], diff[1], measures),
            diff_docs=None if diff is None else {doc.index for doc in diff[0]})
    written: dict[str, Path] = {}
    for fmt, path in targets.items():
        if fmt == "json":
            written[fmt] = write_json(report, path)
        else:
            written[fmt] = write_text(path, rendered[fmt])
    return written
