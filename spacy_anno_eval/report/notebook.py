"""HTML fragments for notebooks (Jupyter's ``_repr_html_`` protocol): results render where they are made.

A fragment, not a page: no script (notebooks drop or sandbox them), a style
block scoped to ``.anno-eval``, every user text escaped. Figures come from the
result object's report (:meth:`Evaluation.report`), as in every other door.

- :func:`evaluation_html`: the summary cards, the per-type table, the error
  analysis folded in a ``<details>`` (decision counts, per-type F chart and,
  with the pairs, the label confusion heat map) and the first documents of the
  Annotation Diff of an :class:`~spacy_anno_eval.spans.counts.Evaluation`;
- :func:`agreement_html`: a coefficient
  (:class:`~spacy_anno_eval.agreement.coefficients.Agreement`) with its parts;
- :func:`agreement_summary_html`: every coefficient of an agreement summary;
- :func:`benchmark_html`: the verdict and a per-type table for each measure of a
  benchmark result.

Every fragment fits a notebook cell about 1000 px wide
(``tests/report/test_notebook_browser.py`` loads each in Chromium).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..figures import MEASURES
from .charts import DECISION_TITLES, DECISIONS_NOTE, decision_table, heatmap, type_f_chart
from .html import (
    COUNT_COLUMNS,
    STATUS_COLOURS,
    corpus_table,
    diff_documents,
    diff_section,
    esc,
)
from .rows import pct

#: documents of the Annotation Diff shown in a notebook
NOTEBOOK_DIFF_DOCS = 3

_STYLE = (
    "<style>.anno-eval{font-family:system-ui,sans-serif;font-size:13px}"
    ".anno-eval table{border-collapse:collapse;margin:.4em 0}"
    ".anno-eval th,.anno-eval td{border:1px solid #ccc;padding:2px 6px;text-align:right}"
    ".anno-eval th:first-child,.anno-eval td:first-child{text-align:left}"
    ".anno-eval .cards{display:flex;flex-wrap:wrap;gap:8px;margin:.4em 0}"
    ".anno-eval .card{border:1px solid #ccc;border-radius:4px;padding:4px 8px}"
    ".anno-eval .card b{display:block;font-size:16px}"
    ".anno-eval .sbs{display:flex;gap:12px}.anno-eval .pane{flex:1;min-width:0}"
    # the Annotation Diff's entities (displaCy's markup with the report's template): the label set apart
    ".anno-eval mark.entity{padding:.15em .35em;margin:0 .15em;border-radius:.35em;line-height:1;color:inherit}"
    ".anno-eval .ent-label{font-size:.72em;font-weight:700;margin-left:.6em;padding:0 .3em;border-radius:3px;"
    "background:rgba(255,255,255,.65);vertical-align:middle;text-transform:none}"
    # the error analysis, folded
    ".anno-eval details{margin:.4em 0}.anno-eval summary{cursor:pointer;font-weight:600}"
    ".anno-eval .muted{color:#666}.anno-eval figure{margin:.4em 0}"
    # figures cells: a value, its arrow and its p-value never break; a note goes on its own line below
    ".anno-eval td.num{white-space:nowrap}"
    ".anno-eval td small{display:block;color:#666;font-size:11px}"
    ".anno-eval .up{color:#1a7f37}.anno-eval .down{color:#cf222e}.anno-eval .same{color:#666}"
    ".anno-eval td.reg{background:#ffebe9;box-shadow:inset 0 0 0 2px #cf222e;font-weight:600}"
    ".anno-eval td.reg small.flag{color:#cf222e;font-weight:700}"
    ".anno-eval th.grp{text-align:center}"
    ".anno-eval .verdict{padding:6px 10px;border-radius:6px;margin:.4em 0}"
    ".anno-eval .verdict.bad{background:#ffebe9;border:1px solid #cf222e;color:#82071e}"
    ".anno-eval .verdict.good{background:#dafbe1;border:1px solid #1a7f37;color:#116329}"
    ".anno-eval .verdict ul{margin:4px 0 0;padding-left:20px}"
    + "".join(f".anno-eval .st-{s}{{background:{c}}}" for s, c in STATUS_COLOURS.items())
    + "</style>"
)


def _fragment(body: str) -> str:
    return f'{_STYLE}<div class="anno-eval">{body}</div>'


def evaluation_html(evaluation: Any, *, measures: Sequence[str] = MEASURES,
                    max_docs: int = NOTEBOOK_DIFF_DOCS) -> str:
    """The summary cards, the per-type table and the first ``max_docs`` documents of the Diff."""
    report = evaluation.report()
    counts = report["counts"]
    cards = "".join(f'<div class="card"><b>{pct(report["micro"][m]["f"])}</b>F {esc(m)} (micro)</div>'
                    for m in measures)
    cards += "".join(f'<div class="card"><b>{esc(counts[key])}</b>{esc(name)}</div>' for name, key in COUNT_COLUMNS)
    parts = [f"<p>{esc(report['n_docs'])} documents · key {esc(report['settings'].get('key_set'))} vs response "
             f"{esc(report['settings'].get('response_set'))} (percentages)</p>", f'<div class="cards">{cards}</div>',
             corpus_table(report, measures), _analysis_details(evaluation, report, measures)]
    if evaluation.has_pairs and max_docs > 0:
        documents, n_with_pairs = diff_documents(evaluation, report["per_doc"], max_docs)
        parts.append(f"<p>Annotation Diff: the first {len(documents)} of {n_with_pairs} documents with "
                     "annotations</p>")
        parts.extend(diff_section(doc, measures) for doc in documents)
    return _fragment("".join(parts))


def _analysis_details(evaluation: Any, report: dict[str, Any], measures: Sequence[str]) -> str:
    """Why the system fails, folded: the decision counts per type, the F chart of the first measure and, when
    the evaluation keeps its pairs, the label confusion heat map of coextensive pairs and the bucket charts
    (each asked of the evaluation, not counted here)."""
    decisions = evaluation.decision_counts()
    counts = " · ".join(f"{esc(title.lower())} {esc(decisions['micro'][k])}" for k, title in DECISION_TITLES)
    parts = [f'<p class="muted">{esc(DECISIONS_NOTE)}</p>', decision_table(decisions, table_id=None),
             type_f_chart(report, measures[0] if measures else "strict", chart_id=None)]
    if evaluation.has_pairs:
        parts.append(heatmap(evaluation.confusion("coextensive").to_dict(),
                             "Label confusion (same span; rows key, columns response)"))
        if evaluation.texts is not None:  # the buckets read the annotations' texts
            from .bucket_charts import bucket_charts

            parts.append(bucket_charts({"buckets": [b.to_dict() for b in evaluation.buckets()]}))
    else:
        parts.append('<p class="muted">No label confusion: this evaluation keeps no pairs.</p>')
    return (f"<details><summary>Why it fails: {counts}</summary>{''.join(parts)}</details>")


def _number(value: Any) -> str:
    return "undefined" if value is None else f"{float(value):.4f}"


def agreement_html(agreement: Any) -> str:
    """One coefficient: its value, observed and expected agreement, items, and interval when computed."""
    rows = [("value", _number(agreement.value)), ("observed", _number(agreement.observed)),
            ("expected", _number(agreement.expected)), ("items", esc(agreement.n))]
    if agreement.ci:
        ci = agreement.ci
        rows.append((f"{100 * float(ci['confidence']):g} % interval",
                     f"[{_number(ci.get('low'))}, {_number(ci.get('high'))}]"))
    body = "".join(f"<tr><th>{esc(k)}</th><td>{v}</td></tr>" for k, v in rows)
    return _fragment(f"<table><caption>{esc(agreement.measure)}</caption>{body}</table>")


def agreement_summary_html(summary: dict[str, Any]) -> str:
    """The coefficients of :func:`~spacy_anno_eval.agreement.summary.agreement_summary`, with intervals where
    computed, then the notes."""
    alpha = summary["krippendorff_alpha"]
    rows = [("observed agreement", summary["observed_agreement"], None),
            ("Bennett's S", summary["bennett_s"], None), ("Scott's π / Fleiss' κ", summary["fleiss_kappa"],
                                                          summary.get("fleiss_kappa_ci")),
            ("Cohen's κ (mean of pairs)", summary["cohen_kappa"], summary.get("cohen_kappa_ci")),
            ("Davies & Fleiss' κ", summary["davies_fleiss_kappa"], None),
            (f"Krippendorff's α ({summary['level']})", alpha["value"], alpha.get("ci"))]

    def interval(ci: Any) -> str:
        return "" if not ci else f"[{_number(ci.get('low'))}, {_number(ci.get('high'))}]"

    body = "".join(f"<tr><th>{esc(name)}</th><td>{_number(value)}</td><td>{interval(ci)}</td></tr>"
                   for name, value, ci in rows)
    notes = "".join(f"<p>{esc(w)}</p>" for w in summary.get("warnings", []))
    return _fragment(f"<p>{esc(summary['n_units'])} units · {esc(summary['n_annotators'])} annotators</p>"
                     f"<table><tr><th>coefficient</th><th>value</th><th>interval</th></tr>{body}</table>{notes}")


def benchmark_html(report: dict[str, Any]) -> str:
    """A benchmark result: the page's verdict, then the page's per-type table one measure at a time (all the
    measures side by side would be about twice a notebook cell's width), without its scripts."""
    from .benchmark_html import type_table, verdict_html
    from .benchmark_rows import run_measures

    # the page's table has an id for its script; here the tables are several, and scriptless
    tables = [type_table(report, [m]).replace(' id="type-table"', "", 1) for m in run_measures(report)]
    return _fragment(verdict_html(report) + "<p>Percentages; Δ in points (p: bootstrap p-value).</p>"
                     + "".join(tables))


__all__ = ["agreement_html", "agreement_summary_html", "benchmark_html", "evaluation_html"]
