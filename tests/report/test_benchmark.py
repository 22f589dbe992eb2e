"""Benchmark renderers (spacy_anno_eval.report.benchmark): HTML, Markdown, terminal and flat rows.

The input is a small hand-written report of the default mode: two types (ORG
improves, a type with an awkward label regresses on strict F), one fixed and
one broken annotation, a document text with a script tag.
"""

from __future__ import annotations

import base64
import hashlib
import re
import sys

import pytest

from spacy_anno_eval.report.benchmark import (
    ROW_COLUMNS,
    benchmark_dataframe,
    benchmark_rows,
    print_benchmark,
    render_benchmark_html,
    render_benchmark_markdown,
)

BAD = 'X&<"'  # a label that must be escaped everywhere
BAD_HTML = "X&amp;&lt;&quot;"
XSS_TEXT = "<script>alert(1)</script>"
DOC_ID = "news|001"
OLD_NAME = "base<1>"
MEASURES = ["strict", "lenient"]


def _fig(old: float, new: float, direction: str, *, ci: tuple[float, float] = (-0.05, 0.05), p_boot: float = 0.5,
         p_rand: float = 0.6, regression: bool = False) -> dict:
    return {"old": old, "new": new, "delta": new - old, "direction": direction, "ci": list(ci),
            "p_bootstrap": p_boot, "p_randomization": p_rand, "regression": regression}


def _block(old: float, new: float, direction: str, *, regression_strict_f: bool = False, **kw) -> dict:
    return {m: {k: _fig(old, new, direction, regression=regression_strict_f and m == "strict" and k == "f", **kw)
                for k in "prf"} for m in MEASURES}


def _side(label: str, start: int, end: int, text: str) -> dict:
    return {"start": start, "end": end, "label": label, "text": text}


def make_report() -> dict:
    """A minimal but complete ``run_benchmark(...).report`` of the default mode."""
    regression = {"scope": BAD, "measure": "strict", "figure": "f", "old": 0.8, "new": 0.4, "delta": -0.4,
                  "ci": [-0.6, -0.2], "p_bootstrap": 0.002, "p_randomization": 0.004}
    return {
        "mode": "default",
        "settings": {"threshold": 0.7, "key_set": "ents", "response_set": "ents", "types": None, "features": None,
                     "measures": MEASURES, "beta": 1.0, "max_drop": 0.01, "gate": ["f"], "n_samples": 200,
                     "confidence": 0.95, "seed": 7, "pairing": "optimal"},
        "old": {"name": OLD_NAME,
                "manifest": {"name": OLD_NAME, "stored_at": "2026-01-02T03:04:05+00:00",
                             "model": {"name": "demo", "version": "1.0.0", "lang": "en"}},
                "report": {"n_docs": 2}},
        "new": {"name": "current", "manifest": {"name": "current", "model": {"name": "demo", "version": "2.0.0"}},
                "report": {"n_docs": 2}},
        "comparison": {
            "old": OLD_NAME, "new": "current",
            "overall": _block(0.7, 0.6, "down", ci=(-0.3, 0.02), p_boot=0.08, p_rand=0.09),
            "per_type": {"ORG": _block(0.5, 0.75, "up", ci=(0.1, 0.4), p_boot=0.01, p_rand=0.02),
                         BAD: _block(0.8, 0.4, "down", ci=(-0.6, -0.2), p_boot=0.002, p_rand=0.004,
                                     regression_strict_f=True)},
            "support": {"ORG": {"old": {"key": 4, "response": 3}, "new": {"key": 4, "response": 4}},
                        BAD: {"old": {"key": 5, "response": 5}, "new": {"key": 5, "response": 2}}},
            "per_doc": [{"doc": 0, "id": DOC_ID,
                         **{m: {k: {"old": 0.5, "new": 1.0, "delta": 0.5, "direction": "up"} for k in "prf"}
                            for m in MEASURES}}],
            "changes": [
                {"doc": 0, "doc_id": DOC_ID, "change": "fixed", "key": _side("ORG", 0, 25, XSS_TEXT),
                 "old": {"status": "missing", "response": None},
                 "new": {"status": "correct", "response": _side("ORG", 0, 25, XSS_TEXT)}},
                {"doc": 1, "doc_id": "d2", "change": "broken", "key": _side(BAD, 3, 8, "Paris"),
                 "old": {"status": "correct", "response": _side(BAD, 3, 8, "Paris")},
                 "new": {"status": "missing", "response": None}},
            ],
            "significance": {"method": "paired bootstrap", "n_samples": 200, "seed": 7, "confidence": 0.95,
                             "max_drop": 0.01, "gate": ["f"]},
            "regressions": [regression],
            "verdict": "regression",
        },
    }


def make_ok_report() -> dict:
    """The same report without any regression."""
    report = make_report()
    comp = report["comparison"]
    for block in [comp["overall"], *comp["per_type"].values()]:
        for figures in block.values():
            for cell in figures.values():
                cell["regression"] = False
    comp["regressions"] = []
    comp["verdict"] = "ok"
    return report


def _type_row(html: str, label_html: str) -> str:
    """The per-type table row of one type (``data-type`` holds the escaped label)."""
    match = re.search(r'<tr[^>]*data-type="' + re.escape(label_html) + r'"[^>]*>.*?</tr>', html, re.S)
    assert match, f"no row for {label_html}"
    return match.group(0)


def _cells(line: str) -> int:
    """Cells of a Markdown table row: unescaped pipes minus one."""
    return len(re.findall(r"(?<!\\)\|", line)) - 1


def _md_line(md: str, first_cell: str) -> str:
    lines = [line for line in md.splitlines() if line.startswith(f"| {first_cell} |")]
    assert len(lines) >= 1, f"no Markdown row for {first_cell}"
    return lines[0]


# -------------------------------------------------------------------- HTML ---

def test_html_escapes_texts_labels_ids_and_names():
    page = render_benchmark_html(make_report())
    assert "<script>alert" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert BAD not in page
    assert BAD_HTML in page
    assert OLD_NAME not in page and "base&lt;1&gt;" in page
    assert DOC_ID in page  # a pipe is harmless in HTML
    # only our own (hash-pinned) script tag
    assert page.count("<script>") == 1


def test_html_is_self_contained_with_pinned_script():
    page = render_benchmark_html(make_report())
    assert page.startswith("<!DOCTYPE html>")
    csp = re.search(r'<meta http-equiv="Content-Security-Policy" content="([^"]+)">', page).group(1)
    assert "default-src 'none'" in csp
    script = re.search(r"<script>(.*?)</script>", page, re.S).group(1)
    digest = base64.b64encode(hashlib.sha256(script.encode("utf8")).digest()).decode("ascii")
    assert f"'sha256-{digest}'" in csp
    assert not re.search(r'(src|href)="(https?:)?//', page)


def test_html_verdict_banner_regression_and_ok():
    page = render_benchmark_html(make_report())
    banner = re.search(r'<div class="verdict ([a-z]+)" id="verdict"[^>]*>(.*?)</div>', page, re.S)
    assert banner.group(1) == "bad"
    assert "Regression" in banner.group(2) and "1 figure(s)" in banner.group(2)
    assert BAD_HTML in banner.group(2) and "strict F" in banner.group(2)
    assert "-40.00" in banner.group(2) and "[-60.00, -20.00]" in banner.group(2)

    ok = render_benchmark_html(make_ok_report())
    banner = re.search(r'<div class="verdict ([a-z]+)" id="verdict"[^>]*>(.*?)</div>', ok, re.S)
    assert banner.group(1) == "good"
    assert "No regression" in banner.group(2)
    assert 'class="verdict bad"' not in ok


def test_html_settings_and_versions():
    page = render_benchmark_html(make_report(), title="My <bench>")
    assert "<title>My &lt;bench&gt;</title>" in page
    header = page[:page.index('<section id="per-type">')]
    for text in ("samples <code>200</code>", "seed <code>7</code>", "confidence <code>0.95</code>",
                 "max drop <code>1.00 points</code>", "demo 1.0.0", "demo 2.0.0", "2026-01-02T03:04:05+00:00"):
        assert text in header, text


def test_html_arrows_and_regressions_in_the_right_rows():
    page = render_benchmark_html(make_report())
    org = _type_row(page, "ORG")
    bad = _type_row(page, BAD_HTML)
    overall = _type_row(page, "overall")
    assert "▲" in org and "▼" not in org
    assert "▼" in bad and "▲" not in bad
    assert "▼" in overall and "▲" not in overall
    # 2 measures x 3 figures: one delta per figure
    assert org.count("▲") == 6 and bad.count("▼") == 6
    # the one regression (strict F of the bad label) is highlighted, nowhere else
    assert bad.count('class="num reg"') == 1 and "reg" not in org and 'class="num reg"' not in overall
    assert page.count('class="num reg"') == 1
    # values as percentages, deltas in points, support old -> new
    assert ">50.00<" in org and ">75.00<" in org and "+25.00" in org
    assert "3 → 4" in org
    # the overall row sits in the footer, so sorting keeps it last
    assert page.index("<tfoot>") < page.index(overall)


def test_html_changed_annotations_and_docs():
    page = render_benchmark_html(make_report())
    changes = page[page.index('id="changes-table"'):]
    changes = changes[:changes.index("</table>")]
    assert 'class="ch-fixed"' in changes and 'class="ch-broken"' in changes
    assert changes.count("<tr class=") == 2
    assert "news|001" in changes and "Paris" in changes
    docs = page[page.index('id="doc-table"'):]
    assert DOC_ID in docs[:docs.index("</table>")]
    assert "Showing the first" not in page


def test_html_truncation_notes():
    page = render_benchmark_html(make_report(), max_changes=1, max_docs=0)
    assert "Showing the first 1 of 2 changed annotations (1 left out" in page
    assert "Showing the first 0 of 1 changed documents" in page
    changes = page[page.index('id="changes-table"'):]
    assert changes[:changes.index("</table>")].count("<tr class=") == 1


def test_html_below_threshold_section_only_when_present():
    report = make_report()
    assert 'id="below-threshold"' not in render_benchmark_html(report)
    report["mode"] = "verbose"
    report["new"]["below_threshold"] = {BAD: {
        "figures": {"strict.r": 0.4, "lenient.r": 0.4},
        "annotations": [{"doc": 1, "doc_id": "d2", "status": "missing", "key": _side(BAD, 3, 8, "<b>Paris</b>"),
                         "response": None}]}}
    page = render_benchmark_html(report)
    section = page[page.index('<section id="below-threshold">'):]
    assert "strict R <b>40.00</b>" in section
    assert "&lt;b&gt;Paris&lt;/b&gt;" in section and "<b>Paris" not in section
    assert f"<h4>{BAD_HTML}</h4>" in section


# ---------------------------------------------------------------- Markdown ---

def test_markdown_verdict_table_and_escaping():
    md = render_benchmark_markdown(make_report())
    assert "**Verdict: REGRESSION** (1 figure(s)" in md
    assert "| Type | strict P | strict R | strict F | lenient P | lenient R | lenient F |" in md
    org = _md_line(md, "ORG")
    assert "▲" in org and "▼" not in org and "50.00 → 75.00 ▲ +25.00" in org
    bad = _md_line(md, "X&amp;&lt;\"")
    assert "▼" in bad and "▲" not in bad
    assert bad.count("(regression)") == 1
    overall = _md_line(md, "**overall**")
    assert "▼ -10.00" in overall
    # pipes are escaped, script tags turned into entities
    assert "news\\|001" in md and "news|001" not in md
    assert "<script>" not in md and "&lt;script&gt;" in md
    assert "[base<1>" not in md and "base&lt;1&gt;" in md
    # an escaped pipe does not split a cell: rows keep their header's number of cells
    assert _cells(org) == _cells(bad) == 7
    fixed = _md_line(md, "fixed")
    assert _cells(fixed) == _cells(_md_line(md, "Change")) == 5

def test_markdown_regressions_and_changes():
    md = render_benchmark_markdown(make_report())
    regs = md[md.index("## Regressions"):md.index("## Changed annotations")]
    assert "| X&amp;&lt;\" | strict | F | 80.00 | 40.00 | ▼ -40.00 | [-60.00, -20.00] | 0.0020 | 0.0040 |" in regs
    changes = md[md.index("## Changed annotations"):]
    assert "2 annotation(s): 1 fixed, 1 broken, 0 changed." in changes
    assert "| fixed | news\\|001 |" in changes and "| broken | d2 |" in changes
    assert "Showing the first" not in changes

    short = render_benchmark_markdown(make_report(), max_changes=1)
    assert "Showing the first 1 of 2 changed annotations (1 left out)" in short
    assert "| broken | d2 |" not in short

    ok = render_benchmark_markdown(make_ok_report())
    assert "**Verdict: no regression**" in ok and "REGRESSION" not in ok


# -------------------------------------------------------------------- rows ---

def test_benchmark_rows_count_and_values():
    rows = benchmark_rows(make_report())
    assert len(rows) == (2 + 1) * len(MEASURES) * 3
    assert all(list(row) == list(ROW_COLUMNS) for row in rows)
    assert [r["type"] for r in rows[:6]] == ["ORG"] * 6  # types sorted, then overall
    assert [r["scope"] for r in rows[-6:]] == ["overall"] * 6 and all(r["type"] is None for r in rows[-6:])
    flagged = [r for r in rows if r["regression"]]
    assert len(flagged) == 1
    reg = flagged[0]
    assert (reg["scope"], reg["type"], reg["measure"], reg["figure"]) == ("type", BAD, "strict", "f")
    assert (reg["old"], reg["new"], reg["direction"]) == (0.8, 0.4, "down")
    assert reg["delta"] == pytest.approx(-0.4)
    assert (reg["ci_low"], reg["ci_high"], reg["p_bootstrap"], reg["p_randomization"]) == (-0.6, -0.2, 0.002, 0.004)
    org_r = next(r for r in rows if r["type"] == "ORG" and r["measure"] == "lenient" and r["figure"] == "r")
    assert org_r["direction"] == "up" and org_r["ci_low"] == 0.1 and org_r["regression"] is False


def test_benchmark_dataframe():
    pd = pytest.importorskip("pandas")
    df = benchmark_dataframe(make_report())
    assert isinstance(df, pd.DataFrame)
    assert df.shape == (18, len(ROW_COLUMNS)) and list(df.columns) == list(ROW_COLUMNS)
    assert int(df["regression"].sum()) == 1


def test_benchmark_dataframe_without_pandas(monkeypatch):
    monkeypatch.setitem(sys.modules, "pandas", None)
    with pytest.raises(ImportError, match="pip install pandas"):
        benchmark_dataframe(make_report())


# ---------------------------------------------------------------- terminal ---

def _terminal(report: dict) -> str:
    from rich.console import Console

    console = Console(record=True, width=200)
    print_benchmark(report, console=console)
    return console.export_text()


def test_print_benchmark_regression():
    text = _terminal(make_report())
    assert "REGRESSION: 1 figure(s) dropped significantly" in text
    assert "base<1> → current" in text
    assert BAD in text  # plain text on the terminal, never markup
    lines = text.splitlines()
    org = next(i for i, line in enumerate(lines) if line.strip().startswith("ORG"))
    assert "▲ +25.00" in lines[org + 1] and "▼" not in lines[org + 1]
    bad = next(i for i, line in enumerate(lines) if line.strip().startswith(BAD))
    assert "▼ -40.00" in lines[bad + 1] and "p 0.002" in lines[bad + 1]
    assert f"▼ {BAD} strict F 80.00 → 40.00 (-40.00, 95% CI [-60.00, -20.00], p 0.002 / 0.004)" in text
    assert "Changed annotations: 1 fixed, 1 broken, 0 changed" in text


def test_print_benchmark_ok_and_markup_in_labels():
    report = make_ok_report()
    per_type = report["comparison"]["per_type"]
    per_type["[red]Z[/red]"] = per_type.pop("ORG")
    text = _terminal(report)
    assert "OK: no regression" in text and "REGRESSION" not in text
    assert "[red]Z[/red]" in text
