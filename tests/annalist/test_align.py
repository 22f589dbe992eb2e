"""ANNALIST alignment (spacy_anno_eval.annalist.align): levels, greedy vs DP, split/merge policies, reports.

The seed's examples (../shared/seeds/annalist-alignment-and-scoring.txt): McCain / Obama (section 5), the
Halifax split (section 4); and a property: with exact offsets and no annotation overlapping two others,
greedy, DP and optimal agree.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from spacy_anno_eval.annalist.align import (
    Mention,
    Settings,
    align_mentions,
    figures,
    parse_policy,
    scores,
    value_f,
)
from spacy_anno_eval.errors import InputError

TEXT = ('John McCain said Tuesday that he and Barack Obama were "moving on" after having a "nice discussion." '
        "In a letter to Sen.Obama on Monday, McCain -upset by his colleague's support ...")


def mentions(items, doc="d1", with_offsets=False):
    out, pos = [], 0
    for k, (name, value) in enumerate(items):
        start = TEXT.index(value, pos)
        pos = start + 1
        out.append(Mention(doc, str(k + 1), name, value, start if with_offsets else None,
                           start + len(value) if with_offsets else None, order=k))
    return out


KEY = [("person", "John McCain"), ("date", "Tuesday"), ("person", "Barack Obama"), ("person", "Obama"),
       ("date", "Monday"), ("person", "McCain")]
# the response misses "Sen.Obama" and annotates only "Obama" of "Barack Obama"
RESPONSE = [("person", "John McCain"), ("date", "Tuesday"), ("person", "Obama"), ("date", "Monday"),
            ("person", "McCain")]


def persons(decisions):
    return [(d.key.value if d.key else None, d.response.value if d.response else None, d.status)
            for d in decisions if (d.key or d.response).name == "person"]


def test_mccain_obama_greedy_without_offsets_gets_it_wrong():
    """Seed section 5: without offsets, MUC-style greedy pairs the key "Obama" (of "Sen.Obama") with the response
    "Obama" (F 1.0 beats "Barack Obama" at 0.67): one correct and "Barack Obama" missing."""
    out = align_mentions(mentions(KEY), mentions(RESPONSE), Settings(level="order", algorithm="greedy"))
    assert ("Obama", "Obama", "correct") in persons(out)
    assert ("Barack Obama", None, "missing") in persons(out)


def test_mccain_obama_dp_gives_one_partial():
    """The DP over mentions in order of occurrence, each placed at the next occurrence of its value in the text
    (``anchor_text``), aligns "Barack Obama" with the response "Obama" (partial) and leaves "Obama" of
    "Sen.Obama" missing — the seed's Fig. 2 path."""
    texts = {"d1": TEXT}
    out = align_mentions(mentions(KEY), mentions(RESPONSE), Settings(level="order", algorithm="dp", anchor_text=True),
                         texts)
    got = persons(out)
    assert ("John McCain", "John McCain", "correct") in got
    assert ("Barack Obama", "Obama", "partial") in got
    assert ("Obama", None, "missing") in got
    assert ("McCain", "McCain", "correct") in got
    table = scores(out)["collection"]["person"]
    assert (table["COR"], table["PAR"], table["MIS"], table["SPU"]) == (2, 1, 1, 0)
    # plain order-only DP (its default "match" objective) finds the same path without the text
    plain = align_mentions(mentions(KEY), mentions(RESPONSE), Settings(level="order", algorithm="dp"))
    assert persons(plain) == got
    # the "graded" objective pays the exact value more than the partial one and gives greedy's answer
    graded = align_mentions(mentions(KEY), mentions(RESPONSE),
                            Settings(level="order", algorithm="dp", dp_objective="graded"))
    assert ("Obama", "Obama", "correct") in persons(graded)


HALIFAX = "Write to B3H 3J5 Halifax Canada today."


def halifax(policy=None):
    key = [Mention("d", "1", "location", "B3H 3J5 Halifax Canada", 9, 31)]
    resp = [Mention("d", "1", "location", "B3H 3J5 Halifax", 9, 24), Mention("d", "2", "location", "Canada", 25, 31)]
    settings = Settings(level="offset", algorithm="greedy")
    if policy:
        settings.split = parse_policy(policy, ("correct", "partial", "incorrect", "spurious"), "split")
    return align_mentions(key, resp, settings)


def test_halifax_split_policies():
    """Seed section 4: one key, two partial responses; the first and the further match are scored as configured."""
    default = halifax()
    assert [(d.status, d.response.value if d.response else None) for d in default] == [
        ("partial", "B3H 3J5 Halifax"), ("spurious", "Canada")]
    table = scores(halifax("first-correct-rest-partial"))["collection"]["location"]
    assert (table["COR"], table["PAR"], table["SPU"], table["POS"], table["ACT"]) == (1, 0, 0, 1, 2)
    assert table["PRE"] == pytest.approx((1 + 0.5) / 2) and table["REC"] == 1.0
    strict = scores(halifax("first-partial-rest-spurious"))["collection"]["location"]
    assert strict["PRE"] == pytest.approx(0.25) and strict["REC"] == pytest.approx(0.5)
    with pytest.raises(InputError, match="first-"):
        parse_policy("first-spurious-rest-partial", ("partial",), "split")


def test_merge_policy_counts_each_key_once():
    keys = [Mention("d", "1", "location", "Halifax", 8, 15), Mention("d", "2", "location", "Canada", 16, 22)]
    resp = [Mention("d", "1", "location", "Halifax Canada", 8, 22)]
    settings = Settings(level="offset", algorithm="greedy")
    settings.merge = ("partial", "partial")
    table = scores(align_mentions(keys, resp, settings))["collection"]["location"]
    assert (table["POS"], table["ACT"], table["PAR"], table["MIS"]) == (2, 1, 2, 0)


def test_section_level_pairs_only_within_sections():
    key = [Mention("d", "1", "person", "Obama", section="s1"), Mention("d", "2", "person", "Obama", section="s2")]
    resp = [Mention("d", "1", "person", "Obama", section="s2")]
    out = align_mentions(key, resp, Settings(level="section", algorithm="greedy"))
    pairs = [(d.key.section if d.key else None, d.status) for d in out]
    assert ("s2", "correct") in pairs and ("s1", "missing") in pairs


@pytest.mark.parametrize("seed", range(8))
def test_greedy_dp_and_optimal_agree_with_exact_offsets(seed):
    """Property: with exact offsets and no annotation overlapping two others, the three algorithms agree."""
    rng = np.random.default_rng(seed)
    key, resp, pos = [], [], 0
    for k in range(40):
        start, length = pos + int(rng.integers(1, 5)), int(rng.integers(1, 6))
        pos = start + length + 3
        name = str(rng.choice(["A", "B"]))
        roll = rng.random()
        if roll < 0.7:
            key.append(Mention("d", f"k{k}", name, "x" * length, start, start + length))
        if roll > 0.2:
            shift = int(rng.integers(-1, 2)) if rng.random() < 0.3 else 0
            resp.append(Mention("d", f"r{k}", name, "x" * length, start + max(shift, 0),
                                start + length + min(shift, 0) if length + min(shift, 0) > max(shift, 0) else
                                start + length))
    results = []
    for algorithm in ("greedy", "dp", "optimal"):
        out = align_mentions(key, resp, Settings(level="offset", algorithm=algorithm))
        results.append(sorted((d.key.id if d.key else "", d.response.id if d.response else "", d.status)
                              for d in out))
    assert results[0] == results[1] == results[2]


def test_value_f_and_input_errors():
    assert value_f("Barack Obama", "Obama") == pytest.approx(2 / 3)
    assert value_f("Obama", "Obama") == 1.0
    with pytest.raises(InputError, match="no offsets"):
        align_mentions(mentions(KEY), mentions(RESPONSE), Settings(level="offset"))
    with pytest.raises(InputError, match="optimal"):
        align_mentions(mentions(KEY), mentions(RESPONSE), Settings(level="order", algorithm="optimal"))
    assert figures({"key_COR": 0, "key_PAR": 0, "key_INC": 0, "key_MIS": 0, "resp_COR": 0, "resp_PAR": 0,
                    "resp_INC": 0, "resp_SPU": 0})["F"] == 0.0


def test_cli_align_writes_scores_and_alignment_reports(tmp_path):
    from typer.testing import CliRunner

    from spacy_anno_eval.cli.app import app

    for name, items in (("key", KEY), ("response", RESPONSE)):
        doc = {"id": "d1", "text": TEXT, "mentions": [{"id": str(k + 1), "label": lab, "text": val}
                                                       for k, (lab, val) in enumerate(items)]}
        (tmp_path / f"{name}.jsonl").write_text(json.dumps(doc) + "\n", encoding="utf8")
    out = tmp_path / "report"
    result = CliRunner().invoke(app, ["align", str(tmp_path / "key.jsonl"), str(tmp_path / "response.jsonl"),
                                      "--level", "order", "--algorithm", "dp", "--anchor-text", "--report", str(out)])
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in (out / "alignment.jsonl").read_text().splitlines()]
    assert {"status": "partial", "key_value": "Barack Obama", "response_value": "Obama"}.items() <= \
        next(r for r in rows if r["key_value"] == "Barack Obama").items()
    tsv = (out / "alignment.tsv").read_text().splitlines()
    assert tsv[0].split("\t")[:3] == ["doc", "status", "extra"] and len(tsv) == len(rows) + 1
    assert sum(1 for line in tsv if "\tmissing\t" in line) == 1
    data = json.loads((out / "scores.json").read_text())
    assert data["entities"]["collection"]["person"]["PAR"] == 1
    bad = CliRunner().invoke(app, ["align", str(tmp_path / "key.jsonl"), str(tmp_path / "response.jsonl"),
                                   "--split", "first-x-rest-y"])
    assert bad.exit_code == 2


def test_cli_relations_unscored_arg2(tmp_path):
    """The seed's Arg2 example through the command line: the key relation authorOf(27, 35) points at an entity
    the response does not have; the relation is unscored (with its reason), not missing."""
    from typer.testing import CliRunner

    from spacy_anno_eval.cli.app import app

    text = "X wrote Y ."
    key = {"text": text, "meta": {"id": "d1"},
           "spans": [{"start": 0, "end": 1, "label": "author"}, {"start": 8, "end": 9, "label": "document"}],
           "relations": [{"head": 0, "child": 2, "label": "authorOf", "head_span": {"start": 0, "end": 1},
                          "child_span": {"start": 8, "end": 9}}]}
    response = {"text": text, "meta": {"id": "d1"}, "spans": [{"start": 0, "end": 1, "label": "author"}],
                "relations": []}
    (tmp_path / "key.jsonl").write_text(json.dumps(key) + "\n", encoding="utf8")
    (tmp_path / "response.jsonl").write_text(json.dumps(response) + "\n", encoding="utf8")
    out = tmp_path / "rel"
    result = CliRunner().invoke(app, ["relations", str(tmp_path / "key.jsonl"), str(tmp_path / "response.jsonl"),
                                      "--report", str(out)])
    assert result.exit_code == 0, result.output
    data = json.loads((out / "scores.json").read_text())
    assert data["relations"]["all"]["POS"] == 0 and data["relations"]["all"]["MIS"] == 0
    assert data["relations"]["unscored"][0]["reason"] == "missing arg2"
    rows = [json.loads(line) for line in (out / "alignment.jsonl").read_text().splitlines()]
    entity_rows = [r for r in rows if r["kind"] == "entity"]
    assert [(r["status"], r["key_value"]) for r in entity_rows] == [("correct", "X"), ("missing", "Y")]
    relation = next(r for r in rows if r["kind"] == "relation")
    assert relation["status"] == "unscored" and "missing arg2" in relation["reason"]
    tsv = (out / "alignment.tsv").read_text().splitlines()
    assert sum(1 for line in tsv if "unscored" in line and "missing arg2" in line) == 1
    assert data["entities"]["per_doc"][0]["id"] == "d1"


def test_sentence_and_paragraph_sections_from_any_corpus(tmp_path):
    from spacy_anno_eval.annalist.mentions import read_mentions, section_starts

    text = "Obama spoke. Then Obama left!\n\nNew paragraph with Obama."
    assert section_starts(text, "sentence") == [0, 13, 31]
    assert section_starts(text, "paragraph") == [0, 31]
    spans = [{"start": m, "end": m + 5, "label": "person"} for m in (0, 18, 50)]
    (tmp_path / "k.jsonl").write_text(json.dumps({"text": text, "spans": spans}) + "\n", encoding="utf8")
    (tmp_path / "r.jsonl").write_text(json.dumps({"text": text, "spans": spans[1:2]}) + "\n", encoding="utf8")
    keys, _ = read_mentions(tmp_path / "k.jsonl", "ents", section="sentence")
    assert [m.section for m in keys] == ["sentence 1", "sentence 2", "sentence 3"]
    resps, _ = read_mentions(tmp_path / "r.jsonl", "ents", section="sentence")
    out = align_mentions(keys, resps, Settings(level="section", algorithm="greedy"))
    assert [(d.key.section if d.key else None, d.status) for d in out] == [
        ("sentence 1", "missing"), ("sentence 2", "correct"), ("sentence 3", "missing")]
