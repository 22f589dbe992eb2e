"""``anno-eval coref-iaa``: N annotators' coreference files, every pair scored both ways; the JSON's keys, the
matrix at 80 columns on a terminal and in a pipe, the HTML pages, one-line errors (exit 2)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from spacy_anno_eval.cli.app import app
from tests.cli.test_coref import KEY

runner = CliRunner()
NARROW = {"COLUMNS": "80", "LINES": "50", "TERM": "dumb"}

ALICE = KEY  # the coref command tests' two documents: one annotator's
BOB = ALICE.replace("w 0 5 she (0)", "w 0 5 she (1)").replace("w 0 6 wrote (2)", "w 0 6 wrote -")
CAROL = ALICE.replace("w 0 2 he (3)", "w 0 2 he -")


def pct(value: float) -> str:
    text = f"{100 * value:.2f}"
    return "0.00" if text == "-0.00" else text


@pytest.fixture
def files(tmp_path: Path) -> list[Path]:
    """Three annotators, each in a folder of their own, the same file name (as an annotation tool exports)."""
    out = []
    for name, text in (("alice", ALICE), ("bob", BOB), ("carol", CAROL)):
        (tmp_path / name).mkdir()
        path = tmp_path / name / "doc.conll"
        path.write_text(text, encoding="utf8")
        out.append(path)
    return out


def invoke(*args: object, env: dict[str, str] | None = None):
    return runner.invoke(app, [str(a) for a in args], env=env or NARROW)


def test_json_holds_every_pair_both_ways_and_the_matrix(files, tmp_path):
    out = tmp_path / "agreement.json"
    result = invoke("coref-iaa", *files, "--json", out, "-q")
    assert result.exit_code == 0, result.output
    assert result.stdout == ""  # -q: nothing printed
    data = json.loads(out.read_text(encoding="utf8"))
    assert set(data) == {"annotators", "n_docs", "documents", "settings", "metrics", "pairs", "annotator_means",
                         "mean_of_pairs", "matrix"}
    assert data["annotators"] == ["alice/doc", "bob/doc", "carol/doc"]  # the same stem: named by their folders
    assert data["n_docs"] == 2 and data["documents"] == ["(d1); part 000", "(d2); part 000"]
    assert data["settings"] == {"format": "conll2012", "keep_singletons": True, "blanc": "corefud", "match": "exact",
                                "keep_zeros": True}
    assert data["metrics"] == ["conll", "muc", "bcub", "ceafm", "ceafe", "blanc", "lea", "mentions"]
    assert [(p["a"], p["b"]) for p in data["pairs"]] == [("alice/doc", "bob/doc"), ("alice/doc", "carol/doc"),
                                                         ("bob/doc", "carol/doc")]
    pair = data["pairs"][0]
    assert set(pair) == {"i", "j", "a", "b", "figures", "a_as_key", "b_as_key", "per_doc"}
    # alice as key, bob as response: MUC R = P = 1/2 (as `anno-eval coref` scores it, tests/cli/test_coref.py)
    assert pair["a_as_key"]["muc"] == {"r": 0.5, "p": 0.5, "f": 0.5}
    for metric in data["metrics"]:
        assert set(pair["figures"][metric]) == ({"f"} if metric == "conll" else {"r", "p", "f"})
    matrix = data["matrix"]
    assert matrix["metric"] == "conll" and matrix["cells"][0][0] is None
    assert matrix["cells"][0][1] == pair["figures"]["conll"]["f"]
    assert set(data["annotator_means"]) == set(data["annotators"])


def test_the_same_figures_as_anno_eval_coref_one_way(files, tmp_path):
    both, one = tmp_path / "both.json", tmp_path / "one.json"
    assert invoke("coref-iaa", files[0], files[1], "--json", both, "-q", "--blanc", "conll").exit_code == 0
    assert invoke("coref", files[0], files[1], "--json", one, "-q", "--blanc", "conll").exit_code == 0
    pair = json.loads(both.read_text(encoding="utf8"))["pairs"][0]
    single = json.loads(one.read_text(encoding="utf8"))
    for metric in ("muc", "bcub", "ceafm", "ceafe", "blanc", "lea", "mentions", "conll"):
        assert pair["a_as_key"][metric] == pytest.approx(single[metric]), metric


def test_the_terminal_matrix_fits_80_columns_and_shows_every_figure(files, tmp_path):
    out = tmp_path / "a.json"
    result = invoke("coref-iaa", *files, "--metric", "muc", "--json", out)
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text(encoding="utf8"))
    text = result.stdout
    lines = text.splitlines()
    assert all(len(line) <= 80 for line in lines), text
    assert "…" not in text and "None" not in text
    assert lines[0].startswith("coreference agreement: 3 annotators, 2 documents")
    assert any(line.startswith("MUC F (%)") for line in lines)
    for row in data["matrix"]["cells"]:
        for v in row:
            assert v is None or pct(v) in text
    for p in data["pairs"]:
        assert f"{p['a']} / {p['b']}" in text
        for metric in data["metrics"]:
            assert pct(p["figures"][metric]["f"]) in text
    assert "report written to" in result.stderr


def test_a_pipe_prints_the_same_readable_table(files):
    done = subprocess.run([sys.executable, "-m", "spacy_anno_eval", "coref-iaa", *map(str, files), "--names",
                           "an-annotator-with-a-long-name,another-annotator-with-a-long-name,the-third"],
                          capture_output=True, text=True, timeout=120, env={**os.environ, **NARROW})
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert all(len(line) <= 80 for line in lines), done.stdout
    # names too long for the matrix: numbers, and the names in a legend
    assert "#1 an-annotator-with-a-long-name" in done.stdout
    assert re.search(r"^\s+#1\s+#2\s+#3\s+mean$", done.stdout, re.M)
    assert any(line.strip().startswith("mean of pairs") for line in lines)
    assert "…" not in done.stdout


def test_many_annotators_split_the_matrix_into_blocks_that_fit(tmp_path):
    paths = []
    for k in range(12):
        path = tmp_path / f"annotator{k:02d}.conll"
        path.write_text(ALICE if k % 2 else BOB, encoding="utf8")
        paths.append(path)
    result = invoke("coref-iaa", *paths)
    assert result.exit_code == 0, result.output
    assert all(len(line) <= 80 for line in result.stdout.splitlines()), result.stdout


def test_html_writes_the_matrix_and_a_page_per_pair(files, tmp_path):
    folder = tmp_path / "html"
    result = invoke("coref-iaa", *files, "--names", "A,<b>B</b>,C", "--html", folder)
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in folder.iterdir()) == ["index.html", "pair-0-1.html", "pair-0-2.html",
                                                        "pair-1-2.html"]
    assert f"agreement matrix written to {folder / 'index.html'} (3 pair pages)" in result.stderr
    index = (folder / "index.html").read_text(encoding="utf8")
    assert "<b>B</b>" not in index and "&lt;b&gt;B&lt;/b&gt;" in index
    assert "Content-Security-Policy" in index
    assert sorted(set(re.findall(r'href="(pair-[^"]+)"', index))) == ["pair-0-1.html", "pair-0-2.html",
                                                                     "pair-1-2.html"]
    pair = (folder / "pair-0-1.html").read_text(encoding="utf8")
    assert "&lt;b&gt;B&lt;/b&gt; as key" in pair and "A as key" in pair and "(d2); part 000" in pair


def test_json_on_standard_output_prints_no_table(files):
    result = invoke("coref-iaa", *files, "--json", "-")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["annotators"] == ["alice/doc", "bob/doc", "carol/doc"]


def test_the_same_file_twice_warns(files):
    result = invoke("coref-iaa", files[0], files[0], "-q")
    assert result.exit_code == 0, result.output
    assert "every figure will be perfect" in result.stderr


@pytest.mark.parametrize(("args", "message"), [
    (["{0}"], "coref-iaa compares two or more annotators' files, got 1"),
    (["{0}", "{1}", "--metric", "b3"],
     "--metric must be one of conll, muc, bcub, ceafm, ceafe, blanc, lea, mentions, got 'b3'"),
    (["{0}", "{1}", "--names", "A"], "--names gives 1 name (A) for 2 files"),
    (["{0}", "{1}", "--names", "A,A"], "--names gives A twice"),
    (["{0}", "{1}", "--match", "head"], "head matching compares mention heads"),
    (["{0}", "{1}", "--json", "{0}"], "doc.conll"),
    (["{0}", "{1}", "--format", "xml"], "--format 'xml': unknown coreference format; use auto or one of conll2012, "
                                        "corefud, docbin, jsonl"),
])
def test_errors_are_exit_2_in_one_line(files, args, message):
    result = invoke("coref-iaa", *(a.format(*files) for a in args))
    assert result.exit_code == 2, result.output
    assert message in result.stderr and len(result.stderr.strip().splitlines()) == 1, result.stderr


def test_different_documents_name_both_annotators(files, tmp_path):
    other = tmp_path / "other.conll"
    other.write_text(ALICE.replace("(d2)", "(d9)"), encoding="utf8")
    result = invoke("coref-iaa", files[0], other)
    assert result.exit_code == 2, result.output
    assert "annotators 'doc' (as key) and 'other'" in result.stderr


def test_corefud_files_are_told_by_their_first_line_and_head_matching_is_averaged(tmp_path):
    from tests.conftest import shared_file

    files = [shared_file("coreference", "corefud", "head-match", f) for f in ("TC-HMA.key", "TC-HMA-1.response")]
    out = tmp_path / "head.json"
    result = invoke("coref-iaa", *files, "--match", "head", "--metric", "mentions", "--json", out)
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text(encoding="utf8"))
    assert data["settings"]["format"] == "corefud" and data["settings"]["match"] == "head"
    pair = data["pairs"][0]
    for metric in data["metrics"]:
        for k, v in pair["figures"][metric].items():
            assert v == pytest.approx((pair["a_as_key"][metric][k] + pair["b_as_key"][metric][k]) / 2)
    assert "corefud, head matching" in " ".join(result.stdout.split())


def test_no_file_is_a_usage_error():
    result = invoke("coref-iaa")
    assert result.exit_code == 2
