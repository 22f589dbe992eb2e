"""``anno-eval coref`` (issue 29): JSON keys as fractions, per-document figures, singletons kept or removed, a
table that fits 80 columns in a pipe, one-line errors."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from spacy_anno_eval.cli.app import app

runner = CliRunner()

KEY = """#begin document (d1); part 000
w 0 0 Ada (0
w 0 1 Lovelace 0)
w 0 2 met -
w 0 3 Babbage (1)
w 0 4 and -
w 0 5 she (0)
w 0 6 wrote (2)
#end document
#begin document (d2); part 000
w 0 0 He (3)
w 0 1 said -
w 0 2 he (3)
#end document
"""
RESPONSE = KEY.replace("w 0 5 she (0)", "w 0 5 she (1)").replace("w 0 6 wrote (2)", "w 0 6 wrote -")


@pytest.fixture
def files(tmp_path):
    key, response = tmp_path / "key.conll", tmp_path / "response.conll"
    key.write_text(KEY, encoding="utf8")
    response.write_text(RESPONSE, encoding="utf8")
    return key, response


def test_json_holds_every_metric_as_fractions_and_each_document(files, tmp_path):
    out = tmp_path / "coref.json"
    result = runner.invoke(app, ["coref", *map(str, files), "--json", str(out), "-q"])
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text(encoding="utf8"))
    for metric in ("muc", "bcub", "ceafm", "ceafe", "blanc", "lea", "mentions"):
        assert set(data[metric]) == {"r", "p", "f"} and all(0 <= v <= 1 for v in data[metric].values()), metric
    assert data["conll"]["f"] == pytest.approx((data["muc"]["f"] + data["bcub"]["f"] + data["ceafe"]["f"]) / 3)
    # d1: key {Ada Lovelace, she} {Babbage} {wrote}, response {Ada Lovelace} {Babbage, she}: MUC R 0/1, P 0/1;
    # d2: {He, he} on both sides, 1/1: micro R = P = 1/2
    assert data["n_docs"] == 2 and data["muc"] == {"r": 0.5, "p": 0.5, "f": 0.5}
    assert [d["id"] for d in data["per_doc"]] == ["(d1); part 000", "(d2); part 000"]
    assert data["per_doc"][1]["muc"]["f"] == 1.0 and data["per_doc"][0]["mentions"]["r"] == pytest.approx(3 / 4)
    assert data["settings"] == {"format": "conll2012", "match": "exact", "keep_singletons": True, "blanc": "conll",
                                "keep_zeros": True}


def test_singletons_removed_leave_the_entities_of_two_or_more(files, tmp_path):
    out = tmp_path / "coref.json"
    assert runner.invoke(app, ["coref", *map(str, files), "--no-singletons", "--json", str(out), "-q"]).exit_code == 0
    data = json.loads(out.read_text(encoding="utf8"))
    # key mentions left: Ada Lovelace, she (d1), He, he (d2); response: Babbage, she, He, he
    assert data["mentions"]["r"] == pytest.approx(3 / 4) and data["mentions"]["p"] == pytest.approx(3 / 4)
    assert data["settings"]["keep_singletons"] is False


def test_the_table_fits_80_columns_in_a_pipe(files):
    done = subprocess.run([sys.executable, "-m", "spacy_anno_eval", "coref", *map(str, files)], capture_output=True,
                          text=True, timeout=120, env={**os.environ, "COLUMNS": "80"})
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert all(len(line) <= 80 for line in lines)
    assert lines[0].startswith("2 documents") and any(line.split()[:1] == ["CoNLL"] for line in lines)


def test_mismatched_documents_and_bad_files_are_exit_2_in_one_line(files, tmp_path):
    key, _ = files
    other = tmp_path / "other.conll"
    other.write_text(KEY.replace("(d2)", "(d9)"), encoding="utf8")
    broken = tmp_path / "broken.conll"
    broken.write_text("#begin document (d1);\nw 0 0 a (0\n#end document\n", encoding="utf8")
    for response, message in ((other, "the key's is '(d2); part 000'"), (broken, "still open")):
        result = runner.invoke(app, ["coref", str(key), str(response)])
        assert result.exit_code == 2, result.output
        assert message in result.stderr and len(result.stderr.strip().splitlines()) == 1


def test_the_official_cases_through_the_command(tmp_path):
    from tests.conftest import shared_file

    key = shared_file("coreference", "conll2012", "DataFiles", "TC-A.key")
    response = shared_file("coreference", "conll2012", "DataFiles", "TC-A-11.response")
    out = tmp_path / "a11.json"
    result = runner.invoke(app, ["coref", str(key), str(response), "--json", str(out), "-q"])
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text(encoding="utf8"))
    assert (data["muc"]["r"], data["muc"]["p"]) == pytest.approx((1.0, 0.6))  # CorefMetricTestConfig.pm:120
    assert data["bcub"]["p"] == pytest.approx(0.3888888889)


def test_corefud_files_and_the_blanc_rule_through_the_command(tmp_path):
    from tests.conftest import shared_file

    key = shared_file("coreference", "corefud", "exact-match", "TC-M.key")
    response = shared_file("coreference", "corefud", "exact-match", "TC-M-3.response")
    for rule, recall in (("auto", 0.13333), ("conll", 0.26667)):
        out = tmp_path / f"{rule}.json"
        result = runner.invoke(app, ["coref", str(key), str(response), "--format", "corefud", "--blanc", rule,
                                     "--json", str(out), "-q"])
        assert result.exit_code == 0, result.output
        data = json.loads(out.read_text(encoding="utf8"))
        assert data["blanc"]["r"] == pytest.approx(recall, abs=1e-4)  # M3: unittests-corefud.py vs the Perl rule
        assert data["settings"]["blanc"] == ("corefud" if rule == "auto" else rule)


def test_head_and_partial_matching_and_zeros_through_the_command(tmp_path):
    """TC-HMA-3 shortens key mentions around their heads: exact matching misses half of them, head matching none;
    the settings are echoed in the JSON; CoNLL-2012 files have no heads, so head matching is refused (exit 2)."""
    from tests.conftest import shared_file

    folder = shared_file("coreference", "corefud", "head-match")
    key, response = folder / "TC-HMA.key", folder / "TC-HMA-3.response"
    figures = {}
    for match in ("exact", "head"):
        out = tmp_path / f"{match}.json"
        result = runner.invoke(app, ["coref", str(key), str(response), "-f", "corefud", "--match", match,
                                     "--no-zeros", "--json", str(out), "-q"])
        assert result.exit_code == 0, result.output
        figures[match] = json.loads(out.read_text(encoding="utf8"))
    assert figures["exact"]["mentions"]["r"] == pytest.approx(0.5) and figures["head"]["mentions"]["r"] == 1.0
    assert figures["head"]["settings"] == {"format": "corefud", "match": "head", "keep_singletons": True,
                                           "keep_zeros": False, "blanc": "corefud"}
    conll = shared_file("coreference", "conll2012", "DataFiles")
    refused = runner.invoke(app, ["coref", str(conll / "TC-A.key"), str(conll / "TC-A-1.response"),
                                  "--match", "head"])
    assert refused.exit_code == 2 and "the key gives none" in refused.stderr


@pytest.mark.parametrize("suffix", [".spacy", ".jsonl"])
def test_docbin_and_jsonl_files_through_the_command_score_as_the_conll_originals(tmp_path, suffix):
    """The official TC-A key and response converted to spaCy's formats: the format told by the suffix, the same
    figures as the CoNLL-2012 files give."""
    from dataclasses import replace

    from spacy_anno_eval.coref.conll2012 import read_conll2012
    from tests.conftest import shared_file
    from tests.coref.test_coref_readers import to_docbin, to_jsonlines

    folder = shared_file("coreference", "conll2012", "DataFiles")
    convert = to_docbin if suffix == ".spacy" else to_jsonlines
    key_docs = read_conll2012(folder / "TC-A.key")
    # the official responses write 'x' for 'jnk' (the Perl scorer compares no words); spaCy's files hold the text
    response_docs = [replace(r, tokens=k.tokens) for k, r in zip(key_docs, read_conll2012(
        folder / "TC-A-4.response"), strict=True)]
    outs = {name: tmp_path / f"{name}{suffix}" for name in ("key", "response")}
    convert(key_docs, outs["key"])
    convert(response_docs, outs["response"])
    got, want = tmp_path / "got.json", tmp_path / "want.json"
    for args, out in (([str(outs["key"]), str(outs["response"])], got),
                      ([str(folder / "TC-A.key"), str(folder / "TC-A-4.response")], want)):
        result = runner.invoke(app, ["coref", *args, "--json", str(out), "-q", "--no-per-doc"])
        assert result.exit_code == 0, result.output
    got_data, want_data = (json.loads(p.read_text(encoding="utf8")) for p in (got, want))
    assert got_data["settings"]["format"] == ("docbin" if suffix == ".spacy" else "jsonl")
    for metric in ("muc", "bcub", "ceafm", "ceafe", "blanc", "lea", "mentions", "conll"):
        assert got_data[metric] == want_data[metric], metric
    assert want_data["muc"]["f"] < 1.0


def test_html_pages_through_the_command(tmp_path):
    """--html writes the index and one page per document (head matching: the pages use the metrics' pairs, so a
    shortened mention is correct, not missing and spurious); with two responses it is refused before any work."""
    from tests.conftest import shared_file

    folder = shared_file("coreference", "corefud", "head-match")
    out = tmp_path / "pages"
    result = runner.invoke(app, ["coref", str(folder / "TC-HMA.key"), str(folder / "TC-HMA-3.response"),
                                 "--match", "head", "--html", str(out)])
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in out.iterdir()) == ["doc-0.html", "index.html"]
    page = (out / "doc-0.html").read_text(encoding="utf8")
    cards = dict((label, value) for value, label in re.findall(r'<div class="card"><b>([^<]*)</b><span>([^<]*)',
                                                                 page))
    assert cards["correct mentions"] == "6" and cards["missing mentions"] == cards["spurious mentions"] == "0"
    assert "pages written to" in result.stderr
    exact = runner.invoke(app, ["coref", str(folder / "TC-HMA.key"), str(folder / "TC-HMA-3.response"),
                                "--html", str(tmp_path / "exact")])
    assert exact.exit_code == 0
    exact_page = (tmp_path / "exact" / "doc-0.html").read_text(encoding="utf8")
    assert '<div class="card"><b>3</b><span>missing mentions' in exact_page  # half the key's 6 mentions
    two = runner.invoke(app, ["coref", str(folder / "TC-HMA.key"), str(folder / "TC-HMA-3.response"),
                              str(folder / "TC-HMA-4.response"), "--html", str(tmp_path / "two")])
    assert two.exit_code == 2 and "--html draws one response" in two.stderr and not (tmp_path / "two").exists()
