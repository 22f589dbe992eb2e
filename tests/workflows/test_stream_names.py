"""Names are checked over a whole corpus read in parts (DESIGN.md, Contracts: names are checked).

Shards, chunks and the benchmark's windows are parts of one corpus: a set,
type or feature that only some parts have is fine, one that no part has is
refused once, listing what exists (exit 2 through the CLI).
"""

from __future__ import annotations

import json
import re
from dataclasses import replace

import pytest
import spacy
from spacy.tokens import Doc, Span
from typer.testing import CliRunner

from spacy_anno_eval.cli.app import app
from spacy_anno_eval.errors import InputError
from spacy_anno_eval.workflows.benchmark.run import run_benchmark
from spacy_anno_eval.workflows.stream import score_shards
from tests.shards import write_sharded
from tests.workflows.benchmark.test_run import FAST, make_bench, ruler

runner = CliRunner()


@pytest.fixture(scope="module")
def shards(tmp_path_factory):
    """Two shards: PER only in the first, LOC only in the second; spans:extra only in the second."""
    nlp = spacy.blank("en")

    def pair(label, i, extra):
        k = Doc(nlp.vocab, words=["Ada", "met", "Bob"])
        r = Doc(nlp.vocab, words=["Ada", "met", "Bob"])
        k.user_data["doc_id"] = r.user_data["doc_id"] = f"{label}{i}"
        k.ents = [Span(k, 0, 1, label)]
        r.ents = [Span(r, 0, 1, label)]
        if extra:
            k.spans["extra"] = [Span(k, 2, 3, label)]
            r.spans["extra"] = [Span(r, 2, 3, label)]
        return k, r

    return write_sharded(tmp_path_factory.mktemp("names"),
                         [[pair("PER", i, False) for i in range(3)], [pair("LOC", i, True) for i in range(3)]])


def test_a_type_or_set_of_some_shards_is_fine(shards):
    ev = score_shards(shards / "key", shards / "resp", types=["PER"])
    assert ev.report()["micro"]["strict"]["f"] == 1.0 and ev.report()["counts"]["correct"] == 3
    ev = score_shards(shards / "key", shards / "resp", key_set="spans:extra")
    assert ev.report()["counts"]["correct"] == 3


@pytest.mark.parametrize(("option", "message"), [
    (["--types", "NOPE"], r"no annotation has the type 'NOPE'.*the types are: LOC, PER"),
    (["--types", "per"], r"did you mean 'PER'"),
    (["--key-set", "spans:nope"], r"no key document in any shard has the annotation set 'spans:nope'; the sets are: "
                                  r"ents, spans:extra"),
    (["--features", "kb_id"], r"no annotation carries the feature 'kb_id'"),
])
def test_a_name_no_shard_has_exits_2_with_one_line(shards, tmp_path, option, message):
    out = tmp_path / "s.json"
    result = runner.invoke(app, ["score", str(shards / "key"), str(shards / "resp"), "--shards", *option,
                                 "--json", str(out), "-q"])
    assert result.exit_code == 2, result.output
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and re.search(message, lines[0]), lines
    assert not out.exists()


def test_chunks_of_one_file_are_checked_as_a_whole(tmp_path):
    records = [{"id": f"d{i}", "text": "Ada met Bob", "spans": [{"start": 0, "end": 3,
                                                                 "label": "PER" if i < 3 else "LOC"}]}
               for i in range(6)]
    path = tmp_path / "k.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf8")
    ok = runner.invoke(app, ["score", str(path), str(path), "--chunk-docs", "3", "--types", "LOC", "-q"])
    assert ok.exit_code == 0, ok.output
    bad = runner.invoke(app, ["score", str(path), str(path), "--chunk-docs", "3", "--types", "ORG", "-q"])
    assert bad.exit_code == 2 and "no annotation has the type 'ORG'" in bad.stderr


def test_benchmark_windows_check_the_types_of_the_whole_corpus(tmp_path):
    bench = make_bench(tmp_path / "bench")
    run_benchmark("store", bench, nlp=ruler(), settings=FAST)
    with pytest.raises(InputError, match=r"no annotation has the type 'NOPE'"):
        run_benchmark("marked-vs-stored", bench, settings=replace(FAST, types=["NOPE"]))
    result = run_benchmark("marked-vs-stored", bench, settings=replace(FAST, types=["PER"]))
    assert result.report["stored"]["report"]["micro"]["strict"]["f"] == 1.0
