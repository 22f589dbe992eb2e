"""IAA on one big CoNLL file with one tag column per annotator, read a few documents at a time: pairwise F
and kappa equal the whole file's, document ids included (comment ids hold only when the whole file has
unique ones)."""

from __future__ import annotations

import json

import numpy as np
import pytest
from typer.testing import CliRunner

from spacy_anno_eval.agreement.iaa import pairwise_f, pairwise_kappa, to_json
from spacy_anno_eval.cli.app import app

SETS = "column:1;column:2;column:3"
WORDS = ["Ann", "met", "Bob", "in", "Paris", "on", "Monday", "at", "ACME"]


def write_conll(path, n_sents, seed, ids="none", docstart=False):
    """Three annotators' BIO tags; ``ids``: none, unique (``# sent_id``), or unique but one missing late."""
    rng = np.random.default_rng(seed)
    blocks = []
    for s in range(n_sents):
        lines = []
        if docstart and s % 3 == 0:
            lines.append("-DOCSTART- O O O\n")
        if ids == "unique" or (ids == "one-missing" and s != n_sents - 2):
            lines.append(f"# sent_id = s{s}")
        base = rng.choice(["O", "B-PER", "B-LOC", "B-ORG"], size=7, p=[0.55, 0.15, 0.15, 0.15])
        for t, w in enumerate(rng.choice(WORDS, 7)):
            tags = [str(base[t]) if rng.random() < 0.8 else str(rng.choice(["O", "B-PER", "B-LOC"]))
                    for _ in range(3)]
            lines.append(f"{w} {' '.join(tags)}")
        blocks.append("\n".join(lines))
    path.write_text("\n\n".join(blocks) + "\n", encoding="utf8")
    return path


def dump(result):
    return json.dumps(to_json(result), sort_keys=True)


@pytest.mark.filterwarnings("ignore:.*document ids from comments are missing:UserWarning")
@pytest.mark.parametrize("ids", ["none", "unique", "one-missing"])
@pytest.mark.parametrize("docstart", [False, True])
@pytest.mark.parametrize("size", [1, 4, 1000])
def test_chunks_equal_the_whole_file(tmp_path, ids, docstart, size):
    path = write_conll(tmp_path / "iaa.conll", 30, seed=len(ids) + size, ids=ids, docstart=docstart)
    for measure, options in ((pairwise_f, {}), (pairwise_kappa, {"types": "*", "bootstrap": 50})):
        whole = measure(str(path), SETS, **options)
        chunked = measure(str(path), SETS, docs_per_chunk=size, **options)
        assert dump(chunked) == dump(whole)
    if ids == "one-missing" and not docstart:
        with pytest.warns(UserWarning, match="missing or repeated"):  # the chunked read warns as the whole does
            pairwise_f(str(path), SETS, docs_per_chunk=size)
    n_docs = whole["n_docs"]
    assert n_docs == (10 if docstart else 30)
    first_pair = to_json(whole)["pairs"][0]["per_type"]["*"]["per_doc"]
    shown = [row["doc_id"] for row in first_pair]
    if ids == "unique" and not docstart:  # sentences are the documents, named by their sent_id
        assert shown and all(i.startswith("s") for i in shown) and shown == sorted(shown, key=lambda i: int(i[1:]))
    else:  # DOCSTART documents take no sent_id; a file that lacks one sent_id numbers every document
        assert shown and all(i.isdigit() for i in shown)


def test_cli_iaa_chunk_docs(tmp_path):
    path = write_conll(tmp_path / "iaa.conll", 20, seed=3, ids="unique")
    outs = []
    for extra in ([], ["--chunk-docs", "3"]):
        out = tmp_path / f"r{len(extra)}.json"
        result = CliRunner().invoke(app, ["iaa", str(path), "--sets", SETS, "--measure", "kappa", "--types", "*",
                                          "--json", str(out), "--quiet", *extra])
        assert result.exit_code == 0, result.output
        outs.append(out.read_text())
    assert outs[0] == outs[1]
