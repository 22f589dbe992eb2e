"""The spaCy scorer ``spacy_anno_eval.spans_scorer.v1``: differential tests against
spaCy's own scorers, never-None keys, hand-computed strict / lenient / average
figures, and a real ``spacy train`` run with the scorer named in a config."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import spacy
from spacy.scorer import Scorer, get_ner_prf
from spacy.tokens import Doc, DocBin, Span
from spacy.training import Example

from spacy_anno_eval.pipeline.scorers import make_spans_scorer, score_spans

ROOT = Path(__file__).resolve().parents[2]
LABELS = ("PER", "ORG", "LOC", "MISC")
WORDS = ("the", "a", "Ada", "Paris", "Acme", "said", "in", "of", "Corp", "river", ",", ".", "New", "York")
NLP = spacy.blank("en")


# ---------------------------------------------------------------------------
# random corpora


def _random_spans(rng: np.random.Generator, n_tok: int, n: int, overlap: bool) -> list[tuple[int, int, int]]:
    """``n`` random (start, end, label) token spans; non-overlapping unless ``overlap``."""
    out: list[tuple[int, int, int]] = []
    taken = np.zeros(n_tok, dtype=bool)
    for _ in range(n * 4):
        if len(out) == n:
            break
        s = int(rng.integers(0, n_tok))
        e = min(n_tok, s + int(rng.integers(1, 4)))
        if not overlap and taken[s:e].any():
            continue
        taken[s:e] = True
        out.append((s, e, int(rng.integers(0, len(LABELS)))))
    return out


def _perturb(rng: np.random.Generator, spans: list[tuple[int, int, int]], n_tok: int) -> list[tuple[int, int, int]]:
    """Predictions from the reference spans: kept, shifted, relabelled, dropped, plus spurious ones."""
    out = []
    for s, e, lab in spans:
        u = rng.random()
        if u < 0.45:
            out.append((s, e, lab))
        elif u < 0.60:  # shift a boundary by one token
            if rng.random() < 0.5:
                s = min(max(0, s + int(rng.choice([-1, 1]))), e - 1)
            else:
                e = max(min(n_tok, e + int(rng.choice([-1, 1]))), s + 1)
            out.append((s, e, lab))
        elif u < 0.72:
            out.append((s, e, (lab + 1 + int(rng.integers(0, len(LABELS) - 1))) % len(LABELS)))
        elif u < 0.80:
            out.append((s, min(n_tok, e + 2), (lab + 1) % len(LABELS)))  # longer and wrong label
        elif u < 0.90:
            pass  # missing
        else:
            out.append((s, e, lab))
            out.append((s, e, lab))  # a duplicate (kept only where a set of spans allows it)
    for _ in range(int(rng.integers(0, 3))):  # spurious
        s = int(rng.integers(0, n_tok))
        out.append((s, min(n_tok, s + int(rng.integers(1, 3))), int(rng.integers(0, len(LABELS)))))
    return out


def _doc(rng: np.random.Generator, n_tok: int, words: list[str] | None = None,
         spaces: list[bool] | None = None) -> Doc:
    if words is None:
        words = [WORDS[i] for i in rng.integers(0, len(WORDS), size=n_tok)]
        spaces = [bool(x) for x in rng.random(n_tok) < 0.8]
    return Doc(NLP.vocab, words=words, spaces=spaces)


def _non_overlapping(doc: Doc, spans: list[tuple[int, int, int]]) -> list[Span]:
    return spacy.util.filter_spans([Span(doc, s, e, LABELS[lab]) for s, e, lab in spans])


def ents_examples(seed: int, n_docs: int = 40, missing: str = "none") -> list[Example]:
    """Examples with random reference entities and perturbed predicted entities.

    ``missing``: ``"none"`` (every reference token annotated), ``"docs"`` (some
    references have no entity annotation at all), ``"tokens"`` (some reference
    tokens have IOB code 0, i.e. missing annotation), ``"both"``.
    """
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n_docs):
        n_tok = int(rng.integers(1, 25))
        ref = _doc(rng, n_tok)
        pred = _doc(rng, n_tok, [t.text for t in ref], [bool(t.whitespace_) for t in ref])
        gold = _random_spans(rng, n_tok, int(rng.integers(0, 5)), overlap=False)
        kind = rng.random()
        if missing in ("docs", "both") and kind < 0.2:
            pass  # reference without any entity annotation
        elif missing in ("tokens", "both") and kind < 0.6:
            ents = _non_overlapping(ref, gold)
            free = np.ones(n_tok, dtype=bool)
            for e in ents:
                free[e.start:e.end] = False
            blank = [i for i in np.flatnonzero(free) if rng.random() < 0.35]
            ref.set_ents(ents, missing=[ref[i:i + 1] for i in blank], default="outside")
        else:
            ref.ents = _non_overlapping(ref, gold)
        pred.ents = _non_overlapping(pred, _perturb(rng, gold, n_tok))
        out.append(Example(pred, ref))
    return out


def spans_examples(seed: int, n_docs: int = 40, key: str = "sc") -> list[Example]:
    """Examples with random, overlapping ``doc.spans[key]`` on both sides; some
    references (and some predictions) have no such group."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n_docs):
        n_tok = int(rng.integers(1, 25))
        ref = _doc(rng, n_tok)
        pred = _doc(rng, n_tok, [t.text for t in ref], [bool(t.whitespace_) for t in ref])
        gold = _random_spans(rng, n_tok, int(rng.integers(0, 6)), overlap=True)
        if rng.random() < 0.85:
            ref.spans[key] = [Span(ref, s, e, LABELS[lab]) for s, e, lab in gold]
            if gold and rng.random() < 0.3:  # a duplicate reference span
                s, e, lab = gold[0]
                ref.spans[key].append(Span(ref, s, e, LABELS[lab]))
        if rng.random() < 0.9:
            pred.spans[key] = [Span(pred, s, e, LABELS[lab]) for s, e, lab in _perturb(rng, gold, n_tok)]
        out.append(Example(pred, ref))
    return out


def _assert_prf_equal(ours: dict, theirs: dict, prefix: str) -> None:
    """Our strict keys equal spaCy's (spaCy adds 1e-100 to denominators) and so do per-type p/r/f."""
    for k in "prf":
        assert ours[f"{prefix}_{k}"] == pytest.approx(theirs[f"{prefix}_{k}"], abs=1e-12), k
        assert ours[f"{prefix}_{k}_strict"] == ours[f"{prefix}_{k}"]
    ours_pt, theirs_pt = ours[f"{prefix}_per_type"], theirs[f"{prefix}_per_type"]
    assert set(ours_pt) == set(theirs_pt)
    for label, row in theirs_pt.items():
        for k in "prf":
            assert ours_pt[label][k] == pytest.approx(row[k], abs=1e-12), (label, k)


# ---------------------------------------------------------------------------
# differential tests


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("missing", ["none", "docs", "tokens", "both"])
def test_ents_equal_get_ner_prf(seed: int, missing: str) -> None:
    examples = ents_examples(seed, missing=missing)
    theirs = get_ner_prf(examples)
    if theirs["ents_p"] is None:
        pytest.skip("nothing to score in this draw")
    ours = make_spans_scorer()(examples)
    _assert_prf_equal(ours, theirs, "ents")


@pytest.mark.parametrize("seed", range(8))
def test_ents_equal_score_spans_when_fully_annotated(seed: int) -> None:
    examples = ents_examples(100 + seed, missing="none")
    theirs = Scorer.score_spans(examples, "ents")
    if theirs["ents_p"] is None:
        pytest.skip("nothing to score in this draw")
    _assert_prf_equal(make_spans_scorer()(examples), theirs, "ents")


def test_differential_corpora_exercise_every_case() -> None:
    """The random corpora above really contain the cases the tests claim to cover."""
    examples = [eg for s in range(8) for eg in ents_examples(s, missing="both")]
    ours = score_spans(examples)
    assert ours["ents_muc"]["PAR"] > 0 and ours["ents_muc"]["INC"] > 0
    assert ours["ents_muc"]["MIS"] > 0 and ours["ents_muc"]["SPU"] > 0
    assert any(not eg.reference.has_annotation("ENT_IOB") and eg.predicted.ents for eg in examples)
    assert any(eg.reference.has_annotation("ENT_IOB") and (eg.reference.to_array("ENT_IOB") == 0).any()
               for eg in examples)
    assert ours["ents_p_lenient"] > ours["ents_p_strict"]


def test_unannotated_references_are_skipped_like_get_ner_prf() -> None:
    """A reference with no entity annotation is skipped (as ``get_ner_prf`` does);
    ``Scorer.score_spans(examples, "ents")`` counts its predictions as false positives."""
    ref = NLP("Ada went to Paris .")
    pred = NLP("Ada went to Paris .")
    pred.ents = [Span(pred, 0, 1, "PER"), Span(pred, 3, 4, "LOC")]
    ref2 = NLP("Acme hired Ada .")
    ref2.ents = [Span(ref2, 0, 1, "ORG")]
    pred2 = NLP("Acme hired Ada .")
    pred2.ents = [Span(pred2, 0, 1, "ORG")]
    examples = [Example(pred, ref), Example(pred2, ref2)]
    ours = score_spans(examples)
    assert ours["ents_p"] == get_ner_prf(examples)["ents_p"] == pytest.approx(1.0)
    assert Scorer.score_spans(examples, "ents")["ents_p"] == pytest.approx(1 / 3)
    assert set(ours["ents_per_type"]) == {"ORG"}


def test_prediction_on_missing_token_annotation_is_ignored() -> None:
    """A predicted entity touching a reference token with IOB code 0 is neither right
    nor wrong, but its label is listed with zeros, as in ``get_ner_prf``."""
    ref = NLP("Ada went to Paris with Acme .")
    ref.set_ents([Span(ref, 0, 1, "PER")], missing=[ref[3:4]], default="outside")
    pred = NLP("Ada went to Paris with Acme .")
    pred.ents = [Span(pred, 0, 1, "PER"), Span(pred, 2, 4, "LOC"), Span(pred, 5, 6, "ORG")]
    examples = [Example(pred, ref)]
    theirs = get_ner_prf(examples)
    ours = score_spans(examples)
    _assert_prf_equal(ours, theirs, "ents")
    assert ours["ents_p"] == pytest.approx(0.5)  # "to Paris" is ignored, "Acme" is spurious
    assert ours["ents_per_type"]["LOC"]["p"] == 0.0
    assert ours["ents_muc"]["ACT"] == 2


@pytest.mark.parametrize("seed", range(8))
def test_spans_key_equal_spancat_scorer(seed: int) -> None:
    from spacy.pipeline.spancat import spancat_score

    examples = spans_examples(seed)
    theirs = spancat_score(examples, spans_key="sc")
    assert "spans_sc_p" in theirs
    if theirs["spans_sc_p"] is None:
        pytest.skip("nothing to score in this draw")
    ours = make_spans_scorer(spans_key="sc")(examples)
    assert {k for k in theirs} <= set(ours)
    _assert_prf_equal(ours, theirs, "spans_sc")


def test_spans_key_duplicates_and_missing_groups() -> None:
    """Duplicates count once (spaCy scores sets); a reference without the group is skipped."""
    from spacy.pipeline.spancat import spancat_score

    ref = NLP("Ada Lovelace met Charles Babbage")
    ref.spans["sc"] = [Span(ref, 0, 2, "PER"), Span(ref, 0, 2, "PER"), Span(ref, 3, 5, "PER")]
    pred = NLP("Ada Lovelace met Charles Babbage")
    pred.spans["sc"] = [Span(pred, 0, 2, "PER"), Span(pred, 0, 2, "PER"), Span(pred, 3, 4, "PER")]
    ref2 = NLP("no group here")
    pred2 = NLP("no group here")
    pred2.spans["sc"] = [Span(pred2, 0, 1, "PER")]
    examples = [Example(pred, ref), Example(pred2, ref2)]
    ours = score_spans(examples, spans_key="sc")
    theirs = spancat_score(examples, spans_key="sc")
    _assert_prf_equal(ours, theirs, "spans_sc")
    assert ours["spans_sc_p"] == pytest.approx(0.5)
    assert ours["spans_sc_r_lenient"] == pytest.approx(1.0)


def test_spans_key_empty_spans_like_spacy() -> None:
    """spaCy cannot align an empty predicted span: it is left out (its label listed
    with zeros), and an empty reference span is missed."""
    from spacy.pipeline.spancat import spancat_score

    ref, pred = NLP("a b c d"), NLP("a b c d")
    ref.spans["sc"] = [Span(ref, 1, 1, "X"), Span(ref, 0, 2, "Y")]
    pred.spans["sc"] = [Span(pred, 1, 1, "X"), Span(pred, 0, 2, "Y"), Span(pred, 3, 3, "Z")]
    examples = [Example(pred, ref)]
    ours = score_spans(examples, spans_key="sc")
    _assert_prf_equal(ours, spancat_score(examples, spans_key="sc"), "spans_sc")
    assert (ours["spans_sc_p"], ours["spans_sc_r"]) == pytest.approx((1.0, 0.5))
    assert ours["spans_sc_per_type"]["Z"]["p"] == 0.0


# ---------------------------------------------------------------------------
# None -> 0.0, on purpose


def _flat_values(d: dict) -> list:
    out = []
    for v in d.values():
        out.extend(_flat_values(v) if isinstance(v, dict) else [v])
    return out


@pytest.mark.parametrize("case", ["no_entities", "no_annotation", "no_examples"])
def test_never_none_where_spacy_returns_none(case: str) -> None:
    """spaCy returns None when there is nothing to score; its training loop then drops
    the weighted key. We return 0.0 (and an empty per-type table)."""
    docs = {"no_entities": lambda d: setattr(d, "ents", []), "no_annotation": lambda d: None}
    examples = []
    if case != "no_examples":
        for _ in range(3):
            ref, pred = NLP("Nothing to see here ."), NLP("Nothing to see here .")
            docs[case](ref)
            examples.append(Example(pred, ref))
    assert get_ner_prf(examples)["ents_f"] is None
    ours = score_spans(examples)
    flat = {k: v for k, v in ours.items() if not isinstance(v, dict)}
    assert len(flat) == 12
    assert all(isinstance(v, float) and v == 0.0 for v in flat.values()), flat
    assert ours["ents_per_type"] == {}
    spans = score_spans(examples, spans_key="sc")
    assert spans["spans_sc_f_lenient"] == 0.0


@pytest.mark.parametrize("seed", range(4))
def test_no_key_is_ever_none(seed: int) -> None:
    for examples, kw in ((ents_examples(seed, missing="both"), {}), (spans_examples(seed), {"spans_key": "sc"})):
        ours = score_spans(examples, **kw)
        values = _flat_values(ours)
        assert values and all(v is not None and not (isinstance(v, float) and math.isnan(v)) for v in values)
        json.dumps(ours)  # plain Python numbers, serialisable as spaCy's meta.json needs


# ---------------------------------------------------------------------------
# hand-computed figures


def _hand_examples() -> list[Example]:
    """Key: Ada/PER, Bob/PER, Paris/LOC, Acme/ORG. Response: Ada/PER (correct),
    "Bob in"/PER (partial), Paris/ORG (incorrect: missing + spurious), Acme missing,
    "yesterday"/MISC and "."/MISC spurious."""
    text = "Ada met Bob in Paris yesterday at Acme ."
    ref, pred = NLP(text), NLP(text)
    ref.ents = [Span(ref, 0, 1, "PER"), Span(ref, 2, 3, "PER"), Span(ref, 4, 5, "LOC"), Span(ref, 7, 8, "ORG")]
    pred.ents = [Span(pred, 0, 1, "PER"), Span(pred, 2, 4, "PER"), Span(pred, 4, 5, "ORG"),
                 Span(pred, 5, 6, "MISC"), Span(pred, 8, 9, "MISC")]
    return [Example(pred, ref)]


def test_strict_lenient_average_by_hand() -> None:
    # C = 1, Pa = 1, M = 2 (Acme, Paris/LOC), S = 3 (Paris/ORG, yesterday, .)
    s = score_spans(_hand_examples())
    f = lambda p, r: 2 * p * r / (p + r)  # noqa: E731
    expected = {
        "strict": (1 / 5, 1 / 4, f(1 / 5, 1 / 4)),
        "lenient": (2 / 5, 2 / 4, f(2 / 5, 2 / 4)),
        "average": (3 / 10, 3 / 8, (f(1 / 5, 1 / 4) + f(2 / 5, 2 / 4)) / 2),
    }
    for mode, (p, r, fv) in expected.items():
        assert (s[f"ents_p_{mode}"], s[f"ents_r_{mode}"], s[f"ents_f_{mode}"]) == pytest.approx((p, r, fv)), mode
    assert (s["ents_p"], s["ents_r"]) == pytest.approx((0.2, 0.25))
    per = s["ents_per_type"]
    assert (per["PER"]["p"], per["PER"]["r"], per["PER"]["f_lenient"]) == pytest.approx((0.5, 0.5, 1.0))
    assert per["PER"]["f_average"] == pytest.approx(0.75)
    assert (per["LOC"]["r"], per["ORG"]["p"], per["ORG"]["r"]) == (0.0, 0.0, 0.0)
    assert per["MISC"]["p_lenient"] == 0.0
    assert s["ents_muc"]["COR"] == 1 and s["ents_muc"]["PAR"] == 1 and s["ents_muc"]["INC"] == 1
    assert s["ents_semeval"]["exact"]["COR"] == 2  # Ada and Paris have exact boundaries
    theirs = get_ner_prf(_hand_examples())
    assert (theirs["ents_p"], theirs["ents_r"]) == pytest.approx((0.2, 0.25))


def test_beta_labels_prefix_and_cfg_kwargs() -> None:
    egs = _hand_examples()
    s2 = make_spans_scorer(beta=2.0, prefix="ner")(egs)
    p, r = 0.2, 0.25
    assert s2["ner_f"] == pytest.approx(5 * p * r / (4 * p + r))
    assert "ents_f" not in s2 and "ner_per_type" in s2
    only_per = make_spans_scorer(labels=["PER"])(egs)
    assert set(only_per["ents_per_type"]) == {"PER"}
    assert (only_per["ents_p"], only_per["ents_f_lenient"]) == pytest.approx((0.5, 1.0))
    # spaCy's TrainablePipe.score passes the component's cfg and labels; the config wins
    scorer = make_spans_scorer()
    assert scorer(egs, labels=["PER"], incorrect_spans_key=None) == scorer(egs)


def test_features_make_offset_matches_incorrect() -> None:
    text = "Paris and Paris"
    ref, pred = NLP(text), NLP(text)
    ref.ents = [Span(ref, 0, 1, "LOC", kb_id="Q90"), Span(ref, 2, 3, "LOC", kb_id="Q830149")]
    pred.ents = [Span(pred, 0, 1, "LOC", kb_id="Q90"), Span(pred, 2, 3, "LOC", kb_id="Q90")]
    egs = [Example(pred, ref)]
    assert score_spans(egs)["ents_f"] == 1.0
    with_kb = score_spans(egs, features=["kb_id"])
    assert with_kb["ents_f"] == pytest.approx(0.5)
    assert with_kb["ents_muc"]["INC"] == 1


def test_invalid_arguments_are_rejected() -> None:
    with pytest.raises(ValueError, match="beta"):
        make_spans_scorer(beta=-1.0)
    with pytest.raises(ValueError, match="spans_key"):
        make_spans_scorer(spans_key="")


def test_registered_scorer_builds_from_a_config() -> None:
    nlp = spacy.blank("en")
    nlp.add_pipe("ner", config={"scorer": {"@scorers": "spacy_anno_eval.spans_scorer.v1",
                                          "spans_key": None, "prefix": None}})
    nlp.get_pipe("ner").add_label("PER")
    nlp.initialize()
    scores = nlp.get_pipe("ner").score(_hand_examples())
    assert scores["ents_p"] == pytest.approx(0.2)
    assert "ents_f_lenient" in scores


# ---------------------------------------------------------------------------
# spacy train with the scorer named in configs/ner.cfg

TRAIN_TEXTS = [
    ("Ada Lovelace lives in London .", [(0, 2, "PER"), (4, 5, "LOC")]),
    ("Alan Turing worked in Manchester .", [(0, 2, "PER"), (4, 5, "LOC")]),
    ("Grace Hopper visited Paris yesterday .", [(0, 2, "PER"), (3, 4, "LOC")]),
    ("Acme Corp hired Marie Curie .", [(0, 2, "ORG"), (3, 5, "PER")]),
    ("Google opened an office in Berlin .", [(0, 1, "ORG"), (5, 6, "LOC")]),
    ("Linus Torvalds moved to Portland .", [(0, 2, "PER"), (4, 5, "LOC")]),
    ("Apple sells phones in Tokyo .", [(0, 1, "ORG"), (4, 5, "LOC")]),
    ("Tim Berners-Lee spoke in Geneva .", [(0, 2, "PER"), (4, 5, "LOC")]),
    ("Microsoft bought a company in Dublin .", [(0, 1, "ORG"), (5, 6, "LOC")]),
    ("Barbara Liskov taught in Boston .", [(0, 2, "PER"), (4, 5, "LOC")]),
    ("Amazon built a warehouse near Madrid .", [(0, 1, "ORG"), (5, 6, "LOC")]),
    ("Donald Knuth lives in Stanford .", [(0, 2, "PER"), (4, 5, "LOC")]),
    ("IBM has a lab in Zurich .", [(0, 1, "ORG"), (5, 6, "LOC")]),
    ("Edsger Dijkstra was born in Rotterdam .", [(0, 2, "PER"), (5, 6, "LOC")]),
    ("Intel makes chips in Oregon .", [(0, 1, "ORG"), (4, 5, "LOC")]),
    ("Margaret Hamilton worked for NASA .", [(0, 2, "PER"), (4, 5, "ORG")]),
    ("Siemens is based in Munich .", [(0, 1, "ORG"), (4, 5, "LOC")]),
    ("Katherine Johnson lived in Virginia .", [(0, 2, "PER"), (4, 5, "LOC")]),
    ("Nokia started in Finland .", [(0, 1, "ORG"), (3, 4, "LOC")]),
    ("John McCarthy taught at Stanford .", [(0, 2, "PER"), (4, 5, "ORG")]),
]


def _write_docbin(path: Path, rows: list) -> None:
    nlp = spacy.blank("en")
    docs = []
    for text, ents in rows:
        doc = nlp(text)
        doc.ents = [Span(doc, s, e, lab) for s, e, lab in ents]
        docs.append(doc)
    DocBin(docs=docs).to_disk(path)


@pytest.mark.slow
def test_spacy_train_with_registered_scorer(tmp_path: Path) -> None:
    train, dev, out = tmp_path / "train.spacy", tmp_path / "dev.spacy", tmp_path / "model"
    _write_docbin(train, TRAIN_TEXTS)
    _write_docbin(dev, TRAIN_TEXTS[:8])
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "PYTHONWARNINGS": "ignore"}
    proc = subprocess.run(
        [sys.executable, "-m", "spacy", "train", str(ROOT / "configs" / "ner.cfg"),
         "--paths.train", str(train), "--paths.dev", str(dev), "--output", str(out)],
        capture_output=True, text=True, timeout=180, env=env, cwd=tmp_path,
    )
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    # the console logger shows our extra weighted keys as columns (names cut to 13 characters)
    assert "ENTS_F_LEN" in proc.stdout and "ENTS_F_AVE" in proc.stdout, proc.stdout[-2000:]
    meta = json.loads((out / "model-best" / "meta.json").read_text(encoding="utf8"))
    perf = meta["performance"]
    for key in ("ents_f", "ents_f_lenient", "ents_f_average", "ents_p", "ents_r"):
        assert isinstance(perf[key], float), (key, perf)
        assert 0.0 <= perf[key] <= 1.0
    assert perf["ents_f_lenient"] >= perf["ents_f"]
    # the saved pipeline names our scorer, and loads back offline
    cfg = (out / "model-best" / "config.cfg").read_text(encoding="utf8")
    assert "spacy_anno_eval.spans_scorer.v1" in cfg
    nlp = spacy.load(out / "model-best")
    assert nlp.pipe_names == ["tok2vec", "ner"]
