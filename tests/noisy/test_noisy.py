"""Noisy-text NER evaluation (spacy_anno_eval.noisy) against nerval.

REFERENCE.md 5.7 (teklia-nerval 0.3.3 on the nerval_examples files, thresholds 0.30 and
0.25, the edlib alignment of nerval's tests, the character tags of nerval's README), then
seeded differential tests against teklia-nerval itself on random noisy corpora (its
parser's character labels, edlib's aligned strings, and its scores per type), the spaCy
Doc path, the scorer and the error messages.

Undefined figures follow the package's policy, not nerval's: where nerval prints None
for P, R or F1 (a zero denominator) we give zero_division (0.0 by default) and one
UndefinedFigureWarning; counts of a type absent from one side stay None, as in nerval.
"""

from __future__ import annotations

import contextlib
import io
import logging
import math
import random
import re
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

from spacy_anno_eval.errors import ConfigError, InputError, UndefinedFigureWarning
from spacy_anno_eval.noisy import (
    align_char_tags,
    char_tags_from_spans,
    evaluate_docs,
    evaluate_files,
    parse_bio,
    read_bio,
)
from spacy_anno_eval.pipeline.noisy_scorer import make_noisy_spans_scorer, score_noisy_examples
from tests.conftest import shared_file

# ---------------------------------------------------------------------------
# REFERENCE.md 5.7


def example(name: str) -> Path:
    return shared_file("nerval_examples", f"{name}.bio")


def row(predicted, matched, support, p, r, f):
    return {"predicted": predicted, "matched": matched, "support": support, "p": p, "r": r, "f": f}


THIRD = 1 / 3
NERVAL_ROWS = {
    "ALL": row(3, 1, 3, THIRD, THIRD, THIRD),
    "PER": row(1, 1, 1, 1.0, 1.0, 1.0),
    "LOC": row(None, 0, 1, 0.0, 0.0, 0.0),  # nerval: P None, F1 None (no LOC predicted)
    "DAT": row(1, 0, 1, 0.0, 0.0, 0.0),
    "***": row(1, 0, None, 0.0, 0.0, 0.0),  # nerval: R None, F1 None (no *** in the gold)
}
NESTED_ROWS = {"ALL": row(3, 3, 3, 1.0, 1.0, 1.0), "PER": row(1, 1, 1, 1.0, 1.0, 1.0),
               "LOC": row(2, 2, 2, 1.0, 1.0, 1.0)}
REFERENCE_5_7 = [
    ("tolkien_annot", "tolkien_predict", 0.30,
     {"ALL": row(2, 2, 2, 1.0, 1.0, 1.0), "PER": row(1, 1, 1, 1.0, 1.0, 1.0), "OCC": row(1, 1, 1, 1.0, 1.0, 1.0)}),
    ("tolkien_annot", "tolkien_predict", 0.25,
     {"ALL": row(2, 1, 2, 0.5, 0.5, 0.5), "PER": row(1, 0, 1, 0.0, 0.0, 0.0), "OCC": row(1, 1, 1, 1.0, 1.0, 1.0)}),
    ("nerval_annot", "nerval_predict", 0.30, NERVAL_ROWS),
    ("nerval_annot", "nerval_predict", 0.25, NERVAL_ROWS),
    ("nested", "nested", 0.30, NESTED_ROWS),
    ("nested", "nested", 0.25, NESTED_ROWS),
    ("hugone_annot", "hugone_predict", 0.30, {"ALL": row(1, 1, 1, 1.0, 1.0, 1.0), "PERS": row(1, 1, 1, 1.0, 1.0, 1.0)}),
    ("hugone_annot", "hugone_predict", 0.25, {"ALL": row(1, 0, 1, 0.0, 0.0, 0.0), "PERS": row(1, 0, 1, 0.0, 0.0, 0.0)}),
]


def assert_rows(got: dict, want: dict) -> None:
    assert set(got) == set(want)
    for key, value in want.items():
        if value is None:
            assert got[key] is None, key
        else:
            assert got[key] == pytest.approx(value), key


def table(result: dict) -> dict:
    return {"ALL": result["all"], **result["per_type"]}


#: the one UndefinedFigureWarning of nerval_annot vs nerval_predict: no LOC predicted, no *** in the gold
NERVAL_UNDEFINED = (r"2 ratios with a zero denominator .*: "
                    r"P of LOC \(no predicted entity\), R of \*\*\* \(no gold entity\)")


@contextlib.contextmanager
def undefined_ratios(match: str | None):
    """Expect one UndefinedFigureWarning matching ``match``, or none at all when ``match`` is None."""
    if match is not None:
        with pytest.warns(UndefinedFigureWarning, match=match):
            yield
        return
    with warnings.catch_warnings():
        warnings.simplefilter("error", UndefinedFigureWarning)
        yield


@contextlib.contextmanager
def recorded_undefined(messages: list[str]):
    """Append the message of every UndefinedFigureWarning raised inside to ``messages`` (for loops over random
    cases, where some warn and some do not)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", UndefinedFigureWarning)
        yield
    messages.extend(str(w.message) for w in caught if issubclass(w.category, UndefinedFigureWarning))
    for w in caught:  # anything else goes on to the filters of the test run
        if not issubclass(w.category, UndefinedFigureWarning):
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)


def zero_denominators(messages: list[str]) -> int:
    """How many ratios the (at most one) UndefinedFigureWarning in ``messages`` names: 0 without one."""
    assert len(messages) <= 1, messages  # one warning per call
    return sum(int(re.match(r"(\d+) ratios? with a zero denominator", m).group(1)) for m in messages)


@pytest.mark.parametrize(("annot", "predict", "threshold", "expected"), REFERENCE_5_7,
                         ids=[f"{a}-{t}" for a, _, t, _ in REFERENCE_5_7])
def test_reference_5_7(annot, predict, threshold, expected):
    with undefined_ratios(NERVAL_UNDEFINED if annot == "nerval_annot" else None):
        result = evaluate_files(example(annot), example(predict), threshold)
    got = table(result)
    assert set(got) == set(expected)
    for tag, want in expected.items():
        assert_rows(got[tag], want)


def test_reference_5_7_aligned_strings():
    with pytest.warns(UndefinedFigureWarning, match=NERVAL_UNDEFINED):
        result = evaluate_files(example("nerval_annot"), example("nerval_predict"))
    assert result["alignment"] == [{
        "gold_aligned": "Gérard de -N-erval was bo-rn in Paris in 1808 -.",
        "pred_aligned": "G*rard de *N*erval ----bo*rn in Paris in 1833 *.",
    }]
    al = align_char_tags(read_bio(example("nerval_annot")), read_bio(example("nerval_predict")))
    assert al.gold.text == "Gérard de Nerval was born in Paris in 1808 ."
    assert al.pred.text == "G*rard de *N*erval bo*rn in Paris in 1833 *."
    matched = "".join("-" if g < 0 or p < 0 else "|" if al.gold.text[g] == al.pred.text[p] else "."
                      for g, p in zip(al.gold_index.tolist(), al.pred_index.tolist(), strict=True))
    assert matched == "|.||||||||-|-||||||----||-|||||||||||||||||..|-|"
    assert al.distance == 11


def test_reference_5_7_char_tags():
    tags = read_bio(example("tolkien_annot"))
    assert tags.text == "Tolkien was a writer ."
    assert tags.tags() == ["PER"] * 7 + ["O"] * 7 + ["OCC"] * 6 + ["O"] * 2
    assert tags.counts == {"PER": 1, "OCC": 1}
    pred = read_bio(example("tolkien_predict"))  # nerval's README: 9 PER, 1+3+1 O, 7 OCC, 1+2 O
    assert pred.tags() == ["PER"] * 9 + ["O"] * 5 + ["OCC"] * 7 + ["O"] * 3


def test_entity_table_and_muc():
    result = evaluate_files(example("hugone_annot"), example("hugone_predict"))
    (ent,) = result["entities"]
    assert ent["gold_text"] == "Hugone Montiniaci domino" and ent["pred_text"] == "Hugone Montiniaci"
    assert ent["distance"] == 7 and ent["ratio"] == pytest.approx(7 / 24) and ent["cer"] == ent["ratio"]
    assert ent["matched"] and ent["muc"] == "COR"
    assert (ent["gold_start"], ent["gold_end"], ent["pred_start"], ent["pred_end"]) == (0, 24, 0, 17)

    with pytest.warns(UndefinedFigureWarning, match=NERVAL_UNDEFINED):
        result = evaluate_files(example("nerval_annot"), example("nerval_predict"))
    by_type = {e["type"]: e for e in result["entities"]}
    assert by_type["PER"]["gold_text"] == "Gérard de Nerval" and by_type["PER"]["pred_text"] == "G*rard de *N*erval"
    assert by_type["PER"]["distance"] == 3 and by_type["PER"]["muc"] == "COR"
    # '***' over Paris: another type -> INC; 1833 vs 1808 (2/4 > 0.3) -> PAR
    assert by_type["LOC"]["pred_text"] == "" and by_type["LOC"]["muc"] == "INC"
    assert by_type["DAT"]["pred_text"] == "1833" and by_type["DAT"]["muc"] == "PAR"
    muc = result["muc"]["all"]
    assert {k: muc[k] for k in ("COR", "PAR", "INC", "MIS", "SPU", "POS", "ACT")} == {
        "COR": 1, "PAR": 1, "INC": 1, "MIS": 0, "SPU": 0, "POS": 3, "ACT": 3}
    assert muc["p"] == pytest.approx(1.5 / 3) and muc["r"] == pytest.approx(1.5 / 3)
    assert set(result["muc"]["per_type"]) == {"PER", "LOC", "DAT"}
    macro = result["muc"]["macro"]
    assert macro["r"] == pytest.approx((1.0 + 0.0 + 0.5) / 3)


def test_nested_entity_text():
    result = evaluate_files(example("nested"), example("nested"))
    texts = [(e["type"], e["gold_text"]) for e in result["entities"]]
    assert texts == [("PER", "Louis par la grâce de Dieu roy de France et de"), ("LOC", "France"),
                     ("LOC", "Navarre")]
    tags = read_bio(example("nested"))
    assert tags.bio()[33:41] == ["I-PER", "B-LOC"] + ["I-LOC"] * 5 + ["I-PER"]
    assert tags.bio()[46] == "O"


# ---------------------------------------------------------------------------
# reader


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_blank_lines_and_bioes(tmp_path):
    plain = parse_bio(["Tolkien B-PER", "was O", "a O", "writer B-OCC", ". O"])
    spaced = read_bio(write(tmp_path, "a.bio", "\n\nTolkien B-PER\n\nwas O\na O\n  \nwriter B-OCC\n. O\n\n"))
    assert (spaced.text, spaced.bio()) == (plain.text, plain.bio())
    # an entity continues across a blank line, as in nerval
    across = parse_bio(["Jean B-PER", "", "Valjean I-PER"])
    assert across.text == "Jean Valjean" and across.tags() == ["PER"] * 12 and across.counts == {"PER": 1}
    bioes = parse_bio(["Jean B-PER", "Valjean E-PER", "in O", "Paris S-LOC"])
    bio = parse_bio(["Jean B-PER", "Valjean I-PER", "in O", "Paris B-LOC"])
    assert bioes.bio() == bio.bio() and bioes.counts == bio.counts == {"PER": 1, "LOC": 1}
    # two adjacent entities of one type: the space between them is O
    assert parse_bio(["A B-PER", "B B-PER"]).tags() == ["PER", "O", "PER"]
    assert parse_bio([]) is None and parse_bio(["", "  "]) is None


@pytest.mark.parametrize(("line", "why"), [
    ("Tolkien\tB-PER", "tab-separated"),
    ("Tolkien", "no label"),
    ("Tolkien X-PER", "invalid label"),
    ("Tolkien B-PER NNP", "more than two fields"),
    ("Tolkien  B-PER", "invalid label"),
    ("Tolkien B-", "invalid entity type ''"),
    ("Tolkien B-O", "invalid entity type 'O'"),
])
def test_malformed_line_messages(tmp_path, line, why):
    path = write(tmp_path, "bad.bio", f"The O\n\n{line}\nwas O\n")
    with pytest.raises(InputError) as err:
        read_bio(path)
    message = str(err.value)
    assert message.startswith(f"{path}, line 3: {why}")
    assert repr(line) in message and "TOKEN LABEL" in message


def test_file_errors(tmp_path):
    empty = write(tmp_path, "empty.bio", "\n\n")
    good = write(tmp_path, "good.bio", "Paris B-LOC\n")
    with pytest.raises(InputError, match="empty.bio: no token found"):
        evaluate_files(good, empty)
    with pytest.raises(InputError, match="missing.bio: file not found"):
        evaluate_files(good, tmp_path / "missing.bio")
    for bad in (-0.1, 1.5, "x", None, float("nan"), True):
        with pytest.raises(ConfigError, match="threshold"):
            evaluate_files(good, good, bad)
    for bad in (-1, 2, float("nan"), "x"):
        with pytest.raises(ConfigError, match="zero_division"):
            evaluate_files(good, good, zero_division=bad)


def test_hyphens_and_section_sign(tmp_path):
    """nerval protects hyphens from its gap character; we keep them apart by position."""
    gold = write(tmp_path, "g.bio", "Jean-Paul B-PER\nSartre I-PER\n§ O\n")
    pred = write(tmp_path, "p.bio", "Jean-Pau1 B-PER\nSartre I-PER\n§ O\n")
    result = evaluate_files(gold, pred)
    (ent,) = result["entities"]
    assert ent["gold_text"] == "Jean-Paul Sartre" and ent["pred_text"] == "Jean-Pau1 Sartre"
    assert ent["distance"] == 1 and result["all"]["matched"] == 1


def test_import_is_light():
    code = "import sys, spacy_anno_eval.noisy.evaluate; print('edlib' in sys.modules, 'spacy' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "False"]
    # the scorer module spaCy imports when it resolves its scorers names its defaults without numpy
    code = "import sys, spacy_anno_eval.pipeline.noisy_scorer; print('numpy' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False"]


def test_undefined_ratios_are_zero_division_with_one_warning():
    """A zero denominator gives zero_division (nerval prints None) and one UndefinedFigureWarning naming it."""
    with pytest.warns(UndefinedFigureWarning, match=r"2 ratios with a zero denominator .*P of LOC.*R of \*\*\*"):
        result = evaluate_files(example("nerval_annot"), example("nerval_predict"))
    assert result["zero_division"] == 0.0
    with pytest.warns(UndefinedFigureWarning):
        ones = evaluate_files(example("nerval_annot"), example("nerval_predict"), zero_division=1.0)
    assert ones["per_type"]["LOC"]["p"] == 1.0 and ones["per_type"]["LOC"]["r"] == 0.0
    assert ones["per_type"]["LOC"]["f"] == 0.0  # R is defined (0), so F = 2PR / (P + R) = 0
    assert ones["per_type"]["***"]["r"] == 1.0 and ones["per_type"]["***"]["p"] == 0.0
    assert ones["all"] == result["all"]  # every denominator of ALL is > 0
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        evaluate_files(example("tolkien_annot"), example("tolkien_predict"))


# ---------------------------------------------------------------------------
# seeded random noisy corpora

CHARS = "abcdefghijklmnopqrstuvwxyzéèàçABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-'.,*"
TYPES = ("PER", "LOC", "ORG", "DAT")


def make_gold(rng: random.Random, n_sent: int, scheme: str = "BIO", nested: float = 0.0,
              messy: float = 0.0) -> list[list[tuple[str, str]]]:
    """Sentences of (token, tag): entities of 1-4 tokens; ``nested`` puts an entity of another type
    at the second token of a 3+ token entity (nerval's nested form); ``messy`` replaces tags at random
    (I- after O, I- of another type)."""
    sents = []
    for _ in range(n_sent):
        n = rng.randint(3, 14)
        words = ["".join(rng.choice(CHARS) for _ in range(rng.randint(1, 9))) for _ in range(n)]
        tags = ["O"] * n
        k = 0
        while k < n:
            if rng.random() < 0.3:
                ln = min(rng.randint(1, 4), n - k)
                t = rng.choice(TYPES)
                tags[k:k + ln] = ["B-" + t] + ["I-" + t] * (ln - 1)
                if ln >= 3 and rng.random() < nested:
                    tags[k + 1] = "B-" + rng.choice([x for x in TYPES if x != t])
                elif scheme == "BIOES":
                    if ln == 1:
                        tags[k] = "S-" + t
                    else:
                        tags[k + ln - 1] = "E-" + t
                k += ln + 1
            else:
                k += 1
        for j in range(n):
            if rng.random() < messy:
                tags[j] = rng.choice(["O", "B-" + rng.choice(TYPES), "I-" + rng.choice(TYPES)])
        sents.append(list(zip(words, tags, strict=True)))
    return sents


def corrupt_word(rng: random.Random, word: str, p: float) -> str:
    out = []
    for ch in word:
        u = rng.random()
        if u < p / 3:
            out.append(rng.choice(CHARS))  # substitution
        elif u < 2 * p / 3:
            pass  # deletion
        elif u < p:
            out.extend((ch, rng.choice(CHARS)))  # insertion
        else:
            out.append(ch)
    return "".join(out) or rng.choice(CHARS)


def make_pred(rng: random.Random, gold: list, p: float = 0.1, tag_noise: float = 0.1) -> list:
    """Corrupt characters with probability ``p``, split / merge / lose tokens, and drop, retype or add
    entities with probability ``tag_noise``."""
    sents = []
    for sent in gold:
        out: list[tuple[str, str]] = []
        for w, t in sent:
            w = corrupt_word(rng, w, p)
            u = rng.random()
            if t != "O" and u < tag_noise:
                t = "O"
            elif t != "O" and u < 2 * tag_noise:
                t = t[:2] + rng.choice(TYPES)
            elif t == "O" and u < tag_noise / 2:
                t = "B-" + rng.choice(TYPES)
            v = rng.random()
            if v < p / 2 and len(w) > 1:
                cut = rng.randint(1, len(w) - 1)
                out += [(w[:cut], t), (w[cut:], "O" if t == "O" else "I-" + t[2:])]
            elif v < p and out:
                pw, pt = out.pop()
                out.append((pw + w, pt))
            else:
                out.append((w, t))
        if rng.random() < p / 2 and len(out) > 1:
            out.pop(rng.randrange(len(out)))
        sents.append(out)
    return sents


def write_bio(path: Path, sents: list) -> Path:
    lines: list[str] = []
    for sent in sents:
        lines.extend(f"{w} {t}" for w, t in sent)
        lines.append("")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def random_pair(seed: int, tmp_path: Path, stress: bool = False) -> tuple[Path, Path, float] | None:
    rng = random.Random(seed)
    scheme = rng.choice(["BIO", "BIOES"])
    nested = rng.choice([0.5, 0.9]) if stress else rng.choice([0.0, 0.0, 0.3])
    messy = rng.choice([0.2, 0.5]) if stress else 0.0
    gold = make_gold(rng, rng.randint(1, 6), scheme, nested, messy)
    first = next((t for sent in gold for _, t in sent if t != "O"), "B")
    if first[0] not in "BSU":  # nerval fails (UnboundLocalError) when the gold text starts inside an entity
        return None
    pred = make_pred(rng, gold, p=rng.choice([0.0, 0.05, 0.15, 0.3]), tag_noise=rng.choice([0.0, 0.1, 0.3]))
    threshold = rng.choice([0.3, 0.25, 0.5, 0.1])
    return write_bio(tmp_path / f"g{seed}.bio", gold), write_bio(tmp_path / f"p{seed}.bio", pred), threshold


def nerval_scores(gold: Path, pred: Path, threshold: float) -> dict:
    from nerval.evaluate import run

    logging.disable(logging.INFO)  # nerval logs every file it parses
    try:
        with contextlib.redirect_stdout(io.StringIO()):  # and prints its table
            return run(gold, pred, threshold, True)
    finally:
        logging.disable(logging.NOTSET)


def assert_same_as_nerval(ours: dict, theirs: dict, context: str) -> None:
    got = table(ours)
    assert set(got) == set(theirs), context
    for tag, want in theirs.items():
        for mine, name in (("predicted", "predicted"), ("matched", "matched"), ("support", "Support"),
                           ("p", "P"), ("r", "R"), ("f", "F1")):
            a, b = got[tag][mine], want[name]
            if b is None and mine in ("p", "r", "f"):
                b = 0.0  # a zero denominator: nerval's None is our zero_division
            assert (a is None) == (b is None), f"{context} {tag} {mine}: {a} vs {b}"
            assert a is None or math.isclose(a, b), f"{context} {tag} {mine}: {a} vs {b}"


@pytest.mark.parametrize("stress", [False, True], ids=["bio-bioes-nested", "stress-nested-messy"])
def test_differential_against_nerval(tmp_path, stress):
    pytest.importorskip("nerval")
    compared = 0
    for seed in range(150):
        pair = random_pair(seed, tmp_path, stress)
        if pair is None:
            continue
        gold, pred, threshold = pair
        messages: list[str] = []
        with recorded_undefined(messages):
            ours = evaluate_files(gold, pred, threshold)
        theirs = nerval_scores(gold, pred, threshold)
        assert_same_as_nerval(ours, theirs, f"seed {seed} t={threshold}")
        # one UndefinedFigureWarning names every P and R that nerval leaves as None
        undefined = sum(row[name] is None for row in theirs.values() for name in ("P", "R"))
        assert zero_denominators(messages) == undefined, f"seed {seed}: {messages}"
        compared += 1
    assert compared > 100


def test_differential_parser_and_alignment(tmp_path):
    """Character labels equal nerval's parse_bio (prefixes E/S/L/U read as I/B), aligned strings equal
    edlib.getNiceAlignment, as nerval uses them."""
    pytest.importorskip("nerval")
    import edlib
    from nerval.parse import parse_bio as nerval_parse

    def norm(label: str) -> str:
        return label if label == "O" else ("B" if label[0] in "BSU" else "I") + label[1:]

    for seed in range(80):
        pair = random_pair(seed, tmp_path, stress=seed % 2 == 1)
        if pair is None:
            continue
        gold, pred, _ = pair
        tags = []
        for path in (gold, pred):
            parsed = nerval_parse(path.read_text(encoding="utf-8").strip().splitlines())
            ours = read_bio(path)
            assert ours.text == parsed["words"].replace("§", "-"), f"seed {seed} {path.name}"
            assert ours.bio() == [norm(x) for x in parsed["labels"]], f"seed {seed} {path.name}"
            assert ours.counts == {k: v for k, v in parsed["entity_count"].items() if k != "ALL"}
            tags.append(ours)
        al = align_char_tags(*tags)
        res = edlib.align(tags[0].text, tags[1].text, task="path")
        nice = edlib.getNiceAlignment(res, tags[0].text, tags[1].text)
        assert al.gold_aligned == nice["query_aligned"] and al.pred_aligned == nice["target_aligned"]


def test_differential_large_file(tmp_path):
    """One file of 300 sentences (about 25 000 characters), as in the benchmark."""
    pytest.importorskip("nerval")
    rng = random.Random(7)
    gold_s = make_gold(rng, 300, nested=0.2)
    gold = write_bio(tmp_path / "g.bio", gold_s)
    pred = write_bio(tmp_path / "p.bio", make_pred(rng, gold_s, p=0.1, tag_noise=0.1))
    for threshold in (0.3, 0.25):
        ours = evaluate_files(gold, pred, threshold, max_alignment_chars=0)
        assert ours["alignment"] == [None]
        assert_same_as_nerval(ours, nerval_scores(gold, pred, threshold), f"large t={threshold}")


# ---------------------------------------------------------------------------
# spaCy Docs and the scorer


def make_doc(vocab, tokens: list[tuple[str, str]], key: str | None = None):
    """A Doc whose text is the tokens joined by single spaces, with BIO(ES) tags as doc.ents or a span group."""
    from spacy.tokens import Doc, Span

    words = [w for w, _ in tokens]
    doc = Doc(vocab, words=words, spaces=[True] * (len(words) - 1) + [False])
    spans, start = [], None
    for i, (_, tag) in enumerate([*tokens, ("", "O")]):
        if start is not None and (tag == "O" or tag[0] in "BSU"):
            spans.append(Span(doc, start, i, tokens[start][1][2:]))
            start = None
        if tag != "O" and tag[0] in "BSU":
            start = i
    if key is None:
        doc.ents = spans
    else:
        doc.spans[key] = spans
    return doc


def test_docs_with_different_texts():
    spacy = pytest.importorskip("spacy")
    vocab = spacy.blank("en").vocab
    gold = make_doc(vocab, [("Tolkien", "B-PER"), ("was", "O"), ("a", "O"), ("writer", "B-OCC"), (".", "O")])
    pred = make_doc(vocab, [("Tolkieene", "B-PER"), ("xas", "O"), ("writear", "B-OCC"), (",.", "O")])
    assert gold.text != pred.text
    for threshold, matched in ((0.30, 2), (0.25, 1)):
        result = evaluate_docs([gold], [pred], threshold=threshold)
        assert result["all"]["matched"] == matched and result["all"]["support"] == 2
        assert result["per_type"]["OCC"] == row(1, 1, 1, 1.0, 1.0, 1.0)
        files = evaluate_files(example("tolkien_annot"), example("tolkien_predict"), threshold)
        assert {k: v for k, v in result.items()} == files
    both = evaluate_docs([gold, gold], [pred, gold], threshold=0.25)
    assert both["all"] == row(4, 3, 4, 0.75, 0.75, 0.75)
    assert [e["doc"] for e in both["entities"]] == [0, 0, 1, 1]
    assert both["alignment"][1] == {"gold_aligned": gold.text, "pred_aligned": gold.text}


def repair(sents: list) -> list:
    """Valid IOB2: an I- tag that does not continue an entity of its type begins one."""
    out, prev = [], "O"
    for sent in sents:
        fixed = []
        for w, t in sent:
            if t[0] in "IE" and prev[2:] != t[2:]:
                t = "B" + t[1:]
            fixed.append((w, t))
            prev = t
        out.append(fixed)
    return out


def test_docs_equal_files_on_random_corpora(tmp_path):
    """Docs built from random BIO files give the file path's result (same text, same tags)."""
    spacy = pytest.importorskip("spacy")
    vocab = spacy.blank("en").vocab
    for seed in range(30):
        rng = random.Random(1000 + seed)
        gold_s = make_gold(rng, rng.randint(1, 5), rng.choice(["BIO", "BIOES"]))
        pred_s = repair(make_pred(rng, gold_s, p=0.15, tag_noise=0.2))
        flat_g = [tok for sent in gold_s for tok in sent]
        flat_p = [tok for sent in pred_s for tok in sent]
        from_files: list[str] = []
        from_docs: list[str] = []
        with recorded_undefined(from_files):
            files = evaluate_files(write_bio(tmp_path / "g.bio", gold_s), write_bio(tmp_path / "p.bio", pred_s), 0.3)
        with recorded_undefined(from_docs):
            docs = evaluate_docs([make_doc(vocab, flat_g)], [make_doc(vocab, flat_p)])
        assert docs == files, seed
        assert from_docs == from_files, seed  # the same undefined ratios, warned the same way


def test_docs_nested_spans_and_errors():
    spacy = pytest.importorskip("spacy")
    vocab = spacy.blank("en").vocab
    tokens = [(line.split()[0], line.split()[1]) for line in example("nested").read_text(encoding="utf-8").split("\n")
              if line]
    from spacy.tokens import Doc, Span

    doc = Doc(vocab, words=[w for w, _ in tokens], spaces=[True] * (len(tokens) - 1) + [False])
    doc.spans["sc"] = [Span(doc, 0, 11, "PER"), Span(doc, 8, 9, "LOC"), Span(doc, 11, 12, "LOC")]
    tags = char_tags_from_spans(doc.text, [(s.start_char, s.end_char, s.label_) for s in doc.spans["sc"]])
    assert tags.bio() == read_bio(example("nested")).bio()
    result = evaluate_docs([doc], [doc], key_set="spans:sc")
    assert result == evaluate_files(example("nested"), example("nested"))

    with pytest.raises(InputError, match=r"span \[6, 15\): span 'LOC' crosses span 'PER' \[0, 12\)"):
        char_tags_from_spans("Louis par la grâce", [(0, 12, "PER"), (6, 15, "LOC")], "gold doc 0")
    with pytest.raises(InputError, match="shares its start"):
        char_tags_from_spans("Louis par", [(0, 9, "PER"), (0, 5, "LOC")])
    with pytest.raises(InputError, match="2 gold docs but 1 predicted"):
        evaluate_docs([doc, doc], [doc])


def test_scorer_on_examples():
    spacy = pytest.importorskip("spacy")
    from spacy.training import Example

    vocab = spacy.blank("en").vocab
    gold = make_doc(vocab, [("Gérard", "B-PER"), ("de", "I-PER"), ("Nerval", "I-PER"), ("was", "O"), ("born", "O"),
                            ("in", "O"), ("Paris", "B-LOC"), ("in", "O"), ("1808", "B-DAT"), (".", "O")])
    pred = make_doc(vocab, [("G*rard", "B-PER"), ("de", "I-PER"), ("*N*erval", "I-PER"), ("bo*rn", "O"),
                            ("in", "O"), ("Paris", "B-***"), ("in", "O"), ("1833", "B-DAT"), ("*.", "O")])
    examples = [Example(pred, gold)]
    with pytest.warns(UndefinedFigureWarning, match=NERVAL_UNDEFINED):  # the same text as nerval's example
        scores = score_noisy_examples(examples)
    assert scores["noisy_ents_p"] == pytest.approx(THIRD) and scores["noisy_ents_f"] == pytest.approx(THIRD)
    per_type = scores["noisy_ents_per_type"]
    assert per_type["LOC"] == {"p": 0.0, "r": 0.0, "f": 0.0, "predicted": 0, "matched": 0, "support": 1}
    assert per_type["PER"]["f"] == 1.0 and set(per_type) == {"PER", "LOC", "DAT", "***"}
    assert scores["noisy_ents_muc"]["COR"] == 1
    assert all(isinstance(scores[f"noisy_ents_{k}"], float) for k in "prf")

    scorer = make_noisy_spans_scorer(threshold=0.3)
    with pytest.warns(UndefinedFigureWarning, match=NERVAL_UNDEFINED):
        assert scorer(examples, labels=["ignored"]) == scores
    with pytest.warns(UndefinedFigureWarning, match=NERVAL_UNDEFINED):
        assert make_noisy_spans_scorer(threshold=0.5)(examples)["noisy_ents_r"] == pytest.approx(2 / 3)  # 1833 ~ 1808

    gold_sc = make_doc(vocab, [("Paris", "B-LOC")], key="sc")
    pred_sc = make_doc(vocab, [("Pari5", "B-LOC")], key="sc")
    spans_scores = make_noisy_spans_scorer(spans_key="sc")([Example(pred_sc, gold_sc)])
    assert spans_scores["noisy_spans_sc_f"] == 1.0
    with pytest.warns(UndefinedFigureWarning, match=r"P of ALL \(no predicted entity\), R of ALL \(no gold entity\)"):
        empty = score_noisy_examples([Example(make_doc(vocab, [("x", "O")]), make_doc(vocab, [("y", "O")]))])
    assert empty["noisy_ents_p"] == 0.0 and empty["noisy_ents_per_type"] == {}
    with pytest.raises(ConfigError, match="spans_key"):
        make_noisy_spans_scorer(spans_key="")


def test_scorer_registered():
    spacy = pytest.importorskip("spacy")
    try:
        factory = spacy.registry.scorers.get("spacy_anno_eval.noisy_spans_scorer.v1")
    except Exception:  # catalogue raises RegistryError when the entry point is not installed yet
        pytest.skip("spacy_anno_eval.noisy_spans_scorer.v1 is not registered in this install")
    assert factory is make_noisy_spans_scorer


# ---------------------------------------------------------------------------
# the threshold's boundary: nerval 0.3.3's code (<=, our default) against its README ("< 0.3")


def test_an_entity_exactly_at_the_threshold_scores_both_ways(tmp_path):
    """3 substitutions in a 10-character entity: 3 / 10 == 0.3 exactly (as floats too)."""
    from typer.testing import CliRunner

    from spacy_anno_eval.cli.app import app

    assert 3 / 10 == 0.3
    gold = tmp_path / "gold.bio"
    pred = tmp_path / "pred.bio"
    gold.write_text("Abcdefghij B-PER\nsaid O\n", encoding="utf8")
    pred.write_text("Abcdefgxyz B-PER\nsaid O\n", encoding="utf8")
    inclusive = evaluate_files(gold, pred)
    assert inclusive["boundary"] == "inclusive"
    assert inclusive["entities"][0]["distance"] == 3
    assert inclusive["all"]["matched"] == 1 and inclusive["all"]["f"] == 1.0
    exclusive = evaluate_files(gold, pred, boundary="exclusive")
    assert exclusive["boundary"] == "exclusive"
    assert exclusive["all"]["matched"] == 0 and exclusive["all"]["f"] == 0.0
    # below the threshold both ways
    assert evaluate_files(gold, pred, threshold=0.31, boundary="exclusive")["all"]["matched"] == 1
    with pytest.raises(ConfigError, match="boundary"):
        evaluate_files(gold, pred, boundary="<=")

    runner = CliRunner()
    for boundary, matched in (("inclusive", 1), ("exclusive", 0)):
        out = tmp_path / f"{boundary}.json"
        result = runner.invoke(app, ["noisy", str(gold), str(pred), "--boundary", boundary, "--json", str(out)])
        assert result.exit_code == 0, result.output
        assert json_load(out)["all"]["matched"] == matched
    assert runner.invoke(app, ["noisy", str(gold), str(pred), "--boundary", "strict"]).exit_code == 2


def test_nerval_uses_the_inclusive_boundary(tmp_path):
    """The default follows nerval 0.3.3's code: its ``match`` accepts the same pair at exactly 0.3."""
    nerval_evaluate = pytest.importorskip("nerval.evaluate")
    assert nerval_evaluate.match("Abcdefghij", "Abcdefgxyz", 0.3)


def test_scorer_boundary():
    spacy = pytest.importorskip("spacy")
    from spacy.training import Example

    vocab = spacy.blank("en").vocab
    gold = make_doc(vocab, [("Abcdefghij", "B-PER"), ("said", "O")])
    pred = make_doc(vocab, [("Abcdefgxyz", "B-PER"), ("said", "O")])
    examples = [Example(pred, gold)]
    assert make_noisy_spans_scorer()(examples)["noisy_ents_f"] == 1.0
    assert make_noisy_spans_scorer(boundary="exclusive")(examples)["noisy_ents_f"] == 0.0
    with pytest.raises(ConfigError, match="boundary"):
        make_noisy_spans_scorer(boundary="open")


def json_load(path):
    import json

    return json.loads(path.read_text())
