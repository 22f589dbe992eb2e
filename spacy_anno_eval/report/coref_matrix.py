"""The coreference agreement matrix as HTML: annotators on both axes, one page per pair.

The span matrix (:mod:`spacy_anno_eval.report.matrix`) shows micro and macro
F of span pairs and links to a Corpus QA page; a coreference pair has neither
(its figures are the metrics of :mod:`spacy_anno_eval.coref.metrics`, each
the mean of both directions), so this is a small variant beside it that
shares its colours (:func:`~spacy_anno_eval.report.matrix.cell_colour`: red
0.0, white 0.5, green 1.0; grey where there is no figure), its pair file names
(:func:`~spacy_anno_eval.report.matrix.pair_file`) and the page shell
(:func:`~spacy_anno_eval.report.html.html_page`: the Content-Security-Policy,
the shared CSS and script).

- ``index.html`` (:func:`render_coref_matrix_html`): the matrix of the chosen
  metric's symmetrised F, each cell linking to its pair's page, each
  annotator's mean over its pairs in the last column, the diagonal grey
  (an annotator is not compared with itself); then every metric's
  symmetrised R, P and F, mean of pairs; each annotator's mean F per metric;
  every pair's F per metric.
- ``pair-I-J.html`` (:func:`render_coref_pair_html`): every metric's
  symmetrised R, P and F beside each direction's (I as the key, then J), and
  the symmetrised F of every metric per document.

:func:`write_coref_matrix_reports` renders every page before writing the first
(:func:`spacy_anno_eval.files.write_text`, atomically). I, J are annotator
positions, never names, so no file name comes from the data. Every name and
document id is escaped (:func:`~spacy_anno_eval.report.escape.esc`); every
figure is read from a :meth:`~spacy_anno_eval.coref.agreement.CorefAgreement.to_dict`
result, nothing is computed here.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from .coref_terminal import NAMES
from .escape import esc
from .html import html_page
from .matrix import cell_colour, pair_file
from .rows import pct

LONG = {"conll": "CoNLL", **NAMES}
CSS = (".matrix td{text-align:center;min-width:5em}.matrix a{color:inherit}"
       "td.fig{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}"
       "th.dir{text-align:center}")


def _fig(value: float | None) -> str:
    """A figure as a percentage; ``-`` where there is none."""
    return "-" if value is None else pct(value)


def _documents(n: int) -> str:
    """``1 document``, ``2 documents``."""
    return f"{n} document{'' if n == 1 else 's'}"


def _settings(result: dict[str, Any]) -> str:
    """The settings line (escaped; a yes/no setting as yes or no)."""
    items = [("documents", result["n_docs"]), *result.get("settings", {}).items()]
    return " · ".join(f"{esc(str(k).replace('_', ' '))} <code>{esc(_value(v))}</code>" for k, v in items)


def _value(value: Any) -> Any:
    """A setting as shown: ``yes`` / ``no`` for a boolean, else the value."""
    return ("yes" if value else "no") if isinstance(value, bool) else value


def _coloured(value: float | None, text: str | None = None) -> str:
    """A figure cell coloured on the matrix's scale."""
    return f'<td class="fig" style="background:{cell_colour(value)}">{text or _fig(value)}</td>'


def render_coref_matrix_html(result: dict[str, Any], *, title: str | None = None) -> str:
    """The index page of a coreference agreement result (see the module)."""
    names = result["annotators"]
    matrix = result["matrix"]
    metric = matrix["metric"]
    metrics = result["metrics"]
    title = title or f"Coreference agreement: {len(names)} annotators, {_documents(result['n_docs'])}"
    head = "".join(f"<th>{esc(n)}</th>" for n in names)
    rows = []
    for a, name in enumerate(names):
        cells = []
        for b, value in enumerate(matrix["cells"][a]):
            if a == b or value is None:
                cells.append(f'<td style="background:{cell_colour(None)}" title="the annotator itself">-</td>')
                continue
            tip = f"{LONG[metric]} F of {names[min(a, b)]} and {names[max(a, b)]}, the mean of both directions"
            cells.append(f'<td style="background:{cell_colour(value)}" title="{esc(tip)}">'
                         f'<a href="{pair_file(a, b)}">{_fig(value)}</a></td>')
        mean = matrix["annotator_mean"][a]
        cells.append(f'<td style="background:{cell_colour(mean)}"><b>{_fig(mean)}</b></td>')
        rows.append(f"<tr><th>{esc(name)}</th>{''.join(cells)}</tr>")
    mean = result["mean_of_pairs"]
    overall = "".join(
        f"<tr><th>{esc(LONG[m])}</th>"
        + "".join(f'<td class="fig">{_fig(mean[m].get(k))}</td>' for k in ("r", "p")) + _coloured(mean[m]["f"])
        + "</tr>" for m in metrics)
    fhead = "".join(f"<th>{esc(LONG[m])}</th>" for m in metrics)
    per_annotator = "".join(
        f"<tr><th>{esc(a)}</th>" + "".join(_coloured(f[m]["f"]) for m in metrics) + "</tr>"
        for a, f in result["annotator_means"].items())
    per_pair = "".join(
        f'<tr><th><a href="{pair_file(p["i"], p["j"])}">{esc(p["a"])} / {esc(p["b"])}</a></th>'
        + "".join(_coloured(p["figures"][m]["f"]) for m in metrics) + "</tr>" for p in result["pairs"])
    header = (f'<div class="muted">{esc(LONG[metric])} F per pair of annotators (%), the mean of both directions '
              f"(each annotator as the key); mean of pairs {_fig(matrix['mean_of_pairs'])}. Click a cell for the "
              f"pair's figures.</div><div class=\"muted\">{_settings(result)}</div>")
    body = (f'<main><table class="matrix"><thead><tr><th></th>{head}<th>mean</th></tr></thead>'
            f"<tbody>{''.join(rows)}</tbody></table>"
            "<h2>Every metric, mean of pairs</h2>"
            '<table class="metrics sortable"><thead><tr><th>Metric</th><th>R</th><th>P</th><th>F</th></tr></thead>'
            f"<tbody>{overall}</tbody></table>"
            "<h2>Each annotator, mean over its pairs (F)</h2>"
            f'<table class="annotators sortable"><thead><tr><th>Annotator</th>{fhead}</tr></thead>'
            f"<tbody>{per_annotator}</tbody></table>"
            "<h2>Every pair (F)</h2>"
            f'<table class="pairs sortable"><thead><tr><th>Pair</th>{fhead}</tr></thead>'
            f"<tbody>{per_pair}</tbody></table></main>")
    # no tabs on this page: <main>, not a tab panel (which the shared script would keep hidden)
    return html_page(title, header, body, css=CSS)


def render_coref_pair_html(result: dict[str, Any], pair: dict[str, Any]) -> str:
    """The page of one pair of a coreference agreement result (see the module)."""
    a, b = pair["a"], pair["b"]
    metrics = result["metrics"]
    sides = (("figures", "mean of both"), ("a_as_key", f"{a} as key"), ("b_as_key", f"{b} as key"))
    groups = "".join(f'<th colspan="3" class="dir">{esc(label)}</th>' for _, label in sides)
    sub = "<th>R</th><th>P</th><th>F</th>" * len(sides)
    rows = []
    for m in metrics:
        cells = []
        for side, _ in sides:
            f = pair[side][m]
            cells.append("".join(f'<td class="fig">{_fig(f.get(k))}</td>' for k in ("r", "p")))
            cells.append(_coloured(f["f"]))
        rows.append(f"<tr><th>{esc(LONG[m])}</th>{''.join(cells)}</tr>")
    fhead = "".join(f"<th>{esc(LONG[m])}</th>" for m in metrics)
    docs = "".join(f"<tr><td>{esc(d['id'])}</td>" + "".join(_coloured(d[m]["f"]) for m in metrics) + "</tr>"
                   for d in pair.get("per_doc", []))
    per_doc = ("<h2>Per document (F, the mean of both directions)</h2>"
               f'<table class="per-doc sortable"><thead><tr><th>Document</th>{fhead}</tr></thead>'
               f"<tbody>{docs}</tbody></table>") if docs else ""
    header = (f'<div class="muted"><a href="index.html">agreement matrix</a> · {_documents(result["n_docs"])} · '
              f"where a metric is symmetric its F is the same both ways, and the mean's R equals its P</div>"
              f'<div class="muted">{_settings(result)}</div>')
    body = (f'<main><h2>Every metric (%)</h2><table class="figures"><thead><tr><th rowspan="2">Metric</th>{groups}'
            f"</tr><tr>{sub}</tr></thead><tbody>{''.join(rows)}</tbody></table>{per_doc}</main>")
    return html_page(f"{a} vs {b}: coreference agreement", header, body, css=CSS)


def write_coref_matrix_reports(result: dict[str, Any], output_dir: str | os.PathLike) -> dict[str, Path]:
    """``index.html`` and one page per pair in ``output_dir``, every page rendered before the first is written;
    return ``{file name: path}``."""
    from ..files import write_text

    folder = Path(output_dir)
    pages = {"index.html": render_coref_matrix_html(result)}
    for pair in result["pairs"]:
        pages[pair_file(pair["i"], pair["j"])] = render_coref_pair_html(result, pair)
    return {name: write_text(folder / name, page) for name, page in pages.items()}


__all__ = ["render_coref_matrix_html", "render_coref_pair_html", "write_coref_matrix_reports"]
