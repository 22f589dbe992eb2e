"""spacy_anno_eval.metrics against seqeval 1.2: seqeval's own cases (adapted), then random tags compared
with the installed seqeval, then what seqeval lacks and where we differ on purpose."""

from __future__ import annotations

import itertools
import random
import warnings

import numpy as np
import pytest

seqeval_metrics = pytest.importorskip("seqeval.metrics")
seqeval_scheme = pytest.importorskip("seqeval.scheme")

from spacy_anno_eval import metrics  # noqa: E402
from spacy_anno_eval.errors import UndefinedFigureWarning  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::spacy_anno_eval.errors.UndefinedFigureWarning")

SCHEMES = {"IOB1": "IOB", "IOB2": "IOB", "IOE1": "IOE", "IOE2": "IOE", "IOBES": "IOBES", "BILOU": "BILOU"}


def entities(sentence, scheme=None, suffix=False):
    """Our entities of one sentence as (type, start, end exclusive)."""
    start, end, type_id, types = metrics._entities([sentence], scheme, suffix)
    return sorted((types[t], int(s), int(e)) for s, e, t in zip(start, end, type_id, strict=True))


# --- seqeval's cases, in our words -------------------------------------------------------------------------


def test_a_chunk_started_by_i_counts_in_default_mode_and_not_in_strict_iob2():
    gold, guess = [["B-ORG", "I-ORG"]], [["I-ORG", "I-ORG"]]
    for average in ("micro", "macro", "weighted"):
        assert metrics.f1_score(gold, guess, average=average) == 1
        assert metrics.f1_score(gold, guess, average=average, mode="strict", scheme=metrics.IOB2) == 0
    assert list(metrics.f1_score(gold, guess, average=None)) == [1]
    assert list(metrics.f1_score(gold, guess, average=None, mode="strict", scheme="IOB2")) == [0]


def test_three_types_one_missed_and_one_spurious():
    gold, guess = [["B-A", "B-B", "O", "B-A"]], [["O", "B-B", "B-C", "B-A"]]
    p, r, f, s = metrics.precision_recall_fscore_support(gold, guess, mode="strict", scheme=metrics.IOB2)
    assert np.allclose(p, [1, 1, 0]) and np.allclose(r, [0.5, 1, 0]) and np.allclose(f, [2 / 3, 1, 0])
    assert list(s) == [2, 1, 0]
    expected = {"micro": (2 / 3, 2 / 3, 2 / 3, 3), "macro": (2 / 3, 0.5, 5 / 9, 3), "weighted": (1, 2 / 3, 7 / 9, 3)}
    for average, want in expected.items():
        assert np.allclose(metrics.precision_recall_fscore_support(gold, guess, average=average), want)
    beta_inf = {"micro": (2 / 3, 2 / 3, 2 / 3, 3), "macro": (2 / 3, 0.5, 0.5, 3), "weighted": (1, 2 / 3, 2 / 3, 3)}
    for average, want in beta_inf.items():
        got = metrics.precision_recall_fscore_support(gold, guess, average=average, beta=np.inf)
        assert np.allclose(got, want)
    report = metrics.classification_report(gold, guess, output_dict=True)
    assert report["A"] == {"precision": 1.0, "recall": 0.5, "f1-score": 2 / 3, "support": 2}
    assert report["C"] == {"precision": 0.0, "recall": 0.0, "f1-score": 0.0, "support": 0}
    assert report["weighted avg"]["f1-score"] == pytest.approx(7 / 9)
    text = metrics.classification_report(gold, guess)
    lines = text.splitlines()
    assert lines[0].split() == ["precision", "recall", "f1-score", "support"]
    assert lines[2].split() == ["A", "1.00", "0.50", "0.67", "2"]
    assert lines[-1].split() == ["weighted", "avg", "1.00", "0.67", "0.78", "3"]
    assert text.endswith("\n") and len(lines[-1]) == len("weighted avg") + 1 + 4 * 10


def test_bare_and_suffix_tags_and_the_token_level_functions():
    assert entities(["O", "O", "O", "B-MISC", "I-MISC", "I-MISC", "O", "B-PER", "I-PER"]) == [
        ("MISC", 3, 6), ("PER", 7, 9)]
    assert entities(["O", "MISC-B", "MISC-I", "O", "PER-B"], suffix=True) == [("MISC", 1, 3), ("PER", 4, 5)]
    assert entities(["O", "B", "I", "O", "B"]) == [("_", 1, 3), ("_", 4, 5)]
    gold = [["O", "O", "O", "B-MISC", "I-MISC", "O", "B-ORG"], ["B-PER", "I-PER", "O", "B-PER"]]
    guess = [["O", "O", "B-MISC", "I-MISC", "I-MISC", "O", "O"], ["B-PER", "I-PER", "O", "B-MISC"]]
    assert metrics.performance_measure(gold, guess) == {"TP": 3, "FP": 3, "FN": 1, "TN": 4}
    assert metrics.accuracy_score(gold, guess) == pytest.approx(7 / 11)


@pytest.mark.parametrize(("gold", "guess"), [([["O"]], [[]]), ([[]], [["O"]]), ([["B"], []], [["B"]])])
def test_sequences_of_different_lengths_are_a_value_error(gold, guess):
    with pytest.raises(ValueError, match="inconsistent"):
        metrics.f1_score(gold, guess)


def test_bad_settings_are_value_errors():
    with pytest.raises(ValueError, match="beta"):
        metrics.precision_recall_fscore_support([[]], [[]], beta=-0.1)
    with pytest.raises(ValueError, match="average"):
        metrics.precision_recall_fscore_support([[]], [[]], average="mega")
    with pytest.raises(TypeError):
        metrics.f1_score(["B-PER"], ["B-PER"])


def test_undefined_figures_warn_and_weighted_with_no_support_is_zero():
    with pytest.warns(UndefinedFigureWarning):
        metrics.f1_score([[]], [[]], average="micro")
    with pytest.warns(UndefinedFigureWarning):
        metrics.precision_recall_fscore_support([["B-PER"]], [["B-Test"]], average="macro", mode="strict",
                                                scheme="IOB2")
    assert metrics.precision_recall_fscore_support([["O"]], [["O"]], average="weighted", mode="strict",
                                                   scheme="IOB2") == (0.0, 0.0, 0.0, 0)


def all_sequences(scheme, length):
    letters = SCHEMES[scheme]
    tags = ["O"] + [f"{p}-{t}" for p in letters if p != "O" for t in ("PER", "ORG")]
    return itertools.chain.from_iterable(itertools.product(tags, repeat=n) for n in range(1, length + 1))


@pytest.mark.parametrize("scheme", list(SCHEMES))
def test_strict_entities_are_seqeval_tokens_entities_for_every_short_sequence(scheme):
    """seqeval's test_scheme.py lists cases per scheme; here every sequence of up to 4 tags."""
    cls = getattr(seqeval_scheme, scheme)
    for seq in all_sequences(scheme, 4):
        theirs = sorted((e.tag, e.start, e.end) for e in seqeval_scheme.Tokens(list(seq), cls).entities)
        assert entities(list(seq), scheme) == theirs, seq


@pytest.mark.parametrize("scheme", list(SCHEMES))
def test_default_entities_are_seqeval_get_entities_for_every_short_sequence(scheme):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # seqeval warns on L-/U- tags ("seems not to be NE tag")
        for seq in all_sequences(scheme, 4):
            theirs = sorted((t, s, e + 1) for t, s, e in seqeval_metrics.sequence_labeling.get_entities(list(seq)))
            assert entities(list(seq)) == theirs, seq


# --- random comparison with the installed seqeval ----------------------------------------------------------


def random_corpus(rng, letters, n_sent, suffix=False, bare=False):
    types = ["PER", "ORG", "LOC"]

    def tag():
        p = rng.choice("O" + letters)
        if p == "O":
            return "O"
        if bare and rng.random() < 0.2:
            return p
        t = rng.choice(types)
        return f"{t}-{p}" if suffix else f"{p}-{t}"

    lengths = [rng.randint(0, 8) for _ in range(n_sent)]
    return ([[tag() for _ in range(n)] for n in lengths], [[tag() for _ in range(n)] for n in lengths])


def same(ours, theirs):
    if isinstance(theirs, tuple):
        return all(same(a, b) for a, b in zip(ours, theirs, strict=True))
    return np.allclose(np.asarray(ours, dtype=float), np.asarray(theirs, dtype=float), rtol=0, atol=1e-12,
                       equal_nan=True)


def warned(function, *args, **kwargs):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = function(*args, **kwargs)
    undefined = [w for w in caught if "ill-defined" in str(w.message) or w.category is UndefinedFigureWarning]
    return result, bool(undefined)


@pytest.mark.parametrize("seed", range(60))
def test_random_tags_give_seqeval_figures_and_reports(seed):
    rng = random.Random(seed)
    scheme = rng.choice(list(SCHEMES))
    suffix = rng.random() < 0.25
    gold, guess = random_corpus(rng, SCHEMES[scheme], rng.randint(1, 6), suffix, bare=not suffix and seed % 5 == 0)
    mode = rng.choice([None, "strict"])
    cls = getattr(seqeval_scheme, scheme) if mode else None
    weight = [1.0] * len(gold) if rng.random() < 0.3 else None
    for zd in ("warn", 0, 1):
        for average in (None, "micro", "macro", "weighted"):
            for ours_f, theirs_f in ((metrics.precision_score, seqeval_metrics.precision_score),
                                     (metrics.recall_score, seqeval_metrics.recall_score),
                                     (metrics.f1_score, seqeval_metrics.f1_score)):
                kw = {"average": average, "suffix": suffix, "mode": mode, "zero_division": zd, "sample_weight": weight}
                theirs, their_warning = warned(theirs_f, gold, guess, scheme=cls, **kw)
                if average == "macro" and np.isnan(theirs):  # no type at all: seqeval gives NaN, we zero_division
                    assert metrics.f1_score(gold, guess, **kw) == metrics._zd_value(zd)
                    continue
                ours, our_warning = warned(ours_f, gold, guess, scheme=scheme if mode else None, **kw)
                assert same(ours, theirs), (ours_f.__name__, kw)
                assert our_warning == their_warning, (ours_f.__name__, kw)
        kw = {"suffix": suffix, "mode": mode, "zero_division": zd, "sample_weight": weight}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                theirs_text = seqeval_metrics.classification_report(gold, guess, digits=3, scheme=cls, **kw)
            except ValueError:  # no entity anywhere: seqeval cannot size the table, nor can we
                with pytest.raises(ValueError):
                    metrics.classification_report(gold, guess, digits=3, scheme=cls, **kw)
                continue
            assert metrics.classification_report(gold, guess, digits=3, scheme=cls, **kw) == theirs_text
            theirs_dict = seqeval_metrics.classification_report(gold, guess, output_dict=True, scheme=cls, **kw)
            ours_dict = metrics.classification_report(gold, guess, output_dict=True, scheme=cls, **kw)
        assert ours_dict.keys() == theirs_dict.keys()
        for row, values in theirs_dict.items():
            assert all(same(ours_dict[row][k], v) for k, v in values.items()), row
    assert metrics.accuracy_score(gold, guess) == seqeval_metrics.accuracy_score(gold, guess) if sum(
        map(len, gold)) else True
    assert metrics.performance_measure(gold, guess) == seqeval_metrics.performance_measure(gold, guess)


# --- what seqeval lacks, and the chosen differences --------------------------------------------------------


def test_lenient_and_average_measures_count_an_overlap_of_the_same_type():
    gold = [["O", "O", "B-MISC", "I-MISC", "B-MISC", "O", "O"], ["B-PER", "I-PER", "O"]]
    guess = [["O", "O", "B-MISC", "I-MISC", "I-MISC", "I-MISC", "O"], ["B-PER", "I-PER", "O"]]
    # strict: MISC 2-4 is partial to key MISC 2-3, key MISC 4 missed; PER correct
    assert metrics.precision_score(gold, guess) == 0.5
    assert metrics.precision_score(gold, guess, measure="lenient") == 1.0
    assert metrics.recall_score(gold, guess, measure="lenient") == pytest.approx(2 / 3)
    assert metrics.precision_score(gold, guess, measure="average") == 0.75
    report = metrics.classification_report(gold, guess, output_dict=True, measure="lenient")
    assert report["MISC"]["precision"] == 1.0 and report["MISC"]["support"] == 2
    with pytest.raises(ValueError, match="measure"):
        metrics.f1_score(gold, guess, measure="loose")


def test_semeval_report_gives_muc_and_the_four_schemas():
    gold = [["B-PER", "I-PER", "O", "B-LOC"]]
    guess = [["B-PER", "O", "O", "B-ORG"]]
    out = metrics.semeval_report(gold, guess)["overall"]
    assert out["strict"]["COR"] == 0 and out["strict"]["INC"] == 2
    assert out["exact"]["COR"] == 1 and out["partial"]["PAR"] == 1 and out["type"]["COR"] == 1
    assert out["muc"]["PAR"] == 1 and out["muc"]["INC"] == 1 and out["muc"]["precision"] == 0.25
    assert set(out["gate"]) == {"strict", "lenient", "average"}
    assert metrics.semeval_report(gold, guess)["by_type"].keys() == {"LOC", "ORG", "PER"}


def test_chosen_differences_from_seqeval():
    with pytest.raises(ValueError, match="zero_division"):
        metrics.f1_score([["B-A"]], [["B-A"]], zero_division=0.5)
    with pytest.raises(ValueError, match="mode"):
        metrics.f1_score([["B-A"]], [["B-A"]], mode="lenient")
    with pytest.raises(ValueError, match="Invalid token"):
        metrics.f1_score([["X-A"]], [["B-A"]], mode="strict", scheme="IOB2")
    with pytest.raises(ValueError, match="Invalid token"):
        metrics.f1_score([["E-A"]], [["B-A"]], mode="strict", scheme="IOB2")
    with pytest.warns(UndefinedFigureWarning):
        assert metrics.f1_score([["O"]], [["O"]], average="macro") == 0.0
    assert metrics.f1_score((("B-A", "I-A"),), [["B-A", "I-A"]]) == 1.0  # tuples are sentences too
    report = metrics.classification_report([["B-A"]], [["B-A"]], output_dict=True)
    assert type(report["A"]["precision"]) is float and type(report["A"]["support"]) is int


def test_importing_the_module_loads_no_numpy():
    import subprocess
    import sys

    code = "import sys, spacy_anno_eval.metrics; print('numpy' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True).stdout.strip() == "False"


# --- settings refused once, at the entry (issue 26) -----------------------------------------------------------


@pytest.mark.parametrize("beta", [float("nan"), np.float64("nan"), -0.5, "2", True, None])
def test_every_function_taking_beta_refuses_nan_negative_and_strings(beta):
    from spacy_anno_eval.errors import ConfigError

    gold, guess = [["B-PER", "I-PER", "O"]], [["B-PER", "O", "O"]]
    with pytest.raises(ConfigError, match="beta must be a number >= 0"):
        metrics.precision_recall_fscore_support(gold, guess, beta=beta, average="micro")
    with pytest.raises(ConfigError, match="beta must be a number >= 0"):
        metrics.semeval_report(gold, guess, beta=beta)


def test_beta_inf_is_recall_in_semeval_report_too():
    gold, guess = [["B-PER", "O", "B-LOC"]], [["B-PER", "O", "O"]]
    muc = metrics.semeval_report(gold, guess, beta=float("inf"))["overall"]["muc"]
    assert muc["f-score"] == muc["recall"] == 0.5


@pytest.mark.parametrize("zero_division", [float("nan"), np.float64("nan"), 0.5, 2, -1, True, "1", None])
def test_zero_division_outside_warn_0_1_is_a_config_error(zero_division):
    from spacy_anno_eval.errors import ConfigError

    for call in (metrics.f1_score, metrics.precision_score, metrics.recall_score, metrics.classification_report,
                 metrics.semeval_report):
        with pytest.raises(ConfigError, match="zero_division must be 'warn', 0 or 1"):
            call([["B-A"]], [["O"]], zero_division=zero_division)


@pytest.mark.parametrize("zero_division", [0, 1, 0.0, 1.0, np.int64(1), "warn"])
def test_zero_division_values_seqeval_takes_still_work(zero_division):
    want = 0.0 if zero_division in (0, "warn") else 1.0
    assert metrics.precision_score([["B-A"]], [["O"]], zero_division=zero_division) == want
