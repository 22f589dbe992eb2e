"""The agreement matrix (GATE's QA summariser) as HTML: annotators on both axes, one page per pair.

:func:`render_matrix_html` draws the matrix of an IAA result
(:func:`spacy_anno_eval.iaa.pairwise_f`): each cell shows the pair's micro F
and, below it, the macro F over documents; the last two columns hold each
annotator's mean over its pairs. Cells are coloured on a red (0.0) - white
(0.5) - green (1.0) scale. Each off-diagonal cell links to the pair's page,
the ordinary Corpus QA report of that pair (per-document figures and the
Annotation Diff with the disagreeing annotations in context).

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


def pair_file(i: int, j: int) -> str:
    """The file name of the page of annotators ``i`` and ``j`` (positions), ``i < j``."""
    return f"pair-{min(i, j)}-{max(i, j)}.html"


def render_matrix_html(result: dict[str, Any], *, title: str | None = None, links: bool = True) -> str:
    """The matrix page of an IAA result (see the module docstring)."""
    names = result["annotators"]
    matrix = result["matrix"]
    measure = matrix["measure"]
    title = title or f"Inter-annotator agreement: {len(names)} annotators, {result['n_docs']} documents"
    head = "".join(f"<th>{esc(n)}</th>" for n in names)
    rows = []
    for a, name in enumerate(names):
        cells = []
        for b in range(len(names)):
            micro, macro = matrix["micro"][a][b], matrix["macro_docs"][a][b]
            text = f"{pct(micro)}<br><small>{pct(macro)}</small>" if micro is not None else "n/a"
            if links and a != b:
                text = f'<a href="{pair_file(a, b)}">{text}</a>'
            cells.append(f'<td style="background:{cell_colour(micro)}" title="micro / macro over documents">'
                         f"{text}</td>")
        mean_micro, mean_macro = matrix["annotator_mean_micro"][a], matrix["annotator_mean_macro_docs"][a]
        cells.append(f'<td style="background:{cell_colour(mean_micro)}"><b>{pct(mean_micro)}</b></td>')
        cells.append(f'<td style="background:{cell_colour(mean_macro)}"><b>{pct(mean_macro)}</b></td>')
        rows.append(f"<tr><th>{esc(name)}</th>{''.join(cells)}</tr>")
    mean = result["mean_of_pairs"]
    summary = " · ".join(f"{esc(m)} F {pct(mean[m]['f'])}" for m in mean)
    type_rows = "".join(f"<tr><td>{esc(t)}</td>" + "".join(f"<td>{pct(v)}</td>" for v in fs.values()) + "</tr>"
                        for t, fs in result["per_type"].items())
    type_head = "".join(f"<th>F {esc(m)}</th>" for m in mean)
    header = (f'<div class="muted">Pairwise F ({esc(measure)}; micro, and macro over documents below it), '
              f"mean of pairs: {summary}</div>")
    body = (f'<section class="panel"><table class="matrix"><thead><tr><th></th>{head}'
            "<th>mean (micro)</th><th>mean (macro)</th></tr></thead>"
            f"<tbody>{''.join(rows)}</tbody></table>"
            f"<h2>Per type (mean of pairs)</h2><table><thead><tr><th>Type</th>{type_head}</tr></thead>"
            f"<tbody>{type_rows}</tbody></table></section>")
    return html_page(title, header, body, css=".matrix td{text-align:center;min-width:5em}.matrix a{color:inherit}")


def write_matrix_reports(result: dict[str, Any], output_dir: str | os.PathLike) -> dict[str, Path]:
    """``index.html`` (the matrix) and one QA page per pair in ``output_dir``; return ``{name: path}``."""
    from ..atomic import write_text

    folder = Path(output_dir)
    pages = {"index.html": render_matrix_html(result)}
    names = result["annotators"]
    for pair in result["pairs"]:
        i, j = pair["i"], pair["j"]
        pages[pair_file(i, j)] = render_html(pair["report"], result["evaluations"].get((i, j)),
                                             title=f"{names[i]} (key) vs {names[j]} (response)")
    return {name: write_text(folder / name, page) for name, page in pages.items()}


__all__ = ["cell_colour", "pair_file", "render_matrix_html", "write_matrix_reports"]
