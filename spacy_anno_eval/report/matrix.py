"""The agreement matrix (GATE's QA summariser) as HTML: annotators on both axes, one page per pair.

:func:`render_matrix_html` draws the matrix of an IAA result
(:func:`spacy_anno_eval.agreement.iaa.pairwise_f`, or :func:`~spacy_anno_eval.agreement.iaa.pairwise_kappa`
with Cohen's kappa in the cells): each cell shows the pair's micro F
and, below it, the macro F over documents; the last two columns hold each
annotator's mean over its pairs. Cells are coloured on a red (0.0) - white
(0.5) - green (1.0) scale. Every cell's title says how many documents the
pair covers (both annotators annotated them; on the diagonal, those the
annotator annotated), and a cell whose pair covers fewer documents than the
corpus shows that count under its figures, as the pair's page header does.
Each off-diagonal cell links to the pair's page,
the ordinary Corpus QA report of that pair (per-document figures and the
Annotation Diff with the disagreeing annotations in context). For kappa, the
index also shows the chance-corrected family (Gwet's AC1, Brennan-Prediger,
Conger's and Fleiss' kappa of all annotators per type, each pair's AC1,
Brennan-Prediger and PABAK, each annotator against the majority) and each
pair's page PABAK with its prevalence and bias indices and the negative
specific agreement of every category.

:func:`write_matrix_reports` writes ``index.html`` and ``pair-I-J.html`` (I, J
are annotator positions, never names, so no file name comes from the data)
into one folder, every page rendered before the first is written and each
written atomically. Every name and figure is HTML-escaped; nothing is
computed here.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from .html import esc, html_page, render_html
from .rows import pct


def cell_colour(value: float | None) -> str:
    """Red (0.0) -> white (0.5) -> green (1.0) as ``#rrggbb``; grey when undefined."""
    if value is None:
        return "#e9ecef"
    v = min(max(float(value), 0.0), 1.0)
    red, white, green = (230, 80, 80), (255, 255, 255), (80, 190, 100)
    lo, hi, t = (red, white, v / 0.5) if v <= 0.5 else (white, green, (v - 0.5) / 0.5)
    return "#" + "".join(f"{round(a + (b - a) * t):02x}" for a, b in zip(lo, hi, strict=True))


KAPPA_NAMES = {"observed_agreement": "observed agreement", "cohen_kappa": "Cohen's kappa", "scott_pi": "Scott's pi"}
CONTEXT = 40


def _num(value: float | None) -> str:
    """A coefficient with three decimals; ``n/a`` when undefined."""
    return "n/a" if value is None else f"{value:.3f}"


def pair_file(i: int, j: int) -> str:
    """The file name of the page of annotators ``i`` and ``j`` (positions), ``i < j``."""
    return f"pair-{min(i, j)}-{max(i, j)}.html"


def docs_covered_text(covered: int | None, total: int) -> str:
    """``all 10 documents`` or ``8 of 10 documents``."""
    if covered is None or covered == total:
        return f"all {total} documents"
    return f"{covered} of {total} documents"


def render_matrix_html(result: dict[str, Any], *, title: str | None = None, links: bool = True) -> str:
    """The matrix page of an IAA result (see the module docstring)."""
    names = result["annotators"]
    matrix = result["matrix"]
    measure = matrix["measure"]
    total = result["n_docs"]
    docs = matrix.get("docs_covered")
    title = title or f"Inter-annotator agreement: {len(names)} annotators, {total} documents"
    head = "".join(f"<th>{esc(n)}</th>" for n in names)
    fmt = _num if result.get("measure") == "kappa" else pct
    rows = []
    for a, name in enumerate(names):
        cells = []
        for b in range(len(names)):
            micro, macro = matrix["micro"][a][b], matrix["macro_docs"][a][b]
            covered = None if docs is None else docs[a][b]
            text = f"{fmt(micro)}<br><small>{fmt(macro)}</small>" if micro is not None else "n/a"
            if covered is not None and covered != total:
                text += f'<br><small class="docs">{covered}/{total} docs</small>'
            if links and a != b:
                text = f'<a href="{pair_file(a, b)}">{text}</a>'
            what = "documents annotated" if a == b else "documents both annotated"
            tip = f"micro / macro over documents; {what}: {docs_covered_text(covered, total)}"
            cells.append(f'<td style="background:{cell_colour(micro)}" title="{esc(tip)}">{text}</td>')
        mean_micro, mean_macro = matrix["annotator_mean_micro"][a], matrix["annotator_mean_macro_docs"][a]
        cells.append(f'<td style="background:{cell_colour(mean_micro)}"><b>{fmt(mean_micro)}</b></td>')
        cells.append(f'<td style="background:{cell_colour(mean_macro)}"><b>{fmt(mean_macro)}</b></td>')
        rows.append(f"<tr><th>{esc(name)}</th>{''.join(cells)}</tr>")
    mean = result["mean_of_pairs"]
    if result.get("measure") == "kappa":
        summary = " · ".join(f"{esc(KAPPA_NAMES[k])} {_num(v)}" for k, v in mean.items())
        type_head = "".join(f"<th>{esc(KAPPA_NAMES[k])}</th>" for k in mean)
        type_rows = "".join(f"<tr><td>{esc(t)}</td>" + "".join(f"<td>{_num(v)}</td>" for v in fs.values())
                            + "</tr>" for t, fs in result["per_type"].items())
        header = ('<div class="muted">Cohen\'s kappa per pair (mean over types; the mean over documents below '
                  f"it), mean of pairs: {summary}</div>")
        family = result.get("chance_corrected")
        if family:
            header += f'<div class="muted">{_family_summary(family)}</div>'
    else:
        summary = " · ".join(f"{esc(m)} F {pct(mean[m]['f'])}" for m in mean)
        type_rows = "".join(f"<tr><td>{esc(t)}</td>" + "".join(f"<td>{pct(v)}</td>" for v in fs.values())
                            + "</tr>" for t, fs in result["per_type"].items())
        type_head = "".join(f"<th>F {esc(m)}</th>" for m in mean)
        header = (f'<div class="muted">Pairwise F ({esc(measure)}; micro, and macro over documents below it), '
                  f"mean of pairs: {summary}</div>")
    if docs is not None and any(p.get("docs_covered", total) != total for p in result.get("pairs", [])):
        header += ('<div class="muted">Each pair is compared on the documents both annotators annotated (the '
                   "count under a cell); a pair that shares none has no figures and is left out of the means of "
                   "pairs.</div>")
    # no tabs on this page: <main>, not a tab panel (which the shared script would keep hidden)
    family = result.get("chance_corrected") if result.get("measure") == "kappa" else None
    body = (f'<main><table class="matrix"><thead><tr><th></th>{head}'
            "<th>mean (micro)</th><th>mean (macro)</th></tr></thead>"
            f"<tbody>{''.join(rows)}</tbody></table>"
            f'<h2>Per type (mean of pairs)</h2><table class="per-type"><thead><tr><th>Type</th>{type_head}</tr>'
            f"</thead><tbody>{type_rows}</tbody></table>"
            f"{_family_tables(result, family) if family else ''}</main>")
    return html_page(title, header, body, css=".matrix td{text-align:center;min-width:5em}.matrix a{color:inherit}")


FAMILY_NAMES = {"gwet_ac": "Gwet's AC1", "brennan_prediger": "Brennan-Prediger", "pabak": "PABAK",
                "conger_kappa": "Conger's kappa", "fleiss_kappa_averaged": "Fleiss' kappa"}


def _family_summary(family: dict[str, Any]) -> str:
    """The chance-corrected family's overall figures in one line (escaped)."""
    pairs = " · ".join(f"{esc(FAMILY_NAMES.get(k, k))} {_num(v)}" for k, v in family["mean_of_pairs"].items())
    over = family["mean_over_types"]
    everyone = " · ".join(f"{esc(FAMILY_NAMES.get(k, k))} {_num(v)}" for k, v in over.items() if k != "majority")
    majority = "" if over.get("majority") is None else f" · agreement with the majority {_num(over['majority'])}"
    return (f"Chance-corrected, mean of pairs: {pairs}; all annotators (mean over types): {everyone}"
            f"{majority}")


def _family_tables(result: dict[str, Any], family: dict[str, Any]) -> str:
    """The chance-corrected family of all annotators per type, each pair's (mean over types), and each annotator
    against the majority of the others."""
    keys = ("gwet_ac", "brennan_prediger", "conger_kappa", "fleiss_kappa_averaged")
    head = "".join(f"<th>{esc(FAMILY_NAMES[k])}</th>" for k in keys)
    rows = "".join(f"<tr><td>{esc(t)}</td>" + "".join(f"<td>{_num((f.get(k) or {}).get('value'))}</td>" for k in keys)
                   + f"<td>{f.get('n_units', 0)}</td></tr>" for t, f in family["per_type"].items())
    pair_keys = list(family["mean_of_pairs"])
    pair_head = "".join(f"<th>{esc(FAMILY_NAMES.get(k, k))}</th>" for k in pair_keys)
    pair_rows = "".join(
        f'<tr><td><a href="{pair_file(p["i"], p["j"])}">{esc(p["a"])} / {esc(p["b"])}</a></td>'
        + "".join(f"<td>{_num(p['chance_corrected']['mean_over_types'].get(k))}</td>" for k in pair_keys) + "</tr>"
        for p in result.get("pairs", []) if "chance_corrected" in p)
    majority = "".join(f"<tr><td>{esc(a)}</td><td>{_num(v)}</td></tr>"
                       for a, v in (family.get("majority_per_annotator") or {}).items())
    return ("<h2>Chance-corrected, all annotators (per type)</h2>"
            f'<table class="family"><thead><tr><th>Type</th>{head}<th>units</th></tr></thead>'
            f"<tbody>{rows}</tbody></table>"
            "<h2>Chance-corrected per pair (mean over types)</h2>"
            f'<table class="family-pairs"><thead><tr><th>Pair</th>{pair_head}</tr></thead>'
            f"<tbody>{pair_rows}</tbody></table>"
            "<h2>Each annotator against the majority of the others</h2>"
            '<table class="majority"><thead><tr><th>Annotator</th><th>observed agreement (mean over types)</th>'
            f"</tr></thead><tbody>{majority}</tbody></table>")


def _pair_family_line(family: dict[str, Any]) -> str:
    """One pair's and type's Gwet AC1, Brennan-Prediger and PABAK (with its indices for two categories)."""
    if not family:
        return ""
    pb = family.get("pabak") or {}
    parts = [f"Gwet's AC1 {_num((family.get('gwet_ac') or {}).get('value'))}",
             f"Brennan-Prediger {_num((family.get('brennan_prediger') or {}).get('value'))}",
             f"PABAK {_num(pb.get('pabak'))}"]
    if "prevalence_index" in pb:
        parts += [f"prevalence index {_num(pb['prevalence_index'])}", f"bias index {_num(pb['bias_index'])}"]
    return f"<p>{' · '.join(parts)}</p>"


def render_kappa_pair_html(result: dict[str, Any], pair: dict[str, Any]) -> str:
    """The page of one pair of a ``kappa`` result: per type the figures, the contingency table with specific
    agreement, the figures per document, and every item the two categorised differently, in context."""
    a, b = pair["a"], pair["b"]
    texts = result.get("texts")
    parts = []
    for label, f in pair["per_type"].items():
        cats = f["confusion"]["categories"]
        head = "".join(f"<th>{esc(c)}</th>" for c in cats)
        negative = (f.get("chance_corrected") or {}).get("specific_agreement") or {}
        body = "".join(f"<tr><th>{esc(c)}</th>" + "".join(f"<td>{v}</td>" for v in row)
                       + f"<td>{_num(f['specific_agreement'][c])}</td>"
                       + (f"<td>{_num(negative[c]['negative'])}</td>" if c in negative else "") + "</tr>"
                       for c, row in zip(cats, f["confusion"]["matrix"], strict=True))
        ci = "".join(f" <small>[{_num(f[k + '_ci']['low'])}, {_num(f[k + '_ci']['high'])}]</small>"
                     if k + "_ci" in f else "" for k in ("cohen_kappa",))
        figures = (f"{f['n']} items · observed agreement {_num(f['observed_agreement'])} · Cohen's kappa "
                   f"{_num(f['cohen_kappa'])}{ci} · Scott's pi {_num(f['scott_pi'])}")
        docs = "".join(f"<tr><td>{esc(d['doc_id'])}</td><td>{d['n']}</td><td>{_num(d['observed_agreement'])}</td>"
                       f"<td>{_num(d['cohen_kappa'])}</td><td>{_num(d['scott_pi'])}</td></tr>" for d in f["per_doc"])
        parts.append(f"<h2>{esc(label)}</h2><p>{figures}</p>{_pair_family_line(f.get('chance_corrected') or {})}"
                     f'<table class="confusion"><thead><tr><th>{esc(a)} \\ {esc(b)}</th>{head}'
                     f"<th>specific agreement{' (positive)</th><th>negative' if negative else ''}</th></tr>"
                     f"</thead><tbody>{body}</tbody></table>"
                     "<details><summary>Per document</summary><table><thead><tr><th>Document</th><th>Items</th>"
                     "<th>Ao</th><th>kappa</th><th>pi</th></tr></thead>"
                     f"<tbody>{docs}</tbody></table></details>")
    rows = []
    for item in result.get("items", {}).get((pair["i"], pair["j"]), []):
        s, e = item["start"], item["end"]
        if texts is not None:
            text = texts[item["doc"]]
            context = (f"{esc(text[max(0, s - CONTEXT):s])}<mark>{esc(text[s:e])}</mark>"
                       f"{esc(text[e:e + CONTEXT])}")
        else:
            context = f"{s}-{e}"
        rows.append(f"<tr><td>{esc(item['doc_id'])}</td><td>{esc(item['type'])}</td>"
                    f"<td>{esc(item['category_a'])}</td><td>{esc(item['category_b'])}</td><td>{context}</td></tr>")
    parts.append(f'<h2>Disagreements ({len(rows)})</h2><table class="disagreements"><thead><tr>'
                 "<th>Document</th><th>Type</th>"
                 f"<th>{esc(a)}</th><th>{esc(b)}</th><th>In context</th></tr></thead>"
                 f"<tbody>{''.join(rows)}</tbody></table>")
    covered = docs_covered_text(pair.get("docs_covered"), result["n_docs"])
    header = (f'<div class="muted"><a href="index.html">agreement matrix</a> · {covered}'
              f'{"" if pair.get("docs_covered") in (None, result["n_docs"]) else " (both annotated)"}</div>')
    return html_page(f"{a} vs {b}: kappa", header, f'<main>{"".join(parts)}</main>')


def write_matrix_reports(result: dict[str, Any], output_dir: str | os.PathLike) -> dict[str, Path]:
    """``index.html`` (the matrix) and one QA page per pair in ``output_dir``; return ``{name: path}``."""
    from ..files import write_text

    folder = Path(output_dir)
    pages = {"index.html": render_matrix_html(result)}
    names = result["annotators"]
    for pair in result["pairs"]:
        i, j = pair["i"], pair["j"]
        if result.get("measure") == "kappa":
            pages[pair_file(i, j)] = render_kappa_pair_html(result, pair)
        else:
            covered = docs_covered_text(pair.get("docs_covered"), result["n_docs"])
            both = "" if pair.get("docs_covered") in (None, result["n_docs"]) else " both annotated"
            pages[pair_file(i, j)] = render_html(pair["report"], result["evaluations"].get((i, j)),
                                                 title=f"{names[i]} (key) vs {names[j]} (response), "
                                                       f"{covered}{both}")
    return {name: write_text(folder / name, page) for name, page in pages.items()}


__all__ = ["cell_colour", "docs_covered_text", "pair_file", "render_kappa_pair_html", "render_matrix_html",
           "write_matrix_reports"]
