"""The report as flat rows (pandas-free), and formatting shared by the renderers.

:func:`to_rows` flattens the report dict of :meth:`Evaluation.report` into one
row per type, one per document and three summary rows (``micro``,
``macro_types``, ``macro_docs``): the tables of GATE's Corpus QA (user guide
10.3.3 and 10.3.4) as plain dicts. Figures are copied from the report, never
recomputed. :func:`to_dataframe` builds a pandas DataFrame from the same rows
when pandas is installed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..errors import ConfigError

MEASURES = ("strict", "lenient", "average")
COUNT_FIELDS = ("correct", "partial", "missing", "spurious", "incorrect")

# GATE's column names (user guide 10.3.3): Match = correct, Only A = missing,
# Only B = spurious, Overlap = partial.
COUNT_COLUMNS = (("Match", "correct"), ("Only key", "missing"), ("Only response", "spurious"),
                 ("Overlap", "partial"))
SUMMARY_LABELS = {"micro": "micro", "macro_types": "macro (types)", "macro_docs": "macro (docs)"}


def check_measures(measures: Sequence[str]) -> tuple[str, ...]:
    """Validate a sequence of measure names (strict, lenient, average)."""
    if isinstance(measures, str):
        measures = [measures]
    measures = tuple(measures)
    bad = [m for m in measures if m not in MEASURES]
    if bad or not measures:
        raise ConfigError(f"measures must be among {', '.join(MEASURES)}, got {list(measures)!r}")
    return measures


def pct(value: Any) -> str:
    """A fraction in [0, 1] as a percentage with two decimals (``0.6744`` -> ``"67.44"``)."""
    if value is None:
        return ""
    text = f"{100 * float(value):.2f}"
    return "0.00" if text == "-0.00" else text  # never a negative zero


def shorten(name: str, width: int) -> str:
    """``name`` cut to ``width`` characters, the cut shown by "…" (never cut silently): the one shortener of the
    terminal tables and the pictures.

    >>> shorten("spinningbytes", 8), shorten("sjtu", 8)
    ('spinnin…', 'sjtu')
    """
    return name if len(name) <= width else name[:max(width - 1, 0)] + "…"


def pack(items: Sequence[str], first: str, indent: str, sep: str = ",", width: int = 80) -> list[str]:
    """``items`` joined by ``sep`` and a space into lines of at most ``width`` columns, never broken inside an
    item: the first line starts with ``first``, the others with ``indent``; a line that goes on ends with
    ``sep``. (An item longer than a line stands alone on its line.)

    >>> pack(["one 1", "two 2", "three 3"], "counts: ", "  ", width=22)
    ['counts: one 1, two 2,', '  three 3']
    """
    lines, line, started = [], first, False
    last = len(items) - 1
    for i, item in enumerate(items):
        # the line must fit with the separator it ends with when more items follow
        if started and len(line) + len(sep) + 1 + len(item) + (len(sep) if i < last else 0) > width:
            lines.append(line + sep)
            line, started = indent, False
        line = f"{line}{sep} {item}" if started else f"{line}{item}"
        started = True
    return [*lines, line]


def figure(value: Any, digits: int = 4) -> str:
    """A coefficient (kappa, pi, agreement) with ``digits`` decimals; ``n/a`` for None / NaN."""
    if value is None:
        return "n/a"
    try:
        v = float(value)
    except (TypeError, ValueError):
        return str(value)
    if v != v:  # NaN
        return "n/a"
    text = f"{v:.{digits}f}"
    return text[1:] if text.startswith("-") and not text.strip("-0.") else text  # never a negative zero


def macro_docs_note(report: dict[str, Any]) -> str | None:
    """What the ``macro (docs)`` mean covers, from ``report["macro_docs_coverage"]`` (plain text; escape it
    for the target format); ``None`` when the report does not say."""
    cov = report.get("macro_docs_coverage")
    if not cov:
        return None
    n, left = int(cov.get("n_docs", 0)), int(cov.get("n_left_out", 0))
    text = f"{SUMMARY_LABELS['macro_docs']}: the mean over {n} of {n + left} documents"
    if left:
        text += f"; {left} left out, because {cov.get('reason', '')}"
    return text + "."


def _row(scope: str, name: str, counts: dict[str, Any] | None, entry: dict[str, Any],
         measures: Sequence[str], errors: dict[str, Any] | None = None, fp: Any = None) -> dict[str, Any]:
    row: dict[str, Any] = {"scope": scope, "name": name}
    for c in COUNT_FIELDS:
        row[c] = None if counts is None else counts.get(c)
    for m in measures:
        for k in "prf":
            row[f"{m}_{k}"] = entry[m][k]
    for m in measures:
        row[f"{m}_e"] = None if errors is None else errors.get(m)
    row["false_positive"] = fp
    return row


def _summary(report: dict[str, Any], key: str) -> tuple[dict[str, Any] | None, Any]:
    """The error rates and the false-positive rate of summary row ``key`` (``micro``, ``macro_types``, ...)."""
    rates, fp = report.get("error_rate"), report.get("false_positive")
    return (None if rates is None else rates.get(key)), (None if not fp else fp.get(key))


def as_report(result: Any) -> dict[str, Any]:
    """The report dict of ``result``: an :class:`~spacy_anno_eval.spans.counts.Evaluation` (its
    ``report()``) or a report dict already; anything else is a :class:`ConfigError` saying what was given."""
    if isinstance(result, dict):
        return result
    if callable(getattr(result, "report", None)):
        return result.report()
    raise ConfigError(f"expected an Evaluation or its report() dict, got {type(result).__name__}")


def to_rows(report: Any, measures: Sequence[str] = MEASURES) -> list[dict[str, Any]]:
    """The report as flat rows: per type (sorted), per document (report order), then the summaries.
    ``report``: an :class:`~spacy_anno_eval.spans.counts.Evaluation` or its ``report()`` dict.

    Columns: ``scope`` (``"type"``, ``"doc"`` or ``"summary"``), ``name`` (the
    type, the document id, or ``micro`` / ``macro_types`` / ``macro_docs``),
    the counts ``correct``, ``partial``, ``missing``, ``spurious``,
    ``incorrect`` (``None`` for the macro rows, which have no counts), and
    ``{measure}_{p,r,f}`` for each measure (fractions in [0, 1], as in the
    report), ``{measure}_e`` (GATE's error rate, 1 - P) for each measure and
    ``false_positive`` (Spurious / c, c the tokens or sentences; ``None`` where
    the report has none). Document rows are absent when the report was made
    without them.
    """
    measures = check_measures(measures)
    report = as_report(report)
    rows = [_row("type", label, entry["counts"], entry, measures, entry.get("error_rate"),
                 entry.get("false_positive"))
            for label, entry in sorted(report["per_type"].items())]
    rows += [_row("doc", str(entry["id"]), entry["counts"], entry, measures, entry.get("error_rate"),
                  entry.get("false_positive")) for entry in report.get("per_doc", [])]
    rows.append(_row("summary", "micro", report["counts"], report["micro"], measures, *_summary(report, "micro")))
    for key in ("macro_types", "macro_docs"):
        rows.append(_row("summary", key, None, report[key], measures, *_summary(report, key)))
    return rows


#: what :func:`to_dataframe` can give, and the columns of the two kinds of rows read off the pairs
WHAT = ("figures", "errors", "decisions")


def to_dataframe(report: Any, measures: Sequence[str] = MEASURES, what: str = "figures",
                 context: int = 40) -> Any:
    """A ``pandas.DataFrame`` (pandas is an optional dependency) of ``report``, an Evaluation or its
    ``report()`` dict. ``what``: ``"figures"`` (default), the rows of :func:`to_rows`; ``"errors"``, one row per
    error of the alignment (:meth:`~spacy_anno_eval.spans.counts.Evaluation.errors`, ``context`` characters
    each side); ``"decisions"``, one row per decision, correct ones included. The last two need an
    Evaluation that keeps its pairs."""
    if what not in WHAT:
        raise ConfigError(f"what must be one of {', '.join(WHAT)}, got {what!r}")
    try:
        import pandas as pd
    except ImportError as err:
        raise ImportError("to_dataframe needs pandas: pip install pandas (or use to_rows(), which needs "
                          "nothing)") from err
    if what == "figures":
        rows = to_rows(report, measures)
        columns = list(rows[0]) if rows else None
        return pd.DataFrame.from_records(rows, columns=columns)
    if not callable(getattr(report, "errors", None)):
        raise ConfigError(f"to_dataframe(what={what!r}) reads the pairs of an Evaluation; a report dict has none")
    from ..spans.decisions import COLUMNS, DECISIONS

    rows = report.errors(which=DECISIONS if what == "decisions" else None, context=context)
    frame = pd.DataFrame.from_records(rows, columns=list(COLUMNS))
    offsets = [c for c in COLUMNS if c.endswith(("_start", "_end"))]
    return frame.astype(dict.fromkeys(offsets, "Int64"))  # whole numbers, <NA> where a side is absent
