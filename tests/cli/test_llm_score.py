"""``anno-eval score --format llm-ner|llm-json|langextract`` and ``anno-eval relations --format llm-relations``
(issue 30, the door): the JSON (the evaluation plus ``grounding`` and ``sets``), the terminal tables piped at
80 columns, ``--grounding`` rows, the HTML report in a real browser, and the errors (exit 2, one line)."""

from __future__ import annotations

import base64
import csv
import hashlib
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from spacy_anno_eval.cli.app import app
from tests.cli.test_terminal_output import NARROW, check_readable, pct
from tests.report.test_browser import HAVE_CHROMIUM, _chromium
from tests.workflows.test_llm_scoring import FORMATS, write_case, write_key, write_output, write_relation_key

runner = CliRunner()


def run(args: list, code: int = 0) -> tuple[str, str]:
    result = runner.invoke(app, [str(a) for a in args], env=NARROW)
    assert result.exit_code == code, (result.stdout, result.stderr)
    return result.stdout, result.stderr


@pytest.mark.parametrize("fmt", FORMATS)
def test_score_writes_the_evaluation_with_grounding_and_sets(tmp_path: Path, fmt: str) -> None:
    key, output = write_case(tmp_path, fmt)
    out = tmp_path / "report.json"
    run(["score", key, output, "--format", fmt, "--json", out, "-q"])
    report = json.loads(out.read_text(encoding="utf8"))
    assert {"counts", "micro", "per_type", "per_doc", "muc", "semeval", "grounding", "sets"} <= set(report)
    assert report["counts"] == {"correct": 5, "partial": 1, "missing": 3, "spurious": 2, "incorrect": 0}
    assert report["micro"]["strict"]["p"] == pytest.approx(5 / 8)
    assert report["grounding"]["hallucinations"] == 2 and len(report["grounding"]["rows"]) == 8
    assert report["sets"]["micro"]["correct"] == 5


def test_llm_ner_labels_go_to_its_reader(tmp_path: Path) -> None:
    key, output = write_case(tmp_path, "llm-ner")
    out = tmp_path / "report.json"
    _, err = run(["score", key, output, "--format", "llm-ner", "--labels", "PER,LOC", "--json", out, "-q"])
    report = json.loads(out.read_text(encoding="utf8"))
    assert report["grounding"]["extractions"] == 7  # the ORG line is left out, as spacy-llm leaves it out
    assert "left out" in err and "ORG" in err


def test_the_terminal_tables_fit_80_columns_in_a_pipe(tmp_path: Path) -> None:
    key, output = write_case(tmp_path)
    out = tmp_path / "report.json"
    done = subprocess.run([sys.executable, "-m", "spacy_anno_eval", "score", str(key), str(output), "--format",
                           "llm-json", "--json", str(out)], capture_output=True, text=True, timeout=300,
                          env={**os.environ, **NARROW})
    assert done.returncode == 0, done.stderr
    check_readable(done.stdout)
    report = json.loads(out.read_text(encoding="utf8"))
    grounding = done.stdout[done.stdout.index("Grounding"):]
    for step, n in report["grounding"]["by_step"].items():
        name = {"casefold": "case-folded", "hallucination": "not in the text", "claimed": "claimed offsets"}
        row = next(line for line in grounding.splitlines() if f" {name.get(step, step)} " in line)
        assert re.search(rf"\b{n}\b.*{pct(report['grounding']['by_step_share'][step])}", row), row
    assert "not in the text: 2 of 8 extractions (25.00%)" in grounding
    assert f"P {pct(5 / 8)} R {pct(5 / 9)}" in grounding  # the set mode
    assert pct(report["micro"]["strict"]["p"]) in done.stdout and pct(report["micro"]["lenient"]["r"]) in done.stdout


def test_grounding_rows_are_written_by_suffix(tmp_path: Path) -> None:
    key, output = write_case(tmp_path)
    run(["score", key, output, "-f", "llm-json", "--grounding", tmp_path / "g.csv", "-q"])
    run(["score", key, output, "-f", "llm-json", "--grounding", tmp_path / "g.jsonl", "-q"])
    rows = list(csv.DictReader((tmp_path / "g.csv").open(encoding="utf8")))
    assert [r["step"] for r in rows].count("hallucination") == 2 and rows[0]["matched"] == "Ada Lovelace"
    lines = [json.loads(x) for x in (tmp_path / "g.jsonl").read_text(encoding="utf8").splitlines()]
    assert [x["text"] for x in lines if x["step"] == "hallucination"] == ["Grace Hopper", "Tokyo"]


def test_an_unknown_format_lists_the_span_and_the_llm_formats(tmp_path: Path) -> None:
    key, output = write_case(tmp_path)
    _, err = run(["score", key, output, "--format", "llm-jsn"], code=2)
    assert err.count("\n") == 1 and "unknown format" in err
    assert "jsonl" in err and "llm-json, llm-ner" in err and "langextract" in err and "llm-relations" not in err
    _, err = run(["relations", key, output, "--format", "llm-json"], code=2)
    assert "llm-relations" in err


def test_a_response_document_the_key_lacks_is_exit_2(tmp_path: Path) -> None:
    key = write_key(tmp_path)
    output = write_output(tmp_path, "llm-json", {"d1": [("PER", "Ada")], "zz": [("PER", "Bob")]})
    _, err = run(["score", key, output, "--format", "llm-json"], code=2)
    assert "document 'zz': no key document has this id" in err and "'d1'" in err


def test_llm_options_are_refused_with_a_span_format_and_streaming_with_an_llm_one(tmp_path: Path) -> None:
    key, output = write_case(tmp_path)
    _, err = run(["score", key, key, "--ground", "exact"], code=2)
    assert "--ground applies to a language model's output" in err
    _, err = run(["score", key, output, "--format", "llm-json", "--shards"], code=2)
    assert "--shards does not apply with --format llm-json" in err
    _, err = run(["score", key, output, "--format", "llm-json", "--response-set", "spans:x"], code=2)
    assert "--response-set" in err
    _, err = run(["score", key, output, "--format", "llm-json", "--ground", "fuzzy:2"], code=2)
    assert "fuzzy threshold" in err or "fuzzy_threshold" in err
    _, err = run(["score", key, output, "--format", "llm-json", "--labels", "PER"], code=2)
    assert "--labels names the task's labels of llm-ner" in err


def test_relations_grounds_triples_and_reports_the_unscored(tmp_path: Path) -> None:
    key = write_relation_key(tmp_path)
    triples = tmp_path / "triples.jsonl"
    triples.write_text(json.dumps({"id": "r1", "relations": [
        {"head": "Ada Lovelace", "relation": "worked_with", "tail": "charles babbage", "head_type": "PER",
         "tail_type": "PER"}, ["Ada Lovelace", "lived_in", "London"],
        {"head": "Alan Turing", "relation": "worked_with", "tail": "Ada Lovelace"}]}) + "\n", encoding="utf8")
    out, err = run(["relations", key, triples, "--format", "llm-relations", "--report", tmp_path / "rep"])
    check_readable(out)
    assert re.search(r"^all\s+2\s+2\s+2\b", out, re.M) and "not in the text: 1 of 4 extractions" in out
    assert "1 relation left unscored: an argument is not in the text" in err
    tsv = (tmp_path / "rep" / "alignment.tsv").read_text(encoding="utf8")
    assert "unscored\tworked_with" in tsv and "hallucinated head 'Alan Turing'" in tsv
    scores = json.loads((tmp_path / "rep" / "scores.json").read_text(encoding="utf8"))
    assert scores["n_ungrounded"] == 1 and scores["relations"]["all"]["f"] == 1.0


# -- the HTML report in a browser -----------------------------------------------------------------------------------

# for each selector: the texts of the elements that are visible, after clicking the tab CLICK
_PROBE = """
window.addEventListener("load", function () {
  "use strict";
  var button = document.querySelector('.tabs button[data-tab="' + CLICK + '"]');
  if (button) { button.click(); }
  var out = {clicked: !!button, scrollWidth: document.documentElement.scrollWidth,
             clientWidth: document.documentElement.clientWidth};
  SELECTORS.forEach(function (s) {
    out[s] = Array.prototype.filter.call(document.querySelectorAll(s), function (el) {
      return el.getClientRects().length > 0 && getComputedStyle(el).visibility !== "hidden";
    }).map(function (el) { return el.textContent; });
  });
  var pre = document.createElement("pre");
  pre.id = "probe";
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
});
"""


def visible_texts(page: Path, tmp: Path, selectors: list[str], click: str) -> dict:
    """Load a copy of ``page`` with the probe (allowed by its hash in the page's own CSP), click the tab
    ``click``, and return the visible text of each selector's elements."""
    script = _PROBE.replace("SELECTORS", json.dumps(selectors)).replace("CLICK", json.dumps(click))
    digest = base64.b64encode(hashlib.sha256(script.encode("utf8")).digest()).decode("ascii")
    text, n = re.subn(r"script-src ('sha256-[^']+')", rf"script-src \1 'sha256-{digest}'",
                      page.read_text(encoding="utf8"))
    assert n == 1
    copy = tmp / f"probe-{click}.html"
    copy.write_text(text.replace("</body>", f"<script>{script}</script></body>"), encoding="utf8")
    dom = _chromium("--window-size=1200,900", "--dump-dom", copy.resolve().as_uri(), tmp=tmp)
    found = re.search(r'<pre id="probe">(.*?)</pre>', dom, re.S)
    assert found, dom[:800]
    import html

    return json.loads(html.unescape(found.group(1)))


@pytest.mark.skipif(not HAVE_CHROMIUM and not os.environ.get("CI"), reason="no /usr/bin/chromium")
def test_the_html_report_shows_the_grounding_table_and_the_hallucinated_strings(tmp_path: Path) -> None:
    key, output = write_case(tmp_path)
    page = tmp_path / "report.html"
    run(["score", key, output, "--format", "llm-json", "--html", page, "-q"])
    grounding = visible_texts(page, tmp_path, ["#grounding-steps tbody tr", "#hallucinations tbody tr",
                                               "#tab-diff mark.st-spurious"], "grounding")
    assert grounding["clicked"] and len(grounding["#grounding-steps tbody tr"]) == 6
    assert any(row.startswith("not in the text") and "25.00" in row for row in grounding["#grounding-steps tbody tr"])
    assert [r for r in grounding["#hallucinations tbody tr"] if "Grace Hopper" in r]
    assert grounding["#tab-diff mark.st-spurious"] == []  # another tab: hidden
    diff = visible_texts(page, tmp_path, ["#tab-diff mark.st-spurious", "#tab-diff .pane"], "diff")
    assert any(m.startswith("Grace Hopper") for m in diff["#tab-diff mark.st-spurious"])
    assert any(m.startswith("Tokyo") for m in diff["#tab-diff mark.st-spurious"])
    assert any("⟦not in the text⟧" in pane and "Grace Hopper" in pane for pane in diff["#tab-diff .pane"])
    assert diff["scrollWidth"] <= diff["clientWidth"] + 1
