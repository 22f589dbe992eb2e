"""The buckets of the error analysis as bar charts (inline SVG): one chart per feature, one bar per bucket with
its strict F, the interval as a whisker when computed, and the bucket's key and response counts beside it.

A renderer only: the figures come from the report's ``buckets`` section
(:func:`spacy_anno_eval.workflows.analysis.bucket_sections`); labels are escaped, and nothing but inline SVG
is drawn, so the page's Content-Security-Policy is unchanged.
"""

from __future__ import annotations

from typing import Any

from .escape import esc
from .rows import pct, shorten

BAR_WIDTH = 300
ROW = 20
LABEL_WIDTH = 110


def bucket_chart(section: dict[str, Any]) -> str:
    """One feature's chart (see the module); the bar's tooltip gives the bucket's full name and figures."""
    feature = section["feature"]
    rows = []
    for i, (name, v) in enumerate(section["buckets"].items()):
        f = float(v["strict"]["f"])
        y = i * ROW
        width = max(round(f * BAR_WIDTH), 1)
        whisker = ""
        if "ci" in v:
            lo, hi = (float(x) for x in v["ci"]["strict"]["f"])
            x1, x2 = LABEL_WIDTH + round(lo * BAR_WIDTH), LABEL_WIDTH + round(hi * BAR_WIDTH)
            whisker = (f'<line x1="{x1}" x2="{x2}" y1="{y + ROW // 2}" y2="{y + ROW // 2}" stroke="#222" '
                       f'stroke-width="1.5"></line>')
        tip = f"{name}: strict F {pct(f)}, lenient F {pct(v['lenient']['f'])}; key {v['key']}, response {v['response']}"
        rows.append(f'<g class="bucket"><title>{esc(tip)}</title>'
                    f'<text x="{LABEL_WIDTH - 6}" y="{y + 14}" text-anchor="end">{esc(shorten(name, 16))}</text>'
                    f'<rect x="{LABEL_WIDTH}" y="{y + 3}" width="{width}" height="{ROW - 6}" fill="#7950f2"></rect>'
                    f'{whisker}<text x="{LABEL_WIDTH + BAR_WIDTH + 8}" y="{y + 14}">{pct(f)} '
                    f'({esc(v["key"])} / {esc(v["response"])})</text></g>')
    height = max(len(rows), 1) * ROW
    return (f'<figure class="chart bucket-chart"><figcaption>Strict F by {esc(feature.replace("_", " "))} '
            f'(%; key / response annotations)</figcaption><svg xmlns="http://www.w3.org/2000/svg" role="img" '
            f'width="{LABEL_WIDTH + BAR_WIDTH + 150}" height="{height}" style="font:12px sans-serif">'
            f'{"".join(rows)}</svg></figure>')


def bucket_charts(report: dict[str, Any]) -> str:
    """Every feature's chart, under one heading; empty when the report has no buckets."""
    sections = report.get("buckets") or []
    if not sections:
        return ""
    return "<h3>Where it fails: F by bucket</h3>" + "".join(bucket_chart(s) for s in sections)


__all__ = ["bucket_chart", "bucket_charts"]
