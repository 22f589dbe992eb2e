"""SemEval-2013 schemas against published nervaluate figures and nervaluate 1.2.1 itself.

REFERENCE.md 5.3 (nervaluate README example), 5.4 (the six-scenario drug example of
Batista's blog / the nervaluate README), 5.5 (min_overlap_percentage semantics), then a
seeded differential test on corpora where every key overlaps at most one response and
vice versa (there nervaluate's greedy per-strategy pairing and our one optimal pairing
cannot differ).

Offsets: tokens, end exclusive; nervaluate's inclusive ``[s, e]`` is our ``[s, e + 1)``.
"""

from __future__ import annotations

import random

import pytest

from spacy_anno_eval.annotations.table import Corpus, SpanTable
from spacy_anno_eval.spans.engine import evaluate

nervaluate = pytest.importorskip("nervaluate")

SCHEMAS = {"strict": "strict", "exact": "exact", "partial": "partial", "type": "ent_type"}  # ours -> theirs


# ---------------------------------------------------------------------------
# helpers


def iob2_spans(tags: list[str]) -> list[tuple[int, int, str]]:
    """(start, end exclusive, label) token spans of an IOB2 tag list.

    As conlleval and nervaluate read tags: an ``I-`` after ``O`` or after another type starts an entity.
    """
    spans: list[tuple[int, int, str]] = []
    start, label = None, None
    for i, tag in enumerate(list(tags) + ["O"]):
        prefix, _, typ = tag.partition("-")
        continues = prefix == "I" and typ == label
        if label is not None and not continues:
            spans.append((start, i, label))
            start, label = None, None
        if prefix in ("B", "I") and not continues:
            start, label = i, typ
    return spans


def corpus(docs: list[list[tuple[int, int, str]]], lengths: list[int], labels: list[str]) -> Corpus:
    rows = [(d, s, e, lab) for d, spans in enumerate(docs) for s, e, lab in spans]
    table = SpanTable([r[0] for r in rows], [r[1] for r in rows], [r[2] for r in rows],
                      [labels.index(r[3]) for r in rows], list(labels))
    return Corpus([f"d{i}" for i in range(len(docs))], ["x" * n for n in lengths], {"ents": table})


def ours(key_docs, resp_docs, lengths, labels, min_overlap=1.0) -> dict:
    """Our report; min_overlap 1 is nervaluate's default."""
    return evaluate(corpus(key_docs, lengths, labels), corpus(resp_docs, lengths, labels),
                    min_overlap=min_overlap).report()


def theirs(key_docs, resp_docs, labels, min_overlap=1.0) -> dict:
    """nervaluate 1.2.1 on the same spans (dict loader, inclusive ends)."""
    def as_dicts(docs):
        return [[{"label": lab, "start": s, "end": e - 1} for s, e, lab in spans] for spans in docs]
    return nervaluate.Evaluator(as_dicts(key_docs), as_dicts(resp_docs), tags=list(labels), loader="dict",
                                min_overlap_percentage=min_overlap).evaluate()


def counts_of(result) -> dict[str, int]:
    return {"COR": result.correct, "INC": result.incorrect, "PAR": result.partial, "MIS": result.missed,
            "SPU": result.spurious}


def our_counts(semeval_schema: dict) -> dict[str, int]:
    return {k: semeval_schema[k] for k in ("COR", "INC", "PAR", "MIS", "SPU")}


def assert_same_overall(rep: dict, nv: dict) -> None:
    for mine, name in SCHEMAS.items():
        got, want = rep["semeval"][mine], nv["overall"][name]
        assert our_counts(got) == counts_of(want), mine
        assert got["POS"] == want.possible and got["ACT"] == want.actual
        assert got["p"] == pytest.approx(want.precision, abs=1e-12), mine
        assert got["r"] == pytest.approx(want.recall, abs=1e-12), mine
        assert got["f"] == pytest.approx(want.f1, abs=1e-12), mine


def test_iob2_reader():
    assert iob2_spans(["O", "B-PER", "I-PER", "O", "I-LOC", "B-LOC", "I-PER"]) == [
        (1, 3, "PER"), (4, 5, "LOC"), (5, 6, "LOC"), (6, 7, "PER")]
    assert iob2_spans(["B-X", "I-X"]) == [(0, 2, "X")]


# ---------------------------------------------------------------------------
# 5.3 the nervaluate README example


README_TRUE = [["O", "B-PER", "I-PER", "O", "O", "O", "B-ORG", "I-ORG"],
               ["O", "B-LOC", "B-PER", "I-PER", "O", "O", "B-DATE"]]
README_PRED = [["O", "O", "B-PER", "I-PER", "O", "O", "B-ORG", "I-ORG"],
               ["O", "B-LOC", "I-LOC", "B-PER", "O", "O", "B-DATE"]]
README_TAGS = ["PER", "ORG", "LOC", "DATE"]


def assert_counts(sem: dict, **published: tuple[int, int, int, int, int]) -> None:
    """Each SemEval schema's (COR, INC, PAR, MIS, SPU) as published."""
    for schema, (cor, inc, par, mis, spu) in published.items():
        assert our_counts(sem[schema]) == {"COR": cor, "INC": inc, "PAR": par, "MIS": mis, "SPU": spu}, schema


def test_readme_example_published_figures():
    key = [iob2_spans(t) for t in README_TRUE]
    resp = [iob2_spans(t) for t in README_PRED]
    rep = ours(key, resp, [len(t) for t in README_TRUE], README_TAGS)
    sem = rep["semeval"]
    assert_counts(sem, type=(5, 0, 0, 0, 0), exact=(2, 3, 0, 0, 0), partial=(2, 0, 3, 0, 0), strict=(2, 3, 0, 0, 0))
    for schema, value in (("type", 1.0), ("exact", 0.4), ("partial", 0.7), ("strict", 0.4)):
        for k in "prf":
            assert sem[schema][k] == pytest.approx(value), (schema, k)
    # per type, strict (COR, INC): DATE 1/0, LOC 0/1, ORG 1/0, PER 0/2
    per_type = {t: (v["semeval"]["strict"]["COR"], v["semeval"]["strict"]["INC"])
                for t, v in rep["per_type"].items()}
    assert per_type == {"DATE": (1, 0), "LOC": (0, 1), "ORG": (1, 0), "PER": (0, 2)}
    assert rep["per_type"]["DATE"]["semeval"]["strict"]["f"] == 1.0
    assert rep["per_type"]["PER"]["semeval"]["strict"]["f"] == 0.0


def test_readme_example_equals_nervaluate():
    key = [iob2_spans(t) for t in README_TRUE]
    resp = [iob2_spans(t) for t in README_PRED]
    rep = ours(key, resp, [len(t) for t in README_TRUE], README_TAGS)
    # nervaluate reads the tag lists itself (list loader)
    nv = nervaluate.Evaluator(README_TRUE, README_PRED, tags=README_TAGS, loader="list").evaluate()
    assert_same_overall(rep, nv)
    for tag in README_TAGS:  # no label confusion here: per-type tables agree too
        for mine, name in SCHEMAS.items():
            assert our_counts(rep["per_type"][tag]["semeval"][mine]) == counts_of(nv["entities"][tag][name])


# ---------------------------------------------------------------------------
# 5.4 the six scenarios (BRAND / DRUG / GROUP)


DRUG_TRUE = "B-BRAND O O O O B-DRUG O B-DRUG O B-DRUG O O B-GROUP".split()
DRUG_PRED = "O O B-BRAND O B-DRUG I-DRUG O B-BRAND O B-DRUG O B-DRUG I-DRUG".split()
DRUG_TAGS = ["BRAND", "DRUG", "GROUP"]


def test_six_scenarios_published_figures():
    rep = ours([iob2_spans(DRUG_TRUE)], [iob2_spans(DRUG_PRED)], [len(DRUG_TRUE)], DRUG_TAGS)
    sem = rep["semeval"]
    assert_counts(sem, strict=(1, 3, 0, 1, 1), exact=(2, 2, 0, 1, 1), partial=(2, 0, 2, 1, 1), type=(2, 2, 0, 1, 1))
    for schema, value in (("strict", 0.2), ("exact", 0.4), ("partial", 0.6), ("type", 0.4)):
        assert sem[schema]["p"] == pytest.approx(value) and sem[schema]["r"] == pytest.approx(value)
    # the same six scenarios in GATE's terms: correct 1, partial 1 (DRUG 5 vs 4-5), the rest M/S
    assert rep["counts"] == {"correct": 1, "partial": 1, "missing": 3, "spurious": 3, "incorrect": 1}


def test_six_scenarios_equal_nervaluate():
    rep = ours([iob2_spans(DRUG_TRUE)], [iob2_spans(DRUG_PRED)], [len(DRUG_TRUE)], DRUG_TAGS)
    nv = nervaluate.Evaluator([DRUG_TRUE], [DRUG_PRED], tags=DRUG_TAGS, loader="list").evaluate()
    assert_same_overall(rep, nv)


# ---------------------------------------------------------------------------
# 5.5 min_overlap_percentage (nervaluate tests/test_evaluator.py, dict loader, inclusive ends)


@pytest.mark.parametrize("pred_end_inclusive, threshold, outcome", [
    (2, 1, "partial"), (2, 50, "spurious"),
    (4, 50, "partial"), (4, 51, "spurious"),
    (6, 75, "spurious"), (7, 75, "partial"),
    (9, 100, "correct"),
])
def test_min_overlap_semantics(pred_end_inclusive, threshold, outcome):
    key = [[(0, 10, "PER")]]                         # true PER [0, 9]: 10 tokens
    resp = [[(0, pred_end_inclusive + 1, "PER")]]
    rep = ours(key, resp, [12], ["PER"], min_overlap=threshold)
    nv = theirs(key, resp, ["PER"], min_overlap=threshold)
    assert_same_overall(rep, nv)
    partial = rep["semeval"]["partial"]
    if outcome == "partial":
        assert (partial["PAR"], partial["MIS"], partial["SPU"]) == (1, 0, 0)
    elif outcome == "correct":
        assert all(rep["semeval"][s]["COR"] == 1 for s in SCHEMAS)
    else:  # below the threshold: missed and spurious in all four schemas
        for s in SCHEMAS:
            assert (rep["semeval"][s]["MIS"], rep["semeval"][s]["SPU"]) == (1, 1)


def test_default_one_percent_drops_tiny_overlaps_of_long_keys():
    # a 1-token overlap with a 150-token key is 0.67% < 1%: nervaluate's default drops it, our 0 keeps it
    key, resp = [[(0, 150, "X")]], [[(149, 152, "X")]]
    assert ours(key, resp, [160], ["X"])["semeval"]["partial"]["SPU"] == 1
    assert_same_overall(ours(key, resp, [160], ["X"]), theirs(key, resp, ["X"]))
    assert ours(key, resp, [160], ["X"], min_overlap=0.0)["semeval"]["partial"]["PAR"] == 1


# ---------------------------------------------------------------------------
# seeded differential test without split/merge ambiguity


def _random_docs(rng: random.Random, labels: list[str]):
    keys, resps, lengths = [], [], []
    for _ in range(rng.randrange(1, 5)):
        k, r, pos = [], [], 0
        for _ in range(rng.randrange(0, 8)):
            pos += rng.randrange(1, 4)  # a gap: slots never touch
            n = rng.randrange(1, 6)
            kind = rng.choice(["key", "response", "same", "relabel", "shift", "shift-relabel"])
            lab = rng.choice(labels)
            other = rng.choice([x for x in labels if x != lab])
            if kind == "key":
                k.append((pos, pos + n, lab))
            elif kind == "response":
                r.append((pos, pos + n, lab))
            else:
                k.append((pos, pos + n, lab))
                if kind in ("same", "relabel"):
                    r.append((pos, pos + n, lab if kind == "same" else other))
                else:  # overlapping, not coextensive
                    s = pos + rng.randrange(0, n)
                    e = rng.randrange(s + 1, pos + n + 4)
                    if (s, e) == (pos, pos + n):
                        e += 1
                    r.append((s, e, lab if kind == "shift" else other))
            pos = max([pos + n] + [e for _, e, _ in r]) + 1
        keys.append(k)
        resps.append(r)
        lengths.append(pos + 5)
    return keys, resps, lengths


@pytest.mark.parametrize("seed", range(10))
def test_differential_against_nervaluate(seed):
    rng = random.Random(seed)
    labels = ["PER", "LOC", "ORG"]
    for _ in range(20):
        keys, resps, lengths = _random_docs(rng, labels)
        min_overlap = rng.choice([1.0, 1.0, 25.0, 50.0, 80.0, 100.0])
        rep = ours(keys, resps, lengths, labels, min_overlap=min_overlap)
        assert_same_overall(rep, theirs(keys, resps, labels, min_overlap=min_overlap))


# ---------------------------------------------------------------------------
# where we deliberately differ: per-type tables with confused labels


def test_per_type_tables_with_confused_labels():
    """Key PER [0, 2) against a coextensive response LOC [0, 2).

    Overall, both say strict INC 1. nervaluate 1.x scores each type on the entities of that type
    alone: PER has MIS 1, LOC has SPU 1, so its per-type tables add up to MIS 1 + SPU 1, not to its
    overall INC 1. Ours count the pair under the key's label (PER: INC 1) and add up to the overall
    table (see semeval_prf's docstring).
    """
    key, resp = [[(0, 2, "PER")]], [[(0, 2, "LOC")]]
    labels = ["PER", "LOC"]
    rep, nv = ours(key, resp, [4], labels), theirs(key, resp, labels)
    assert_same_overall(rep, nv)
    assert counts_of(nv["overall"]["strict"]) == {"COR": 0, "INC": 1, "PAR": 0, "MIS": 0, "SPU": 0}
    assert counts_of(nv["entities"]["PER"]["strict"]) == {"COR": 0, "INC": 0, "PAR": 0, "MIS": 1, "SPU": 0}
    assert counts_of(nv["entities"]["LOC"]["strict"]) == {"COR": 0, "INC": 0, "PAR": 0, "MIS": 0, "SPU": 1}
    # ours: the pair under PER, nothing under LOC in the SemEval tables; the sums equal the overall
    assert our_counts(rep["per_type"]["PER"]["semeval"]["strict"]) == {"COR": 0, "INC": 1, "PAR": 0, "MIS": 0,
                                                                       "SPU": 0}
    assert our_counts(rep["per_type"]["LOC"]["semeval"]["strict"]) == {"COR": 0, "INC": 0, "PAR": 0, "MIS": 0,
                                                                       "SPU": 0}
    for schema, name in SCHEMAS.items():
        for field in ("COR", "INC", "PAR", "MIS", "SPU"):
            mine = sum(t["semeval"][schema][field] for t in rep["per_type"].values())
            assert mine == rep["semeval"][schema][field]
        nv_sum = sum(sum(counts_of(nv["entities"][t][name]).values()) for t in labels)
        assert nv_sum == 2 != sum(counts_of(nv["overall"][name]).values())
    # GATE's per-type view keeps both sides: PER missing, LOC spurious (incorrect counted under PER)
    assert rep["per_type"]["PER"]["counts"]["missing"] == 1 and rep["per_type"]["LOC"]["counts"]["spurious"] == 1
