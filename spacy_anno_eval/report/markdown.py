"""The Corpus QA report as Markdown (GATE user guide 10.3.3 and 10.3.4).

Two tables, Corpus statistics (one row per type) and Document statistics (one
row per document), each with Match, Only key, Only response, Overlap, then
P/R/F for every chosen measure (percentages), and summary rows (micro and
macro). A MUC / SemEval-2013 table and, when given, the classification
agreement follow. When the report carries the error-analysis sections
(:func:`spacy_anno_eval.workflows.analysis.analysis_sections`), a line with the
count of each decision and the label confusion matrix of coextensive pairs
follow too. Every figure is formatted from the report dict, never
recomputed. Cell text is escaped: ``|`` and line breaks cannot break a table,
and ``<``, ``>``, ``&`` are written as entities so that no document id or
label turns into HTML where Markdown is rendered.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .charts import DECISION_TITLES
from .rows import COUNT_COLUMNS, MEASURES, SUMMARY_LABELS, check_measures, figure, macro_docs_note, pct

_MD_ESCAPES = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", "|": "\\|", "\\": "\\\\", "`": "\\`",
                             "*": "\\*", "_": "\\_", "[": "\\[", "]": "\\]", "\n": " ", "\r": " "})


def md_escape(value: Any) -> str:
    """Text safe inside a Markdown table cell."""
    return str(value).translate(_MD_ESCAPES)


def markdown_table(header: Sequence[str], rows: Sequence[Sequence[str]], align_first_left: bool = True) -> list[str]:
    lines = ["| " + " | ".join(header) + " |",
             "|" + "|".join([":---" if align_first_left else "---:"] + ["---:"] * (len(header) - 1)) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return lines


def _header(first: str, measures: Sequence[str]) -> list[str]:
    return [first, *(name for name, _ in COUNT_COLUMNS), *(f"{k} {m}" for m in measures for k in "PRF")]


def _cells(counts: dict[str, Any] | None, entry: dict[str, Any], measures: Sequence[str]) -> list[str]:
    count_cells = [""] * len(COUNT_COLUMNS) if counts is None else [str(counts[c]) for _, c in COUNT_COLUMNS]
    return count_cells + [pct(entry[m][k]) for m in measures for k in "prf"]


def corpus_rows(report: dict[str, Any], measures: Sequence[str]) -> list[list[str]]:
    """Corpus statistics: one row per type (sorted), then micro and macro over types."""
    rows = [[md_escape(label), *_cells(entry["counts"], entry, measures)]
            for label, entry in sorted(report["per_type"].items())]
    rows.append([f"**{SUMMARY_LABELS['micro']}**", *_cells(report["counts"], report["micro"], measures)])
    rows.append([f"**{SUMMARY_LABELS['macro_types']}**", *_cells(None, report["macro_types"], measures)])
    return rows


def document_rows(report: dict[str, Any], measures: Sequence[str], max_rows: int | None = None) -> list[list[str]]:
    """Document statistics: one row per document, then micro and macro over documents."""
    docs = report.get("per_doc", [])
    if max_rows is not None:
        docs = docs[:max_rows]
    rows = [[md_escape(entry["id"]), *_cells(entry["counts"], entry, measures)] for entry in docs]
    rows.append([f"**{SUMMARY_LABELS['micro']}**", *_cells(report["counts"], report["micro"], measures)])
    rows.append([f"**{SUMMARY_LABELS['macro_docs']}**", *_cells(None, report["macro_docs"], measures)])
    return rows


def _settings_line(report: dict[str, Any]) -> str:
    s = report.get("settings", {})
    parts = [f"{report.get('n_docs', '?')} documents",
             f"key `{md_escape(s.get('key_set', '?'))}` vs response `{md_escape(s.get('response_set', '?'))}`",
             f"F-beta {s.get('beta', 1.0):g}", f"pairing {md_escape(s.get('pairing', '?'))}",
             f"0/0 = {s.get('zero_division', 0.0):g}"]
    if s.get("types"):
        parts.append("types " + ", ".join(md_escape(t) for t in s["types"]))
    if s.get("features"):
        parts.append("features " + ", ".join(md_escape(f) for f in s["features"]))
    return " · ".join(parts)


def muc_semeval_rows(report: dict[str, Any]) -> list[list[str]]:
    """MUC and the four SemEval-2013 schemas: counts, then P/R/F (percentages)."""
    entries = []
    if "muc" in report:
        entries.append(("MUC", report["muc"]))
    entries += [(f"SemEval {name}", entry) for name, entry in report.get("semeval", {}).items()]
    return [[md_escape(name), *(str(e[c]) for c in ("COR", "PAR", "INC", "MIS", "SPU", "POS", "ACT")),
             *(pct(e[k]) for k in "prf")] for name, e in entries]


def classification_lines(classification: dict[str, Any]) -> list[str]:
    """The classification agreement: the figures, then the confusion matrix (rows key, columns response)."""
    cats = [str(c) for c in classification.get("categories", [])]
    matrix = classification.get("matrix", [])
    lines = [f"Type `{md_escape(classification.get('type', '?'))}`, feature "
             f"`{md_escape(classification.get('feature', '?'))}`, {classification.get('n', '?')} pairs.", ""]
    lines += markdown_table(["Measure", "Value"], [
        ["Observed agreement", figure(classification.get("observed_agreement"))],
        ["Cohen's kappa", figure(classification.get("cohen_kappa"))],
        ["Scott's pi", figure(classification.get("scott_pi"))],
    ])
    lines += ["", "Confusion matrix (rows: key, columns: response):", ""]
    rows = [[f"**{md_escape(cat)}**", *(str(v) for v in row)] for cat, row in zip(cats, matrix, strict=False)]
    lines += markdown_table(["key \\\\ response", *(md_escape(c) for c in cats)], rows)
    return lines


def decision_line(decisions: dict[str, Any]) -> str:
    """The count of each decision over all types, on one line."""
    micro = decisions["micro"]
    return "Decisions (all types): " + " · ".join(f"{title} {micro[k]}" for k, title in DECISION_TITLES if k in micro)


def confusion_lines(confusion: dict[str, Any]) -> list[str]:
    """A label confusion matrix as a table: a row per key label, a column per response label, ``none`` last."""
    names = [md_escape(n) for n in confusion["labels"]]
    rows = [[f"**{name}**", *(str(v) for v in row)] for name, row in zip(names, confusion["matrix"], strict=True)]
    return markdown_table(["key \\\\ response", *names], rows)


def analysis_lines(report: dict[str, Any]) -> list[str]:
    """The error-analysis sections the report carries: the decision counts, the coextensive label confusion."""
    lines = ["", "## Error analysis", ""]
    if "decisions" in report:
        lines += [decision_line(report["decisions"]), ""]
    coextensive = (report.get("confusion") or {}).get("coextensive")
    if coextensive:
        lines += ["Label confusion, same span (rows: key, columns: response; `none`: no partner):", ""]
        lines += confusion_lines(coextensive)
    else:
        lines.pop()
    return lines


def render_markdown(report: dict[str, Any], *, measures: Sequence[str] = MEASURES,
                    classification: dict[str, Any] | None = None, title: str | None = None,
                    max_doc_rows: int | None = None) -> str:
    """The report as a Markdown document (GitHub-flavoured tables)."""
    measures = check_measures(measures)
    lines = [f"# {md_escape(title or 'Corpus QA report')}", "", _settings_line(report), "",
             "Figures are percentages. Match = correct, Only key = missing, Only response = spurious, "
             "Overlap = partial (GATE user guide 10.3); a pair with a different type counts as both missing "
             "and spurious.", ""]
    for warning in report.get("warnings", []) or []:
        lines += [f"> **Warning:** {md_escape(warning)}", ""]
    lines += ["## Corpus statistics", ""]
    lines += markdown_table(_header("Type", measures), corpus_rows(report, measures))
    lines += ["", "## Document statistics", ""]
    if "per_doc" in report:
        lines += markdown_table(_header("Document", measures), document_rows(report, measures, max_doc_rows))
        n = len(report["per_doc"])
        if max_doc_rows is not None and n > max_doc_rows:
            lines += ["", f"Showing the first {max_doc_rows} of {n} documents; the JSON report holds all."]
        note = macro_docs_note(report)
        if note:
            lines += ["", md_escape(note)]
    else:
        lines.append("The report was made without per-document figures.")
    if "muc" in report or "semeval" in report:
        lines += ["", "## MUC and SemEval-2013", ""]
        lines += markdown_table(["Scheme", "COR", "PAR", "INC", "MIS", "SPU", "POS", "ACT", "P", "R", "F"],
                        muc_semeval_rows(report))
    if "decisions" in report or (report.get("confusion") or {}).get("coextensive"):
        lines += analysis_lines(report)
    if classification:
        lines += ["", "## Classification", ""]
        lines += classification_lines(classification)
    return "\n".join(lines) + "\n"
