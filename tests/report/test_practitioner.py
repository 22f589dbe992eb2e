"""What a practitioner wants of the QA reports (issue 18, item 3): the macro line's coverage, document rows
linked to their Diff, no empty feature columns, one colour per status, and ``--features '*'``."""

from __future__ import annotations

import itertools
import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from spacy_anno_eval.cli.app import app
from spacy_anno_eval.report.html import STATUS_COLOURS, render_html
from spacy_anno_eval.report.markdown import render_markdown
from spacy_anno_eval.spans.counts import MACRO_DOCS_REASON
from spacy_anno_eval.spans.engine import evaluate

TEXT_1 = "Alice met Bob in Paris."
TEXT_2 = "Acme hired Carol."
TEXT_3 = "Nothing to see here."


def _write(path: Path, docs: list[tuple[str, str, list[dict]]]) -> Path:
    path.write_text("".join(json.dumps({"text": t, "meta": {"id": i}, "spans": s}) + "\n" for i, t, s in docs),
                    encoding="utf8")
    return path


@pytest.fixture()
def corpus(tmp_path):
    """Three documents: the first has features on the key's side only, the third no annotation at all."""
    key = _write(tmp_path / "key.jsonl", [
        ("d1", TEXT_1, [{"start": 0, "end": 5, "label": "PER", "features": {"gender": "f"}},
                        {"start": 10, "end": 13, "label": "PER", "kb_id": "Q1"}]),
        ("d2", TEXT_2, [{"start": 0, "end": 4, "label": "ORG"}, {"start": 11, "end": 16, "label": "PER"}]),
        ("d3", TEXT_3, []),
    ])
    response = _write(tmp_path / "response.jsonl", [
        ("d1", TEXT_1, [{"start": 0, "end": 5, "label": "PER"}, {"start": 17, "end": 22, "label": "LOC"}]),
        ("d2", TEXT_2, [{"start": 0, "end": 4, "label": "ORG"}, {"start": 11, "end": 16, "label": "PER"}]),
        ("d3", TEXT_3, []),
    ])
    return key, response


def _run(*args) -> str:
    result = CliRunner().invoke(app, [str(a) for a in args])
    assert result.exit_code == 0, result.output
    return result.output


# ------------------------------------------------------------------ macro (docs) ---

def test_the_macro_line_says_how_many_documents_it_covers_and_why(corpus, tmp_path):
    key, response = corpus
    _run("qa", key, response, "--json", tmp_path / "r.json", "--md", tmp_path / "r.md", "--html",
         tmp_path / "r.html", "--quiet")
    report = json.loads((tmp_path / "r.json").read_text(encoding="utf8"))
    assert report["macro_docs_coverage"] == {"n_docs": 2, "n_left_out": 1, "reason": MACRO_DOCS_REASON}
    # the macro mean is over the two documents with annotations, not the column of three
    f = [d["strict"]["f"] for d in report["per_doc"]]
    assert report["macro_docs"]["strict"]["f"] == pytest.approx((f[0] + f[1]) / 2)
    assert report["macro_docs"]["strict"]["f"] != pytest.approx(sum(f) / 3)
    line = f"macro (docs): the mean over 2 of 3 documents; 1 left out, because {MACRO_DOCS_REASON}."
    assert line in (tmp_path / "r.md").read_text(encoding="utf8")
    page = (tmp_path / "r.html").read_text(encoding="utf8")
    assert f'<p class="note" id="macro-docs-note">{line}</p>' in page
    assert f'<th scope="row" title="{line}">macro (docs)</th>' in page


def test_no_document_left_out_is_said_too(corpus):
    key, response = corpus
    report = evaluate(key, response, types=["PER"]).report()
    # d2 and d1 have PER; d3 has nothing
    assert report["macro_docs_coverage"]["n_docs"] == 2
    full = evaluate(key, key).report()
    full["macro_docs_coverage"] = {"n_docs": 3, "n_left_out": 0, "reason": MACRO_DOCS_REASON}
    assert "macro (docs): the mean over 3 of 3 documents." in render_markdown(full)


# ------------------------------------------------------------------- links, columns ---

def test_document_rows_link_to_their_diff(corpus):
    key, response = corpus
    ev = evaluate(key, response)
    page = render_html(ev.report(), ev)
    table = page.split('id="doc-table"')[1].split("</table>")[0]
    assert '<a href="#doc-0" title="Annotation Diff">d1</a>' in table
    assert '<a href="#doc-1" title="Annotation Diff">d2</a>' in table
    assert 'href="#doc-2"' not in table and '<th scope="row">d3</th>' in table  # no annotation, no Diff
    for i in (0, 1):
        assert f'<section class="doc" id="doc-{i}">' in page
    # only documents the Diff shows are linked; without pairs, none is
    assert 'href="#doc-1"' not in render_html(ev.report(), ev, max_diff_docs=1)
    assert 'href="#doc-' not in render_html(ev.report(), None)
    # the script opens the Diff tab for such a link
    assert 'a[href^="#doc-"]' in page


def _diff_header(page: str, doc: int) -> str:
    section = page.split(f'id="doc-{doc}"')[1].split("</section>")[0]
    return section.split('<table class="diff sortable">')[1].split("</thead>")[0]


def test_empty_feature_columns_are_hidden(corpus):
    key, response = corpus
    ev = evaluate(key, response, features=["gender"])
    page = render_html(ev.report(), ev)
    head = _diff_header(page, 0)  # d1: the key has a feature, the response none
    assert "Key features" in head and "Response features" not in head
    section = page.split('id="doc-0"')[1].split("</section>")[0]
    body = section.split("<tbody>")[1]
    assert all(row.count("<td") == len(re.findall("<th ", head)) for row in body.split("</tr>")[:-1])
    head = _diff_header(page, 1)  # d2: no feature on either side
    assert "features" not in head


# -------------------------------------------------------------------------- colours ---

def _rgb(colour: str) -> tuple[int, ...]:
    return tuple(int(colour[i:i + 2], 16) for i in (1, 3, 5))


def test_each_status_has_its_own_colour(corpus):
    assert len(set(STATUS_COLOURS.values())) == len(STATUS_COLOURS)
    for (a, ca), (b, cb) in itertools.combinations(STATUS_COLOURS.items(), 2):
        distance = sum((x - y) ** 2 for x, y in zip(_rgb(ca), _rgb(cb), strict=True)) ** 0.5
        assert distance >= 60, f"{a} {ca} and {b} {cb} look alike"
    key, response = corpus
    ev = evaluate(key, response)
    page = render_html(ev.report(), ev)
    for status, colour in STATUS_COLOURS.items():
        assert f".st-{status}{{background:{colour}}}" in page


# ------------------------------------------------------------------- --features '*' ---

def _figures(report: dict) -> dict:
    return {k: v for k, v in report.items() if k != "settings"}


def test_all_features_is_listing_every_feature(corpus, tmp_path):
    key, response = corpus
    every = evaluate(key, response, features=["gender", "kb_id"]).report()
    star = evaluate(key, response, features=["*"]).report()
    assert _figures(star) == _figures(every)
    assert star["settings"]["features"] == ["*"]
    # it is not nothing: both features make d1's pairs differ
    assert _figures(star) != _figures(evaluate(key, response).report())
    assert star["counts"]["correct"] == 2 and evaluate(key, response).report()["counts"]["correct"] == 3
    for command in ("score", "qa"):
        _run(command, key, response, "--features", "*", "--json", tmp_path / f"{command}-star.json", "--quiet")
        _run(command, key, response, "--features", "gender,kb_id", "--json", tmp_path / f"{command}-all.json",
             "--quiet")
        a, b = (json.loads((tmp_path / f"{command}-{n}.json").read_text(encoding="utf8")) for n in ("star", "all"))
        assert a["counts"] == b["counts"] and a["micro"] == b["micro"]


def test_all_features_of_spacy_docs(corpus):
    import spacy
    from spacy.tokens import Span

    nlp = spacy.blank("en")

    def docs(kb: str):
        doc = nlp("Alice met Bob.")
        doc.ents = [Span(doc, 0, 1, label="PER", kb_id=kb)]
        return [doc]

    key, response = docs("Q1"), docs("Q2")
    assert evaluate(key, response).report()["counts"]["correct"] == 1
    star = evaluate(key, response, features="*").report()
    assert _figures(star) == _figures(evaluate(key, response, features=["kb_id"]).report())
    assert star["counts"]["correct"] == 0
