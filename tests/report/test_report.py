"""Reports: write_reports (JSON, Markdown, HTML), to_rows / to_dataframe, escaping, and a headless-browser check."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from spacy_anno_eval.report import to_dataframe, to_rows, write_reports
from spacy_anno_eval.report.html import render_html, render_side
from spacy_anno_eval.report.markdown import render_markdown
from spacy_anno_eval.spans.engine import evaluate

ROOT = Path(__file__).resolve().parents[2]
DEMO_KEY = ROOT / "assets" / "demo" / "key.jsonl"
DEMO_RESPONSE = ROOT / "assets" / "demo" / "response.jsonl"
CHROMIUM = "/usr/bin/chromium"

XSS_TEXT = 'Hi <script>alert(1)</script> and Bob & <b>Alice</b> "q".'
XSS_LABEL = "<img src=x onerror=alert(2)>"
XSS_ID = 'd<1>&"x"'


def _pct(x: float) -> str:
    return f"{100 * x:.2f}"


@pytest.fixture(scope="module")
def demo():
    return evaluate(DEMO_KEY, DEMO_RESPONSE)


def _write_jsonl(path: Path, records: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf8")
    return path


@pytest.fixture()
def nasty(tmp_path):
    """A corpus whose text, labels, ids and feature values hold HTML; the key's spans overlap."""
    start = XSS_TEXT.index("<script>")
    end = XSS_TEXT.index("</script>") + len("</script>")
    bob = XSS_TEXT.index("Bob")
    alice = XSS_TEXT.index("<b>Alice</b>")
    key = [{"text": XSS_TEXT, "meta": {"id": XSS_ID}, "spans": [
        {"start": start, "end": end, "label": XSS_LABEL, "features": {"kind": "<i>v</i>"}},
        {"start": start + 1, "end": start + 7, "label": "PER&<u>"},  # overlaps the first: span style
        {"start": bob, "end": bob + 3, "label": "PER&<u>"},
    ]}, {"text": "plain text", "meta": {"id": "second"}, "spans": []}]
    response = [{"text": XSS_TEXT, "meta": {"id": XSS_ID}, "spans": [
        {"start": start, "end": end, "label": XSS_LABEL, "features": {"kind": "<i>v</i>"}},
        {"start": alice, "end": alice + len("<b>Alice</b>"), "label": "</mark><script>x()</script>"},
    ]}, {"text": "plain text", "meta": {"id": "second"}, "spans": []}]
    kp = _write_jsonl(tmp_path / "key.jsonl", key)
    rp = _write_jsonl(tmp_path / "response.jsonl", response)
    return evaluate(kp, rp, features=["kind"])


# ---------------------------------------------------------------- write_reports ---

def test_write_reports_round_trip(demo, tmp_path):
    out = tmp_path / "out"
    written = write_reports(demo, out)
    assert set(written) == {"json", "md", "html"}
    assert written == {"json": out / "report.json", "md": out / "report.md", "html": out / "report.html"}
    assert json.loads((out / "report.json").read_text(encoding="utf8")) == demo.report()
    # atomic writes leave no temporary files behind
    assert sorted(p.name for p in out.iterdir()) == ["report.html", "report.json", "report.md"]
    assert (out / "report.md").read_text(encoding="utf8").startswith("# Corpus QA report")
    assert (out / "report.html").read_text(encoding="utf8").startswith("<!DOCTYPE html>")


def test_write_reports_given_report_and_formats(demo, tmp_path):
    report = demo.report(per_doc=False)
    report["settings"]["marker"] = "given"
    written = write_reports(demo, tmp_path, formats=("json", "md"), report=report)
    assert set(written) == {"json", "md"}
    assert json.loads(written["json"].read_text(encoding="utf8")) == report
    assert not (tmp_path / "report.html").exists()
    assert "without per-document figures" in written["md"].read_text(encoding="utf8")


def test_write_reports_paths_override(demo, tmp_path):
    html_path = tmp_path / "a" / "b" / "qa.html"
    written = write_reports(demo, paths={"html": html_path})
    assert written == {"html": html_path}
    assert html_path.exists() and sorted(p.name for p in html_path.parent.iterdir()) == ["qa.html"]

    out = tmp_path / "out"
    elsewhere = tmp_path / "elsewhere.json"
    written = write_reports(demo, out, paths={"json": elsewhere})
    assert written["json"] == elsewhere and elsewhere.exists()
    assert not (out / "report.json").exists()
    assert (out / "report.md").exists() and (out / "report.html").exists()


@pytest.mark.parametrize("kwargs, name", [({"formats": ("json", "pdf")}, "pdf"),
                                          ({"paths": {"docx": "x.docx"}}, "docx")])
def test_write_reports_unknown_format(demo, tmp_path, kwargs, name):
    with pytest.raises(ValueError, match=name):
        write_reports(demo, tmp_path, **kwargs)
    assert list(tmp_path.iterdir()) == []


def test_write_reports_needs_a_target_and_valid_measures(demo, tmp_path):
    with pytest.raises(ValueError, match="output_dir or paths"):
        write_reports(demo)
    with pytest.raises(ValueError, match="measures"):
        write_reports(demo, tmp_path, measures=("strict", "exact"))


def test_write_reports_never_half_written(demo, tmp_path, monkeypatch):
    out = tmp_path / "out"
    write_reports(demo, out)
    before = {p.name: p.read_bytes() for p in out.iterdir()}

    def boom(*args, **kwargs):
        raise OSError("disk full")

    # a failure while renaming the temporary file keeps the old report and removes the temporary file
    monkeypatch.setattr(os, "replace", boom)
    from spacy_anno_eval.errors import AnnoEvalError

    with pytest.raises(AnnoEvalError, match=r"cannot write .*report\.md: disk full"):  # one line naming the file
        write_reports(demo, out, formats=("md",), title="new title")
    monkeypatch.undo()
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before

    # a failure while rendering writes nothing at all
    import spacy_anno_eval.report.html as html_mod

    monkeypatch.setattr(html_mod, "render_html", boom)
    fresh = tmp_path / "fresh"
    with pytest.raises(OSError):
        write_reports(demo, fresh)
    assert not fresh.exists() or list(fresh.iterdir()) == []


# ---------------------------------------------------------------------- Markdown ---

def _md_stats_row(name: str, counts: dict | None, entry: dict, measures=("strict", "lenient", "average")) -> str:
    cells = ["", "", "", ""] if counts is None else [str(counts[c]) for c in ("correct", "missing", "spurious",
                                                                                "partial")]
    cells += [_pct(entry[m][k]) for m in measures for k in "prf"]
    return f"| {name} | " + " | ".join(cells) + " |"


def test_markdown_tables(demo):
    report = demo.report()
    md = render_markdown(report)
    lines = md.splitlines()
    assert report["per_type"]
    for label, entry in report["per_type"].items():
        assert _md_stats_row(label, entry["counts"], entry) in lines
    for entry in report["per_doc"]:
        assert _md_stats_row(entry["id"], entry["counts"], entry) in lines
    micro = _md_stats_row("**micro**", report["counts"], report["micro"])
    assert lines.count(micro) == 2  # corpus and document tables
    assert _md_stats_row("**macro (types)**", None, report["macro_types"]) in lines
    assert _md_stats_row("**macro (docs)**", None, report["macro_docs"]) in lines
    assert "| Type | Match | Only key | Only response | Overlap | P strict | R strict | F strict |" in md
    muc = report["muc"]
    assert f"| MUC | {muc['COR']} | {muc['PAR']} | {muc['INC']} |" in md
    assert "## Classification" not in md


def test_markdown_chosen_measures_and_escaping(nasty):
    report = nasty.report()
    md = render_markdown(report, measures=("lenient",))
    assert "P lenient" in md and "P strict" not in md and "F average" not in md
    entry = report["per_type"]["PER&<u>"]
    assert _md_stats_row("PER&amp;&lt;u&gt;", entry["counts"], entry, ("lenient",)) in md.splitlines()
    assert "<script" not in md and "<img" not in md and "<u>" not in md
    assert "d&lt;1&gt;&amp;\"x\"" in md


def test_markdown_classification():
    from spacy_anno_eval.report.markdown import classification_lines

    cls = {"type": "Mention", "feature": "class", "categories": ["a|b", "c"], "matrix": [[3, 1], [0, 4]], "n": 8,
           "observed_agreement": 0.875, "cohen_kappa": 0.75, "scott_pi": 0.7460317}
    text = "\n".join(classification_lines(cls))
    assert "| Cohen's kappa | 0.7500 |" in text
    assert "| Scott's pi | 0.7460 |" in text
    assert "| **a\\|b** | 3 | 1 |" in text


# -------------------------------------------------------------------------- HTML ---

def test_html_is_escaped(nasty, tmp_path):
    page = write_reports(nasty, tmp_path, formats=("html",))["html"].read_text(encoding="utf8")
    # the page's only script is its own; no markup from the documents survives
    assert page.count("<script") == 1 and page.count("</script>") == 1
    assert "<img" not in page and "<b>Alice" not in page and "<u>" not in page and "<i>v</i>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page  # the text, in displaCy and in the table
    assert html_escape(XSS_LABEL) in page
    assert html_escape("</mark><script>x()</script>") in page
    assert html_escape(XSS_ID) in page
    assert html_escape('kind="<i>v</i>"') in page  # a feature value, JSON-quoted, then escaped
    assert re.search(r"SAE[0-9A-F]{16}X", page) is None  # every label placeholder was replaced
    assert 'class="spans"' in page and 'class="entities"' in page  # both displaCy styles were used


def html_escape(text: str) -> str:
    import html

    return html.escape(text, quote=True)


def test_html_rows_for_every_pair(demo):
    rows = demo.diff_rows()
    page = render_html(demo.report(), demo)
    found = re.findall(r'<tr class="st-(\w+)" data-status="(\w+)"', page)
    assert len(found) == len(rows) > 0
    assert [s for s, _ in found] == [r["status"] for r in rows]
    assert all(a == b for a, b in found)
    for status in {r["status"] for r in rows}:
        assert f".st-{status}{{background:" in page
    # one section per document with pairs, each with the key and the response side by side
    docs = {r["doc"] for r in rows}
    assert len(re.findall(r'<section class="doc" id="doc-\d+">', page)) == len(docs)
    assert page.count("<h4>Key</h4>") == page.count("<h4>Response</h4>") == len(docs)
    # the texts of the pairs are in the table
    for r in rows:
        for side in (r["key"], r["response"]):
            if side:
                assert f'<td class="txt">{html_escape(side["text"])}</td>' in page


def test_html_tables_read_the_report(demo):
    report = demo.report()
    page = render_html(report, demo, measures=("strict",))
    for label, entry in report["per_type"].items():
        c = entry["counts"]
        cells = "".join(f'<td class="num">{c[k]}</td>' for k in ("correct", "missing", "spurious", "partial"))
        cells += "".join(f'<td class="num m-strict">{_pct(entry["strict"][k])}</td>' for k in "prf")
        assert f'<tr><th scope="row">{label}</th>{cells}</tr>' in page
    assert "lenient" not in page.split('id="corpus-table"')[1].split("</table>")[0]
    assert _pct(report["macro_docs"]["strict"]["f"]) in page
    assert page.count('<button type="button" role="tab"') == 3
    assert 'data-tab="classification"' not in page


def test_html_needs_no_network(demo):
    page = render_html(demo.report(), demo)
    assert not re.search(r"""(?:src|href|action)\s*=\s*["']?\s*(?:https?:)?//""", page, re.I)
    assert not re.search(r"url\(\s*['\"]?(?:https?:)?//", page, re.I)
    assert "@import" not in page
    assert "default-src 'none'" in page and "script-src 'sha256-" in page


def test_html_classification_tab(demo):
    cls = {"type": "PER", "feature": "<gender>", "categories": ["f", "<m>"], "matrix": [[5, 1], [2, 7]], "n": 15,
           "observed_agreement": 0.8, "cohen_kappa": 0.5982, "scott_pi": 0.5973, "specific_agreement": {"f": 0.77}}
    page = render_html(demo.report(), demo, classification=cls)
    assert 'data-tab="classification"' in page and 'id="tab-classification"' in page
    assert "<td class=\"num\">0.5982</td>" in page and "<td class=\"num\">0.5973</td>" in page
    assert '<td class="num diag">5</td>' in page and '<td class="num diag">7</td>' in page
    assert "&lt;m&gt;" in page and "&lt;gender&gt;" in page and "<m>" not in page
    assert "specific agreement" in page
    matrix = page.split('id="confusion-table"')[1].split("</table>")[0]
    assert "total" not in matrix and "<tfoot>" not in matrix  # no totals given: none summed here


def test_html_classification_totals_are_read_from_the_classification(demo):
    # totals that are not the matrix's sums (made up): the page shows what the classification says
    cls = {"type": "PER", "feature": "gender", "categories": ["f", "m"], "matrix": [[5, 1], [2, 7]], "n": 99,
           "row_totals": [61, 98], "column_totals": [71, 88], "observed_agreement": 0.8, "cohen_kappa": 0.5,
           "scott_pi": 0.5}
    page = render_html(demo.report(), demo, classification=cls)
    matrix = page.split('id="confusion-table"')[1].split("</table>")[0]
    assert '<th scope="col">total</th>' in matrix
    assert '<td class="num diag">7</td><td class="num total">98</td></tr>' in matrix
    assert ('<tfoot><tr class="summary"><th scope="row">total</th><td class="num">71</td><td class="num">88</td>'
            '<td class="num">99</td></tr></tfoot>') in matrix
    assert "row totals" not in page and "column totals" not in page  # not shown again as extra tables


def test_html_caps_the_diff(demo):
    report = demo.report()
    page = render_html(report, demo, max_diff_docs=2)
    n_docs = len({r["doc"] for r in demo.diff_rows()})
    assert n_docs > 2
    assert len(re.findall(r'<section class="doc"', page)) == 2
    assert f"Showing the first 2 of {n_docs} documents" in page
    # the document table still has every document
    assert page.split('id="doc-table"')[1].split("<tbody>")[1].split("</tbody>")[0].count("<tr>") == len(
        report["per_doc"]) == report["n_docs"]


def test_html_without_pairs(demo):
    merged = demo.merge(demo)
    page = render_html(merged.report(), merged)
    assert "keeps no alignment" in page and '<tr class="st-' not in page


def test_render_side_cuts_long_texts():
    text = "abc " * 50
    out = render_side(text, [({"start": 0, "end": 3, "label": "A"}, "correct"),
                             ({"start": 150, "end": 153, "label": "B"}, "missing")], max_chars=100)
    assert "Text cut at 100 characters; 1 annotation(s)" in out
    assert "st-correct" in out and "st-missing" not in out


# ------------------------------------------------------------------ rows / pandas ---

def test_to_rows_values_equal_the_report(demo):
    report = demo.report()
    rows = to_rows(report)
    assert [r["scope"] for r in rows].count("type") == len(report["per_type"])
    assert [r["scope"] for r in rows].count("doc") == len(report["per_doc"]) == report["n_docs"] > 1
    assert [r["name"] for r in rows if r["scope"] == "summary"] == ["micro", "macro_types", "macro_docs"]
    by = {(r["scope"], r["name"]): r for r in rows}
    for label, entry in report["per_type"].items():
        row = by["type", label]
        assert {k: row[k] for k in entry["counts"]} == entry["counts"]
        assert all(row[f"{m}_{k}"] == entry[m][k] for m in ("strict", "lenient", "average") for k in "prf")
    for entry in report["per_doc"]:
        assert by["doc", entry["id"]]["lenient_f"] == entry["lenient"]["f"]
    assert by["summary", "micro"]["correct"] == report["counts"]["correct"]
    assert by["summary", "micro"]["average_r"] == report["micro"]["average"]["r"]
    assert by["summary", "macro_types"]["strict_p"] == report["macro_types"]["strict"]["p"]
    assert by["summary", "macro_docs"]["correct"] is None
    assert set(rows[0]) == {"scope", "name", "correct", "partial", "missing", "spurious", "incorrect",
                            *(f"{m}_{k}" for m in ("strict", "lenient", "average") for k in "prfe"),
                            "false_positive"}
    assert set(to_rows(report, ("strict",))[0]) == {"scope", "name", "correct", "partial", "missing", "spurious",
                                                    "incorrect", "strict_p", "strict_r", "strict_f", "strict_e",
                                                    "false_positive"}
    assert by["summary", "micro"]["strict_e"] == report["error_rate"]["micro"]["strict"]
    assert by["summary", "macro_docs"]["false_positive"] == report["false_positive"]["macro_docs"]
    label = next(iter(report["per_type"]))
    assert by["type", label]["false_positive"] == report["per_type"][label]["false_positive"]


def test_to_dataframe_without_pandas(demo, monkeypatch):
    import builtins

    real_import = builtins.__import__

    def no_pandas(name, *args, **kwargs):
        if name == "pandas" or name.startswith("pandas."):
            raise ImportError("No module named 'pandas'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_pandas)
    with pytest.raises(ImportError, match="pip install pandas"):
        to_dataframe(demo.report())


def test_to_dataframe_with_pandas(demo):
    pytest.importorskip("pandas")
    report = demo.report()
    df = to_dataframe(report)
    assert len(df) == len(to_rows(report))
    assert df.loc[df["name"] == "micro", "strict_f"].item() == report["micro"]["strict"]["f"]


# -------------------------------------------------------------------------- CLI ---

def test_cli_qa_writes_the_reports(tmp_path):
    from typer.testing import CliRunner

    from spacy_anno_eval.cli.app import app

    html_path, md_path = tmp_path / "qa.html", tmp_path / "qa.md"
    result = CliRunner().invoke(app, ["qa", str(DEMO_KEY), str(DEMO_RESPONSE), "--html", str(html_path),
                                      "--md", str(md_path), "--measures", "strict", "-q"])
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["qa.html", "qa.md"]
    assert "P strict" in md_path.read_text(encoding="utf8") and "P lenient" not in md_path.read_text()
    assert html_path.read_text(encoding="utf8").count('<tr class="st-') == len(evaluate(DEMO_KEY,
                                                                                       DEMO_RESPONSE).diff_rows())


# ----------------------------------------------------------------------- browser ---

def _chromium(*args: str) -> subprocess.CompletedProcess:
    with tempfile.TemporaryDirectory(prefix="anno-eval-chromium-") as profile:
        return subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                               "--no-first-run", "--disable-background-networking", "--disable-component-update",
                               "--disable-sync", f"--user-data-dir={profile}", *args],
                              capture_output=True, text=True, timeout=120, check=False)


@pytest.mark.skipif(not (os.path.exists(CHROMIUM) and shutil.which(CHROMIUM)), reason="no /usr/bin/chromium")
def test_browser_loads_the_page(nasty, demo, tmp_path):
    path = write_reports(nasty, tmp_path / "nasty", formats=("html",))["html"]
    dom = _chromium("--virtual-time-budget=2000", "--dump-dom", path.resolve().as_uri() + "#diff").stdout
    assert '<body class="js">' in dom  # the inline script ran (the CSP hash matches)
    assert re.search(r'class="panel active" id="tab-diff"', dom)
    assert len(re.findall(r"<tr [^>]*data-status=", dom)) == len(nasty.diff_rows())
    assert len(re.findall(r"<script\b", dom)) == 1  # no injected script element
    assert len(re.findall(r"<img\b", dom)) == 0 and "<b>Alice" not in dom
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in dom

    path = write_reports(demo, tmp_path / "demo", formats=("html",))["html"]
    dom = _chromium("--virtual-time-budget=2000", "--dump-dom", path.resolve().as_uri()).stdout
    assert re.search(r'class="panel active" id="tab-corpus"', dom)
    assert dom.split('id="corpus-table"')[1].split("<tbody>")[1].split("</tbody>")[0].count("<tr>") == len(
        demo.report()["per_type"])
    assert len(re.findall(r"<tr [^>]*data-status=", dom)) == len(demo.diff_rows())


_PROBE = """<script>
var sel = document.getElementById("flt-status");
sel.value = "missing"; sel.dispatchEvent(new Event("change"));
var shown = document.querySelectorAll("tr[data-status]:not([hidden])").length;
var empty = document.querySelectorAll("section.doc.empty").length;
var th = document.querySelector("#corpus-table thead th:nth-child(2)");
th.click(); var asc = document.querySelector("#corpus-table tbody tr th").textContent;
th.click(); var desc = document.querySelector("#corpus-table tbody tr th").textContent;
document.body.setAttribute("data-probe", [shown, empty, asc, desc, th.getAttribute("aria-sort")].join("|"));
</script></body>"""


@pytest.mark.skipif(not (os.path.exists(CHROMIUM) and shutil.which(CHROMIUM)), reason="no /usr/bin/chromium")
def test_browser_sorts_and_filters(demo, tmp_path):
    page = render_html(demo.report(), demo)
    # a test copy: without the CSP (which would block the probe) and with a probe that filters and sorts
    page = re.sub(r'<meta http-equiv="Content-Security-Policy"[^>]*>', "", page).replace("</body>", _PROBE)
    path = tmp_path / "probe.html"
    path.write_text(page, encoding="utf8")
    dom = _chromium("--virtual-time-budget=2000", "--dump-dom", path.resolve().as_uri()).stdout
    probe = re.search(r'data-probe="([^"]*)"', dom)
    assert probe, dom[:500]
    rows = demo.diff_rows()
    n_missing = sum(r["status"] == "missing" for r in rows)
    docs_with_missing = {r["doc"] for r in rows if r["status"] == "missing"}
    n_docs = len({r["doc"] for r in rows})
    by_match = sorted(demo.report()["per_type"].items(), key=lambda kv: kv[1]["counts"]["correct"])
    assert probe.group(1) == (f"{n_missing}|{n_docs - len(docs_with_missing)}|{by_match[0][0]}|{by_match[-1][0]}"
                              "|descending")
