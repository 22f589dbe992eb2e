"""Kappa IAA (spacy_anno_eval.agreement.iaa.pairwise_kappa) over shard files equals the whole corpus, exactly."""

from __future__ import annotations

import json

import numpy as np
import pytest
import spacy
from spacy.tokens import DocBin, Span

from spacy_anno_eval.agreement.iaa import pairwise_f, pairwise_kappa, to_json
from spacy_anno_eval.errors import InputError
from spacy_anno_eval.report.matrix import write_matrix_reports

ANNOTATORS = ("a1", "a2", "a3", "a4")
SETS = ";".join(f"spans:{a}" for a in ANNOTATORS)
#: ten labels and ten KB ids: tables of more than eight categories
LABELS = ("PER", "ORG", "LOC", "MISC", "DATE", "EVENT", "WORK", "LAW", "NORP", "FAC")
KB = tuple(f"Q{k}" for k in range(10))
N_DOCS = 21
NO_ID = {4, 16, 20}  # documents without an id: positional ids ("4" in the whole corpus, "2" in shard 3 of 7)
ONLY_A1 = {5, 12}  # every annotator but a1 leaves these documents empty
EMPTY = {9}  # nobody annotates this one
RARE = 19  # the only document with the type RARE (one shard of three or seven has it)


def _annotated_docs() -> list:
    """Twenty-one documents, a gold set and four annotators who drop, relabel, re-link, add and double spans."""
    nlp = spacy.blank("en")
    rng = np.random.default_rng(7)
    docs = []
    for d in range(N_DOCS):
        words = [f"w{d}x{k}" for k in range(16)]
        words[3] = "<b>"  # escaped in the pair pages
        doc = nlp(" ".join(words))
        if d not in NO_ID:
            doc.user_data["doc_id"] = f"doc-{d:02d}"
        gold = []
        for start in sorted(rng.choice(np.arange(0, 15, 3), size=4, replace=False).tolist()):
            kb = str(rng.choice(KB)) if rng.random() < 0.85 else ""
            gold.append((start, start + 1 + int(rng.random() < 0.3), str(rng.choice(LABELS)), kb))
        if d == RARE:
            gold.append((15, 16, "RARE", "Q1"))
        doc.spans["gold"] = [Span(doc, s, e, lab, kb_id=kb) for s, e, lab, kb in gold]
        for a in ANNOTATORS:
            spans = []
            if d in EMPTY or (d in ONLY_A1 and a != "a1"):
                doc.spans[a] = []
                continue
            for s, e, lab, kb in gold:
                r = rng.random()
                if r < 0.12:
                    continue  # missed
                if r < 0.24:
                    lab = str(rng.choice(LABELS))
                elif r < 0.36:
                    kb = str(rng.choice(KB))
                elif r < 0.42:
                    kb = ""
                elif r < 0.48:
                    e += 1  # not coextensive
                spans.append((s, e, lab, kb))
                if rng.random() < 0.08:  # a second annotation on the same span (pairs copy by copy)
                    spans.append((s, e, str(rng.choice(LABELS)), str(rng.choice(KB))))
            if rng.random() < 0.4:
                spans.append((14, 15, str(rng.choice(LABELS)), str(rng.choice(KB))))
            doc.spans[a] = [Span(doc, s, e, lab, kb_id=kb) for s, e, lab, kb in spans]
        docs.append(doc)
    return docs


def _corpora(tmp_path) -> dict[str, str]:
    """The documents as one file (``whole``) and split into 1, 3 and 7 shard files: as a folder and as a glob."""
    docs = _annotated_docs()
    out = {}
    DocBin(docs=docs, store_user_data=True).to_disk(tmp_path / "whole.spacy")
    out["whole"] = str(tmp_path / "whole.spacy")
    for n in (1, 3, 7):
        folder = tmp_path / f"shards{n}"
        folder.mkdir()
        for k, chunk in enumerate(np.array_split(np.arange(N_DOCS), n)):
            DocBin(docs=[docs[i] for i in chunk], store_user_data=True).to_disk(folder / f"part-{k:02d}.spacy")
        out[f"folder{n}"] = str(folder)
        out[f"glob{n}"] = str(folder / "part-*.spacy")
    return out


@pytest.fixture(scope="module")
def corpora(tmp_path_factory):
    return _corpora(tmp_path_factory.mktemp("kappa_shards"))


def _dump(result) -> str:
    return json.dumps(to_json(result), sort_keys=True)


CASES = [
    pytest.param({"types": "*"}, id="labels"),
    pytest.param({"types": "*->kb_id"}, id="any-type-feature"),
    pytest.param({"types": "PER->kb_id;ORG;LOC->kb_id;RARE"}, id="types-features"),
    pytest.param({}, id="every-type-found"),
    pytest.param({"types": "*;PER->kb_id", "bootstrap": 200, "seed": 5, "consensus": "spans:gold"},
                 id="bootstrap-consensus"),
]


@pytest.mark.parametrize("options", CASES)
@pytest.mark.parametrize("split", ["folder1", "glob3", "folder3", "glob7", "folder7"])
def test_shards_equal_the_whole_corpus(corpora, split, options):
    whole = pairwise_kappa(corpora["whole"], SETS, **options)
    sharded = pairwise_kappa(corpora[split], SETS, shards=True, **options)
    assert _dump(sharded) == _dump(whole)
    assert sharded["items"] == whole["items"]
    assert {d: sharded["texts"][d] for d in whole["texts"]} == whole["texts"]


def test_the_sums_are_not_trivial(corpora):
    """The equality above compares real tables: items, disagreements, documents without items, ids."""
    result = pairwise_kappa(corpora["folder7"], SETS, types="*->kb_id;PER", consensus="spans:gold", bootstrap=50,
                            shards=True)
    assert result["n_docs"] == N_DOCS
    f = result["pairs"][0]["per_type"]["*->kb_id"]
    table = np.array(f["confusion"]["matrix"])
    assert len(f["confusion"]["categories"]) > 8  # more than eight categories
    assert table.sum() > 40 and np.trace(table) > 0 and table.sum() > np.trace(table)
    assert f["cohen_kappa"] is not None and f["cohen_kappa_ci"]["n_samples"] == 50
    ids = [d["doc_id"] for d in f["per_doc"]]
    # document 9 has no items; documents 4, 16 and 20 have positional ids, global ones
    assert "doc-09" not in ids and {"4", "16", "20"} <= set(ids) and "2" not in ids
    assert ids == sorted(ids, key=lambda i: int(i) if i.isdigit() else int(i[4:]))  # document order
    per_doc_n = sum(d["n"] for d in f["per_doc"])
    assert per_doc_n == table.sum()
    assert [d["n"] for d in f["per_doc"] if d["doc_id"] in ("doc-05", "doc-12")] == [5, 5]
    items = result["items"][(0, 1)]
    assert len(items) > 10
    # a1 vs a2 on documents only a1 annotated: a1's items are Non-cat for a2
    alone = [i for i in items if i["doc"] in ONLY_A1]
    assert alone and all(i["category_b"] == "Non-cat" and i["category_a"] != "Non-cat" for i in alone)
    for item in items:
        expected = f"doc-{item['doc']:02d}" if item["doc"] not in NO_ID else str(item["doc"])
        assert item["doc_id"] == expected
        assert result["texts"][item["doc"]].startswith(f"w{item['doc']}x0 ")
    assert any(item["doc"] == 20 for item in items)  # shard 7's third document, globally 20
    keys = [(i["type"], i["doc"], i["start"], i["end"]) for i in items]
    assert keys == sorted(keys, key=lambda k: (["*->kb_id", "PER"].index(k[0]), k[1], k[2], k[3]))
    assert set(result["consensus"]["annotators"]) == {f"spans:{a}" for a in ANNOTATORS}


def test_every_type_found_includes_a_type_of_one_shard(corpora):
    result = pairwise_kappa(corpora["folder7"], SETS, shards=True)
    assert "RARE" in result["types"] and result["types"] == sorted(result["types"])
    assert any("RARE" in w for w in result["warnings"])


@pytest.mark.parametrize("split", ["folder3", "glob7"])
def test_pair_pages_are_byte_identical(corpora, tmp_path, split):
    options = {"types": "*;LOC->kb_id", "bootstrap": 200, "consensus": "spans:gold"}
    whole = write_matrix_reports(pairwise_kappa(corpora["whole"], SETS, **options), tmp_path / "whole")
    sharded = write_matrix_reports(pairwise_kappa(corpora[split], SETS, shards=True, **options), tmp_path / "sh")
    assert sorted(whole) == sorted(sharded) and len(whole) == 1 + 6
    for name, path in whole.items():
        assert sharded[name].read_bytes() == path.read_bytes(), name
    page = (tmp_path / "sh" / "pair-0-1.html").read_text(encoding="utf8")
    assert "<mark>" in page and "&lt;b&gt;" in page and "Disagreements (0)" not in page


def test_refusals(corpora):
    from spacy_anno_eval.spans.engine import load

    corpus = load(corpora["whole"], [f"spans:{a}" for a in ANNOTATORS])
    with pytest.raises(InputError, match="folder of shard files, a glob pattern or a file, got a Corpus; "
                                                  "pass a path, or leave shards off"):
        pairwise_kappa(corpus, SETS, shards=True)
    with pytest.raises(InputError, match="matches no file"):
        pairwise_kappa(corpora["folder3"] + "/*.jsonl", SETS, shards=True)
    # in memory, without shards, as before
    assert _dump(pairwise_kappa(corpus, SETS, types="*")) == _dump(pairwise_kappa(corpora["whole"], SETS, types="*"))


def test_progress_counts_shards_and_documents(corpora, monkeypatch):
    import spacy_anno_eval.progress as progress

    calls = []

    class Recorder:
        def __init__(self, **kwargs):
            calls.append(("open", kwargs))

        def update(self, n, docs=None):
            calls.append(("update", n, docs))

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            calls.append(("close",))

    monkeypatch.setattr(progress, "progress_bar", lambda **kwargs: Recorder(**kwargs))
    for score in (pairwise_kappa, pairwise_f):
        calls.clear()
        score(corpora["folder7"], SETS, shards=True, progress=True)
        assert calls[0] == ("open", {"total": 7, "desc": "shards", "unit": "shard", "enabled": True})
        assert calls[-1] == ("close",)
        updates = [c for c in calls if c[0] == "update"]
        assert len(updates) == 7 and sum(c[2] for c in updates) == N_DOCS and all(c[1] == 1 for c in updates)


def test_pairwise_f_shards_give_positional_ids_their_global_number(corpora):
    whole = to_json(pairwise_f(corpora["whole"], SETS))
    sharded = to_json(pairwise_f(corpora["glob7"], SETS, shards=True))
    assert json.dumps(sharded, sort_keys=True) == json.dumps(whole, sort_keys=True)
    ids = [d["id"] for d in sharded["pairs"][0]["report"]["per_doc"]]
    assert ids[20] == "20" and ids[4] == "4" and ids[0] == "doc-00"


def test_per_document_stacks_in_batches_give_the_same_figures(corpora, monkeypatch):
    """Per-document tables are stacked a batch of documents at a time; one document per batch changes nothing."""
    import spacy_anno_eval.agreement.classification as classification

    whole = _dump(pairwise_kappa(corpora["whole"], SETS, types="*;LOC->kb_id"))
    monkeypatch.setattr(classification, "STACK_CELLS", 1)
    assert _dump(pairwise_kappa(corpora["glob7"], SETS, types="*;LOC->kb_id", shards=True)) == whole
