"""The Corpus QA report as one self-contained HTML page.

Tabs (GATE user guide 10.2 and 10.3): *Corpus statistics* (one row per type,
then micro and macro over types, and the MUC / SemEval-2013 table),
*Document statistics* (one row per document, then micro and macro over
documents), *Annotation Diff* (per document: the text with the key's and the
response's spans side by side, rendered by ``spacy.displacy``, and the pairs in
a table coloured by status) and, when a classification table is given,
*Classification* (observed agreement, Cohen's kappa, Scott's pi and the
confusion matrix). Tables sort by clicking a header; the Diff filters by type
and status. Everything is inline (CSS and one script, pinned by a
Content-Security-Policy hash), so the page works offline from a ``file://`` URL.

Escaping: every document text, label, id, feature name and value goes through
:func:`html.escape`. displaCy escapes the text it renders, but not labels or
titles, so labels never reach displaCy: the entity template prints a
parameter that is escaped here, and the span style (used when a side's spans
overlap) gets opaque placeholders that are swapped for escaped labels after
rendering.

No figure is computed here: counts and P/R/F come from the report dict, the
pairs from :meth:`Evaluation.diff_rows`.
"""

from __future__ import annotations

import base64
import hashlib
import re
import secrets
from bisect import bisect_left
from collections.abc import Collection, Container, Sequence
from dataclasses import dataclass
from typing import Any

from ..files import json_text
from .charts import analysis_panel, type_f_chart
from .escape import esc
from .rows import COUNT_COLUMNS, MEASURES, SUMMARY_LABELS, check_measures, figure, macro_docs_note, pct

MAX_DIFF_DOCS = 100
MAX_DOC_ROWS = 5000
MAX_TEXT_CHARS = 20000

STATUSES = ("correct", "partial", "incorrect", "overlap", "missing", "spurious")
STATUS_TITLES = {"correct": "correct", "partial": "partial", "incorrect": "mismatch (type)",
                 "overlap": "mismatch (overlap)", "missing": "missing", "spurious": "spurious"}
# one hue per status (green, yellow, grape, orange, red, blue): no two look alike
STATUS_COLOURS = {"correct": "#b2f2bb", "partial": "#fff3bf", "incorrect": "#e599f7", "overlap": "#ffa94d",
                  "missing": "#ff8787", "spurious": "#a5d8ff"}


def _features(side: dict[str, Any] | None) -> str:
    if not side or not side.get("features"):
        return ""
    # JSON shows the value's type: "5" (a string) and 5 (a number) do not match (GATE 10.2.3)
    return "; ".join(f"{k}={json_text(v, default=str)}" for k, v in side["features"].items())


# ---------------------------------------------------------------- displaCy ---

_ENT_TEMPLATE = ('<mark class="entity st-{status}" title="{tip}">{text}'
                 '<span class="ent-label">{elabel}</span></mark>')


def _placeholder(text: str) -> str:
    while True:
        token = "SAE" + secrets.token_hex(8).upper()
        if token not in text:
            return token


def _overlapping(spans: list[tuple[int, int]]) -> bool:
    spans = sorted(spans)
    return any(b[0] < a[1] for a, b in zip(spans, spans[1:], strict=False))


def render_side(text: str, sides: list[tuple[dict[str, Any], str]], max_chars: int = MAX_TEXT_CHARS) -> str:
    """One side (key or response) of a document: ``text`` with ``sides`` = [(span, status)] highlighted.

    Rendered by ``spacy.displacy`` in manual mode: style ``ent`` when the spans
    do not overlap, else style ``span``. Returns safe HTML.
    """
    from spacy import displacy

    note = ""
    if len(text) > max_chars:
        dropped = sum(1 for s, _ in sides if s["end"] > max_chars)
        sides = [(s, st) for s, st in sides if s["end"] <= max_chars]
        text = text[:max_chars]
        note = (f'<p class="note">Text cut at {max_chars} characters; {dropped} annotation(s) beyond are '
                f'listed in the table only.</p>')
    if not _overlapping([(s["start"], s["end"]) for s, _ in sides]):
        ents = [{"start": s["start"], "end": s["end"], "label": "X",
                 "params": {"status": esc(st), "elabel": esc(s["label"]),
                            "tip": esc(f"{STATUS_TITLES.get(st, st)}: {s['label']} [{s['start']}:{s['end']}]")}}
                for s, st in sides]
        out = displacy.render({"text": text, "ents": ents}, style="ent", manual=True, page=False, jupyter=False,
                              options={"template": _ENT_TEMPLATE})
        return out + note
    # overlapping spans: displaCy's span style over tokens cut at whitespace and at every span boundary
    cuts = {0, len(text)} | {s["start"] for s, _ in sides} | {s["end"] for s, _ in sides}
    for m in re.finditer(r"\s+", text):
        cuts.update(m.span())
    cuts_sorted = sorted(c for c in cuts if 0 <= c <= len(text))
    pieces = [(a, b) for a, b in zip(cuts_sorted, cuts_sorted[1:], strict=False) if text[a:b].strip()]
    starts = [a for a, _ in pieces]
    token = _placeholder(text)
    spans, labels, colours = [], {}, {}
    for i, (s, st) in enumerate(sides):
        first, last = bisect_left(starts, s["start"]), bisect_left(starts, s["end"])
        if first >= last:
            continue
        name = f"{token}X{i}X"
        labels[name] = esc(s["label"])
        colours[name] = STATUS_COLOURS.get(st, "#ddd")
        spans.append({"start_token": first, "end_token": last, "label": name})
    out = displacy.render({"text": text, "tokens": [text[a:b] for a, b in pieces], "spans": spans}, style="span",
                          manual=True, page=False, jupyter=False, options={"colors": colours})
    out = re.sub(re.escape(token) + r"X\d+X", lambda m: labels[m.group(0)], out)
    if token in out:  # pragma: no cover - a placeholder left over would be a bug, not a user error
        raise RuntimeError("unreplaced label placeholder in the displaCy output")
    return out + note


# ------------------------------------------------------------------ tables ---

def _stats_header(first: str, measures: Sequence[str]) -> str:
    cells = [first, *(name for name, _ in COUNT_COLUMNS), *(f"{k} {m}" for m in measures for k in "PRF")]
    return "<thead><tr>" + "".join(f'<th scope="col">{esc(c)}</th>' for c in cells) + "</tr></thead>"


def _stats_row(name: str, counts: dict[str, Any] | None, entry: dict[str, Any], measures: Sequence[str],
               cls: str = "", href: str | None = None, tip: str | None = None) -> str:
    label = esc(name) if href is None else f'<a href="{esc(href)}" title="Annotation Diff">{esc(name)}</a>'
    title = "" if tip is None else f' title="{esc(tip)}"'
    cells = [f'<th scope="row"{title}>{label}</th>']
    for _, c in COUNT_COLUMNS:
        cells.append(f'<td class="num">{"" if counts is None else esc(counts[c])}</td>')
    for m in measures:
        for k in "prf":
            cells.append(f'<td class="num m-{m}">{pct(entry[m][k])}</td>')
    attr = f' class="{cls}"' if cls else ""
    return f"<tr{attr}>" + "".join(cells) + "</tr>"


def corpus_table(report: dict[str, Any], measures: Sequence[str]) -> str:
    """Corpus statistics (GATE 10.3.3): per type, then micro and macro over types."""
    body = "".join(_stats_row(label, entry["counts"], entry, measures)
                   for label, entry in sorted(report["per_type"].items()))
    foot = (_stats_row(SUMMARY_LABELS["micro"], report["counts"], report["micro"], measures, "summary micro")
            + _stats_row(SUMMARY_LABELS["macro_types"], None, report["macro_types"], measures, "summary macro"))
    return (f'<table class="stats sortable" id="corpus-table">{_stats_header("Type", measures)}'
            f"<tbody>{body}</tbody><tfoot>{foot}</tfoot></table>")


def document_table(report: dict[str, Any], measures: Sequence[str], max_rows: int = MAX_DOC_ROWS,
                   linked: Container[int] = ()) -> str:
    """Document statistics (GATE 10.3.4): per document, then micro and macro over documents.

    The name of a document of ``linked`` (the indices of the documents the
    Annotation Diff shows) links to its section there (``#doc-<index>``).
    """
    docs = report.get("per_doc")
    if docs is None:
        return '<p class="note">The report was made without per-document figures.</p>'
    body = "".join(_stats_row(entry["id"], entry["counts"], entry, measures,
                              href=f"#doc-{i}" if i in linked else None)
                   for i, entry in enumerate(docs[:max_rows]))
    macro_note = macro_docs_note(report)
    foot = (_stats_row(SUMMARY_LABELS["micro"], report["counts"], report["micro"], measures, "summary micro")
            + _stats_row(SUMMARY_LABELS["macro_docs"], None, report["macro_docs"], measures, "summary macro",
                         tip=macro_note))
    note = f'<p class="note" id="macro-docs-note">{esc(macro_note)}</p>' if macro_note else ""
    if len(docs) > max_rows:
        note += (f'<p class="note">Showing the first {max_rows} of {len(docs)} documents; the JSON report '
                 f"holds all of them.</p>")
    return (f'<table class="stats sortable" id="doc-table">{_stats_header("Document", measures)}'
            f"<tbody>{body}</tbody><tfoot>{foot}</tfoot></table>{note}")


def error_table(report: dict[str, Any], measures: Sequence[str]) -> str:
    """GATE's error rate (1 - P, per measure, percentages) and false-positive rate (Spurious / c, c the tokens
    or sentences; user guide §10.1.3 eq. 10.8) per type, micro and macro; empty when the report has neither."""
    rates = report.get("error_rate")
    if rates is None:
        return ""
    fp = report.get("false_positive")
    per = fp["per"] if fp else None
    cells = ["Type", *(f"E {m}" for m in measures), *([f"FP per {per.rstrip('s')}"] if fp else [])]
    head = "<thead><tr>" + "".join(f'<th scope="col">{esc(c)}</th>' for c in cells) + "</tr></thead>"

    def row(name: str, errors: dict[str, Any] | None, value: Any, cls: str = "") -> str:
        tds = "".join(f'<td class="num m-{m}">{pct(None if errors is None else errors.get(m))}</td>'
                      for m in measures)
        if fp:
            tds += f'<td class="num fp">{"" if value is None else esc(figure(value))}</td>'
        attr = f' class="{cls}"' if cls else ""
        return f'<tr{attr}><th scope="row">{esc(name)}</th>{tds}</tr>'

    body = "".join(row(label, entry.get("error_rate"), entry.get("false_positive"))
                   for label, entry in sorted(report["per_type"].items()))
    foot = "".join(row(SUMMARY_LABELS[key], rates[key], fp[key] if fp else None,
                       "summary micro" if key == "micro" else "summary macro")
                   for key in ("micro", "macro_types", "macro_docs"))
    note = ("Error rate E = 1 - P (incorrectly identified items as a share of the items identified)"
            + (f"; false positives FP = Spurious / {per} ({esc(fp[per])} {per} in the corpus; per document: its own "
               f"{per})" if fp else "") + ". GATE user guide 10.1.3, eq. 10.8.")
    return (f'<h3>Error rate and false positives</h3><table class="stats sortable" id="error-table">{head}'
            f'<tbody>{body}</tbody><tfoot>{foot}</tfoot></table><p class="note">{note}</p>')


def muc_semeval_table(report: dict[str, Any]) -> str:
    """MUC and SemEval-2013 counts and P/R/F (percentages), as in the terminal report."""
    entries = []
    if "muc" in report:
        entries.append(("MUC", report["muc"]))
    entries += [(f"SemEval {name}", entry) for name, entry in report.get("semeval", {}).items()]
    if not entries:
        return ""
    cols = ("COR", "PAR", "INC", "MIS", "SPU", "POS", "ACT")
    head = "".join(f'<th scope="col">{c}</th>' for c in ("Scheme", *cols, "P", "R", "F"))
    rows = "".join(
        f'<tr><th scope="row">{esc(name)}</th>' + "".join(f'<td class="num">{esc(e[c])}</td>' for c in cols)
        + "".join(f'<td class="num">{pct(e[k])}</td>' for k in "prf") + "</tr>" for name, e in entries)
    return (f'<h3>MUC and SemEval-2013</h3><table class="stats sortable" id="muc-table"><thead><tr>{head}</tr>'
            f"</thead><tbody>{rows}</tbody></table>")


def classification_panel(classification: dict[str, Any]) -> str:
    """Observed agreement, Cohen's kappa, Scott's pi and the confusion matrix (rows key, columns response), with
    its row and column totals and its total (``n``) as the classification gives them (``row_totals``,
    ``column_totals``; a classification without them gets a matrix without totals: none is summed here)."""
    cats = [str(c) for c in classification.get("categories", [])]
    matrix = classification.get("matrix", [])
    row_totals, column_totals = classification.get("row_totals"), classification.get("column_totals")
    totals = row_totals is not None and column_totals is not None
    known = {"type", "feature", "categories", "matrix", "row_totals", "column_totals", "n", "observed_agreement",
             "cohen_kappa", "scott_pi"}
    figures = [("Pairs (n)", esc(classification.get("n", ""))),
               ("Observed agreement", figure(classification.get("observed_agreement"))),
               ("Cohen's kappa", figure(classification.get("cohen_kappa"))),
               ("Scott's pi", figure(classification.get("scott_pi")))]
    extra_tables = []
    for key, value in classification.items():
        if key in known:
            continue
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            figures.append((key.replace("_", " "), figure(value) if isinstance(value, float) else esc(value)))
        elif isinstance(value, dict) and all(isinstance(v, (int, float)) for v in value.values()):
            rows = "".join(f'<tr><th scope="row">{esc(k)}</th><td class="num">{figure(v)}</td></tr>'
                           for k, v in value.items())
            extra_tables.append(f'<h3>{esc(key.replace("_", " "))}</h3><table class="stats sortable">'
                                f'<thead><tr><th scope="col">Category</th><th scope="col">Value</th></tr></thead>'
                                f"<tbody>{rows}</tbody></table>")
    fig_rows = "".join(f'<tr><th scope="row">{esc(name)}</th><td class="num">{value}</td></tr>'
                       for name, value in figures)
    head = ('<th scope="col" class="corner">key \\ response</th>'
            + "".join(f'<th scope="col">{esc(c)}</th>' for c in cats)
            + ('<th scope="col">total</th>' if totals else ""))
    body = []
    for i, (cat, row) in enumerate(zip(cats, matrix, strict=False)):
        cells = "".join(f'<td class="num{" diag" if i == j else ""}">{esc(v)}</td>' for j, v in enumerate(row))
        total = f'<td class="num total">{esc(row_totals[i])}</td>' if totals else ""
        body.append(f'<tr><th scope="row">{esc(cat)}</th>{cells}{total}</tr>')
    foot = ('<tfoot><tr class="summary"><th scope="row">total</th>'
            + "".join(f'<td class="num">{esc(t)}</td>' for t in column_totals)
            + f'<td class="num">{esc(classification.get("n", ""))}</td></tr></tfoot>') if totals else ""
    return (f'<p>Type <code>{esc(classification.get("type", "?"))}</code>, feature '
            f'<code>{esc(classification.get("feature", "?"))}</code>.</p>'
            f'<table class="stats" id="agreement-table"><tbody>{fig_rows}</tbody></table>'
            f'<h3>Confusion matrix</h3><table class="stats confusion" id="confusion-table"><thead><tr>{head}'
            f"</tr></thead><tbody>{''.join(body)}</tbody>{foot}</table>" + "".join(extra_tables))


# ------------------------------------------------------------ annotation diff ---

_DIFF_COLUMNS = ("Start", "End", "Key", "Key text", "Key features", "=?", "Start", "End", "Response",
                 "Response text", "Response features")


def side_cells(side: dict[str, Any] | None, features: bool = True) -> str:
    """Start, end, label, text and (unless ``features`` is false) features of one side of a pair."""
    if side is None:
        return '<td class="num"></td><td class="num"></td><td></td><td></td>' + ("<td></td>" if features else "")
    text = side.get("text", "")
    return (f'<td class="num">{esc(side["start"])}</td><td class="num">{esc(side["end"])}</td>'
            f'<td class="lbl">{esc(side["label"])}</td><td class="txt">{esc(text)}</td>'
            + (f'<td class="feat">{esc(_features(side))}</td>' if features else ""))


def _has_features(rows: Sequence[dict[str, Any]], side: str) -> bool:
    """Whether any pair's ``side`` carries features (an empty feature column is left out)."""
    return any((row.get(side) or {}).get("features") for row in rows)


def _diff_row(row: dict[str, Any], key_features: bool = True, response_features: bool = True) -> str:
    st = row["status"]
    k, r = row.get("key"), row.get("response")
    return (f'<tr class="st-{esc(st)}" data-status="{esc(st)}" data-kt="{esc(k["label"]) if k else ""}" '
            f'data-rt="{esc(r["label"]) if r else ""}">{side_cells(k, key_features)}'
            f'<td class="status">{esc(STATUS_TITLES.get(st, st))}</td>{side_cells(r, response_features)}</tr>')


def _doc_counts(entry: dict[str, Any] | None, measures: Sequence[str]) -> str:
    if entry is None:
        return ""
    c = entry["counts"]
    parts = [f"{name} {esc(c[key])}" for name, key in COUNT_COLUMNS]
    parts += [f"F {m} {pct(entry[m]['f'])}" for m in measures]
    return '<span class="muted">' + " · ".join(parts) + "</span>"


@dataclass
class DiffDocument:
    """One document of the Annotation Diff: its pairs (rows of :meth:`Evaluation.diff_rows
    <spacy_anno_eval.spans.counts.Evaluation.diff_rows>`), its text and its per-document report entry."""

    index: int                      # the document's index in the corpus
    doc_id: str
    rows: list[dict[str, Any]]
    text: str | None
    entry: dict[str, Any] | None    # the report's per_doc entry (counts and figures), if any


def diff_documents(evaluation: Any, per_doc: Sequence[dict[str, Any]], max_docs: int | None,
                   offset: int = 0) -> tuple[list[DiffDocument], int]:
    """The first ``max_docs`` documents with pairs (``None``: all), and how many documents have pairs.

    ``per_doc`` is the report's per-document list of ``evaluation``;
    ``offset`` is added to the document indices (a shard's first document in
    the whole corpus).
    """
    by_doc: dict[int, list[dict[str, Any]]] = {}
    for row in evaluation.diff_rows(max_docs):
        by_doc.setdefault(row["doc"], []).append(row)
    shown = list(by_doc)
    n_with_pairs = len(evaluation.docs_with_pairs())
    texts = evaluation.texts
    entries = per_doc[:shown[-1] + 1] if shown else []  # one slice: a lazy report builds only these rows
    out = []
    for d in shown:
        rows = by_doc[d]
        doc_id = rows[0]["doc_id"]
        entry = entries[d] if d < len(entries) and str(entries[d].get("id")) == str(doc_id) else None
        out.append(DiffDocument(offset + d, doc_id, rows, None if texts is None else texts[d], entry))
    return out, n_with_pairs


def diff_labels(report: dict[str, Any], documents: Sequence[DiffDocument]) -> set[str]:
    """The types of the Diff's type filter: the report's types and those of the shown pairs."""
    return {*report.get("per_type", {}),
            *(s["label"] for doc in documents for row in doc.rows for s in (row.get("key"), row.get("response")) if s)}


def diff_head(labels: set[str], n_rows: int, n_shown: int, n_with_pairs: int) -> str:
    """The Diff's filters (type, status), its pair count and its notes, before the documents."""
    type_options = "".join(f'<option value="{esc(lab)}">{esc(lab)}</option>' for lab in sorted(labels))
    status_options = "".join(f'<option value="{v}">{esc(t)}</option>' for v, t in (
        ("correct", "correct"), ("partial", "partial"), ("mismatch", "mismatch (incorrect or overlap)"),
        ("incorrect", "mismatch: type"), ("overlap", "mismatch: overlap"), ("missing", "missing"),
        ("spurious", "spurious")))
    legend = "".join(f'<span class="chip st-{s}">{esc(STATUS_TITLES[s])}</span>' for s in STATUSES)
    parts = [
        '<div class="filters">'
        '<label>Type <select id="flt-type"><option value="">all types</option>' + type_options + "</select></label>"
        '<label>Status <select id="flt-status"><option value="">all statuses</option>' + status_options
        + "</select></label>"
        f'<span id="flt-count" class="muted">{n_rows} pairs</span>'
        f'<span class="legend">{legend}</span></div>'
    ]
    if n_with_pairs > n_shown:
        parts.append(f'<p class="note">Showing the first {n_shown} of {n_with_pairs} documents with annotations '
                     f"(raise <code>max_diff_docs</code> to show more); the tables hold every document.</p>")
    if not n_with_pairs:
        parts.append('<p class="note">Neither side has any annotation.</p>')
    return "".join(parts)


def diff_section(doc: DiffDocument, measures: Sequence[str], max_text_chars: int = MAX_TEXT_CHARS) -> str:
    """One document of the Diff: its key and response side by side, then its pairs."""
    parts = [f'<section class="doc" id="doc-{doc.index}"><h3>Document <code>{esc(doc.doc_id)}</code> '
             f"{_doc_counts(doc.entry, measures)}</h3>"]
    if doc.text is not None:
        key_side = [(row["key"], row["status"]) for row in doc.rows if row.get("key")]
        resp_side = [(row["response"], row["status"]) for row in doc.rows if row.get("response")]
        parts.append('<div class="sbs"><div class="pane"><h4>Key</h4>'
                     f'{render_side(doc.text, key_side, max_text_chars)}</div>'
                     '<div class="pane"><h4>Response</h4>'
                     f"{render_side(doc.text, resp_side, max_text_chars)}</div></div>")
    kf, rf = _has_features(doc.rows, "key"), _has_features(doc.rows, "response")
    columns = [c for i, c in enumerate(_DIFF_COLUMNS) if (i != 4 or kf) and (i != 10 or rf)]
    head = "<thead><tr>" + "".join(f'<th scope="col">{c}</th>' for c in columns) + "</tr></thead>"
    parts.append(f'<table class="diff sortable">{head}<tbody>{"".join(_diff_row(r, kf, rf) for r in doc.rows)}'
                 "</tbody></table></section>")
    return "".join(parts)


NO_PAIRS_NOTE = ('<p class="note">No pairs to show: this evaluation keeps no alignment (for example, it was '
                 "merged from shards). Write the report of each shard to see its Annotation Diff.</p>")


def diff_panel(report: dict[str, Any], evaluation: Any, measures: Sequence[str],
               max_docs: int | None = MAX_DIFF_DOCS, max_text_chars: int = MAX_TEXT_CHARS) -> str:
    """The Annotation Diff: per document, the key and response side by side, then the pairs."""
    if evaluation is None or getattr(evaluation, "alignment", None) is None:
        return NO_PAIRS_NOTE
    docs, n_with_pairs = diff_documents(evaluation, report.get("per_doc") or [], max_docs)
    return diff_panel_of(report, docs, n_with_pairs, measures, max_text_chars)


def diff_panel_of(report: dict[str, Any], documents: Sequence[DiffDocument], n_with_pairs: int,
                  measures: Sequence[str], max_text_chars: int = MAX_TEXT_CHARS) -> str:
    """The Annotation Diff of documents already chosen (:func:`diff_documents`), ``n_with_pairs`` of the
    corpus's documents having pairs."""
    head = diff_head(diff_labels(report, documents), sum(len(d.rows) for d in documents), len(documents),
                     n_with_pairs)
    return head + "".join(diff_section(d, measures, max_text_chars) for d in documents)


# -------------------------------------------------------------------- page ---

_CSS = """
:root{--fg:#1f2328;--muted:#59636e;--line:#d1d9e0;--head:#f6f8fa;--accent:#0969da}
*{box-sizing:border-box}
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;color:var(--fg);
margin:0;padding:16px 24px;background:#fff}
h1{font-size:22px;margin:0 0 4px}h2{font-size:18px;margin:18px 0 8px}h3{font-size:15px;margin:16px 0 6px}
h4{font-size:13px;margin:0 0 4px;color:var(--muted);text-transform:uppercase;letter-spacing:.04em}
code{font:12px ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;background:var(--head);padding:1px 4px;
border-radius:4px}
.muted{color:var(--muted);font-weight:normal;font-size:12px}
.note{color:var(--muted);font-style:italic}
.warn{background:#fff8c5;border:1px solid #d4a72c;padding:6px 10px;border-radius:6px}
.cards{display:flex;gap:10px;flex-wrap:wrap;margin:10px 0}
.card{border:1px solid var(--line);border-radius:8px;padding:6px 12px;min-width:110px}
.card b{display:block;font-size:20px}.card span{color:var(--muted);font-size:12px}
.tabs{display:flex;gap:4px;border-bottom:1px solid var(--line);margin-top:12px}
.tabs button{font:inherit;border:1px solid transparent;border-bottom:none;background:none;padding:6px 14px;
cursor:pointer;border-radius:6px 6px 0 0;color:var(--muted)}
.tabs button.active{border-color:var(--line);background:#fff;color:var(--fg);font-weight:600;margin-bottom:-1px}
.tabs{display:none}body.js .tabs{display:flex}
/* only a page with tabs hides its panels (the script marks the chosen one active); a page without tabs
   (the IAA matrix, a kappa pair page) shows all. A table wider than the page scrolls in its own box. */
body.js:not(.all) .tabs~.panel:not(.active){display:none}
.panel{padding-top:6px}
table{border-collapse:collapse;margin:6px 0 12px;font-size:13px;display:block;max-width:100%;overflow-x:auto}
th,td{border:1px solid var(--line);padding:3px 8px;text-align:left;vertical-align:top}
thead th{background:var(--head);position:sticky;top:0;white-space:nowrap}
table.sortable thead th{cursor:pointer;user-select:none}
table.sortable thead th[aria-sort=ascending]::after{content:" \\25B2";font-size:10px}
table.sortable thead th[aria-sort=descending]::after{content:" \\25BC";font-size:10px}
td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
tfoot tr.summary th,tfoot tr.summary td{background:var(--head);font-weight:600}
tr.summary.macro th,tr.summary.macro td{font-weight:normal;font-style:italic}
table.confusion td.diag{background:#b7e4c7;font-weight:600}
.filters{display:flex;gap:16px;align-items:center;flex-wrap:wrap;margin:6px 0 10px}
.filters select{font:inherit;padding:2px 4px}
.legend{display:flex;gap:6px;flex-wrap:wrap}
.chip{padding:1px 8px;border-radius:10px;font-size:12px;border:1px solid rgba(0,0,0,.12)}
section.doc{border-top:1px solid var(--line);padding-top:4px;margin-top:8px}
section.doc.empty{display:none}
.sbs{display:grid;grid-template-columns:1fr 1fr;gap:12px}
.pane{border:1px solid var(--line);border-radius:6px;padding:6px 10px;overflow-x:auto}
.pane .entities,.pane .spans{line-height:2.3!important;font-size:14px}
mark.entity{padding:.2em .4em;margin:0 .15em;border-radius:.35em;line-height:1;color:inherit}
.ent-label{font-size:.7em;font-weight:700;margin-left:.4em;vertical-align:middle;text-transform:none}
table.diff td.txt{max-width:260px;overflow-wrap:anywhere}
table.diff td.feat{max-width:200px;overflow-wrap:anywhere;font-size:12px}
table.diff td.status{font-weight:600;white-space:nowrap}
tr[hidden]{display:none}
"""

_CSS += "".join(f".st-{s}{{background:{c}}}" for s, c in STATUS_COLOURS.items())

_JS = """
(function () {
  "use strict";
  var body = document.body;
  body.classList.add("js");
  var buttons = Array.prototype.slice.call(document.querySelectorAll(".tabs button"));
  var panels = Array.prototype.slice.call(document.querySelectorAll(".panel"));
  function show(name) {
    var names = name.split("+");
    buttons.forEach(function (b) {
      var on = names.indexOf(b.getAttribute("data-tab")) >= 0;
      b.classList.toggle("active", on);
      b.setAttribute("aria-selected", on ? "true" : "false");
    });
    panels.forEach(function (p) { p.classList.toggle("active", names.indexOf(p.id.slice(4)) >= 0); });
  }
  buttons.forEach(function (b) {
    b.addEventListener("click", function () {
      body.classList.remove("all");
      show(b.getAttribute("data-tab"));
      try { history.replaceState(null, "", "#" + b.getAttribute("data-tab")); } catch (e) { /* file:// */ }
    });
  });
  var wanted = decodeURIComponent(location.hash.slice(1));
  if (wanted === "all") { body.classList.add("all"); show(""); }
  else if (wanted && wanted.split("+").every(function (n) {
    return buttons.some(function (b) { return b.getAttribute("data-tab") === n; });
  })) { show(wanted); }
  else if (buttons.length) { show(buttons[0].getAttribute("data-tab")); }

  function cellValue(row, i) {
    var cell = row.cells[i];
    if (!cell) { return ""; }
    var v = cell.getAttribute("data-v");
    return v === null ? cell.textContent.trim() : v;
  }
  function compare(a, b) {
    var x = parseFloat(a), y = parseFloat(b);
    var nx = a !== "" && isFinite(a) && !isNaN(x), ny = b !== "" && isFinite(b) && !isNaN(y);
    if (nx && ny) { return x - y; }
    if (nx !== ny) { return nx ? -1 : 1; }
    return a.localeCompare(b);
  }
  Array.prototype.forEach.call(document.querySelectorAll("table.sortable"), function (table) {
    if (!table.tHead || !table.tBodies.length) { return; }
    var head = table.tHead.rows[table.tHead.rows.length - 1];
    Array.prototype.forEach.call(head.cells, function (th, i) {
      th.addEventListener("click", function () {
        var asc = th.getAttribute("aria-sort") !== "ascending";
        Array.prototype.forEach.call(head.cells, function (h) { h.removeAttribute("aria-sort"); });
        th.setAttribute("aria-sort", asc ? "ascending" : "descending");
        var tbody = table.tBodies[0];
        var rows = Array.prototype.slice.call(tbody.rows).map(function (r, n) { return [r, n]; });
        rows.sort(function (p, q) {
          var c = compare(cellValue(p[0], i), cellValue(q[0], i));
          return (asc ? c : -c) || p[1] - q[1];
        });
        rows.forEach(function (p) { tbody.appendChild(p[0]); });
      });
    });
  });

  var ftype = document.getElementById("flt-type"), fstatus = document.getElementById("flt-status");
  var count = document.getElementById("flt-count");
  function filter() {
    var t = ftype ? ftype.value : "", s = fstatus ? fstatus.value : "", shown = 0;
    Array.prototype.forEach.call(document.querySelectorAll("section.doc"), function (sec) {
      var visible = 0;
      Array.prototype.forEach.call(sec.querySelectorAll("tr[data-status]"), function (r) {
        var st = r.getAttribute("data-status");
        var okType = !t || r.getAttribute("data-kt") === t || r.getAttribute("data-rt") === t;
        var okStatus = !s || st === s || (s === "mismatch" && (st === "incorrect" || st === "overlap"));
        r.hidden = !(okType && okStatus);
        if (!r.hidden) { visible += 1; }
      });
      sec.classList.toggle("empty", visible === 0);
      shown += visible;
    });
    if (count) { count.textContent = shown + " pairs"; }
  }
  if (ftype) { ftype.addEventListener("change", filter); }
  if (fstatus) { fstatus.addEventListener("change", filter); }

  // a document's row links to its Annotation Diff (#doc-N): open the Diff tab, then go there
  function toDoc(id) {
    var target = document.getElementById(id);
    if (!target || !document.getElementById("tab-diff")) { return false; }
    body.classList.remove("all");
    show("diff");
    target.scrollIntoView();
    return true;
  }
  Array.prototype.forEach.call(document.querySelectorAll('a[href^="#doc-"]'), function (a) {
    a.addEventListener("click", function (e) {
      if (toDoc(a.getAttribute("href").slice(1))) { e.preventDefault(); }
    });
  });
  if (/^doc-\\d+$/.test(wanted)) { toDoc(wanted); }
})();
"""

_JS_HASH = base64.b64encode(hashlib.sha256(_JS.encode("utf8")).digest()).decode("ascii")
CSP = (f"default-src 'none'; style-src 'unsafe-inline'; script-src 'sha256-{_JS_HASH}'; img-src data:; "
       "base-uri 'none'; form-action 'none'")


def _settings(report: dict[str, Any]) -> str:
    s = report.get("settings", {})
    items = [("documents", report.get("n_docs", "?")), ("key set", s.get("key_set", "?")),
             ("response set", s.get("response_set", "?")), ("pairing", s.get("pairing", "?")),
             ("F-beta", f"{s.get('beta', 1.0):g}"), ("0/0", f"{s.get('zero_division', 0.0):g}")]
    if s.get("types"):
        items.append(("types", ", ".join(map(str, s["types"]))))
    if s.get("features"):
        items.append(("features", ", ".join(map(str, s["features"]))))
    return " · ".join(f"{esc(k)} <code>{esc(v)}</code>" for k, v in items)


def render_html(report: dict[str, Any], evaluation: Any = None, *, measures: Sequence[str] = MEASURES,
                classification: dict[str, Any] | None = None, title: str | None = None,
                max_diff_docs: int | None = MAX_DIFF_DOCS, max_doc_rows: int = MAX_DOC_ROWS,
                max_text_chars: int = MAX_TEXT_CHARS, diff_html: str | None = None,
                diff_docs: Collection[int] | None = None,
                extra_tabs: Sequence[tuple[str, str, str]] = ()) -> str:
    """The report as one self-contained HTML page (no network access, works from ``file://``).

    ``evaluation`` supplies the pairs of the Annotation Diff (``diff_rows``)
    and the texts; without it (or after a merge) the Diff tab says so.
    ``diff_html`` replaces the Diff tab's content (already escaped HTML: see
    :mod:`spacy_anno_eval.report.streamed`), ``diff_docs`` then names the
    indices of the documents it shows (their rows in the Document statistics
    link to them).
    ``max_diff_docs`` caps the documents of the Diff, ``max_doc_rows`` the rows
    of the Document statistics, ``max_text_chars`` the text shown per document.
    ``extra_tabs``: more tabs after the Annotation Diff, ``(key, title, content)`` with ``content`` already
    escaped HTML (a language model's grounding table: :mod:`spacy_anno_eval.report.grounding`).
    """
    measures = check_measures(measures)
    title = title or "Corpus QA report"
    counts = report["counts"]
    cards = "".join(f'<div class="card"><b>{pct(report["micro"][m]["f"])}</b><span>F {esc(m)} (micro)</span></div>'
                    for m in measures)
    cards += "".join(f'<div class="card"><b>{esc(counts[key])}</b><span>{esc(name)}</span></div>'
                     for name, key in COUNT_COLUMNS)
    warnings = "".join(f'<p class="warn">{esc(w)}</p>' for w in report.get("warnings", []) or [])
    linked: Container[int] = set(diff_docs or ())
    if diff_html is None:
        if evaluation is None or getattr(evaluation, "alignment", None) is None:
            diff_html = NO_PAIRS_NOTE
        else:
            shown, n_with_pairs = diff_documents(evaluation, report.get("per_doc") or [], max_diff_docs)
            diff_html = diff_panel_of(report, shown, n_with_pairs, measures, max_text_chars)
            linked = {doc.index for doc in shown}
    tabs = [("corpus", "Corpus statistics",
             '<p class="muted">Percentages. Match = correct, Only key = missing, Only response = spurious, '
             "Overlap = partial; a pair whose types differ counts as missing and spurious. Click a header to "
             "sort.</p>" + corpus_table(report, measures) + type_f_chart(report, measures[0])
             + error_table(report, measures) + muc_semeval_table(report)),
            ("documents", "Document statistics", document_table(report, measures, max_doc_rows, linked)),
            ("diff", "Annotation Diff", diff_html)]
    tabs.extend(extra_tabs)
    if "decisions" in report:
        tabs.append(("errors", "Errors", analysis_panel(report)))
    if classification:
        tabs.append(("classification", "Classification", classification_panel(classification)))
    nav = "".join(f'<button type="button" role="tab" data-tab="{key}">{esc(name)}</button>' for key, name, _ in tabs)
    panels = "".join(f'<section class="panel" id="tab-{key}" role="tabpanel"><h2>{esc(name)}</h2>{content}</section>'
                     for key, name, content in tabs)
    return html_page(title, f'<div class="muted">{_settings(report)}</div><div class="cards">{cards}</div>{warnings}',
                     f'<nav class="tabs" role="tablist">{nav}</nav>\n{panels}\n')


def html_page(title: str, header: str, body: str, *, css: str = "") -> str:
    """One self-contained page: the Content-Security-Policy, the shared CSS (then ``css``), a header with
    the escaped ``title`` and the ``header`` HTML, the ``body`` HTML and the shared script (sortable
    tables, tabs). ``header`` and ``body`` must already be escaped."""
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en"><head><meta charset="utf-8">'
        f'<meta http-equiv="Content-Security-Policy" content="{CSP}">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        '<meta name="generator" content="spacy-anno-eval">'
        f"<title>{esc(title)}</title><style>{_CSS}{css}</style></head>\n"
        f"<body><header><h1>{esc(title)}</h1>{header}</header>{body}"
        f"<script>{_JS}</script></body></html>\n"
    )
