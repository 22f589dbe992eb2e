"""Discontinuous bracket scoring: EVALB's measures over constituents whose yields may have gaps.

Source: van Cranenburgh's disco-dop ``discodop eval`` (van Cranenburgh,
Scha & Bod 2016, "Data-Oriented Parsing with Discontinuous Constituents and
Function Tags", *JLM* 4(1), section 6.1; documentation "eval") and Maier's
evalb-lcfrs, both "designed to behave like EVALB for regular parse trees,
with a natural extension to the discontinuous case": a constituent is a label
and the *set* of words it dominates (:meth:`~.phrase.PhraseTree.constituents`),
and the brackets of two trees are compared as multisets. The results equal
``discodop eval gold test proper.prm`` on ``../shared/data/treebank/disc_*``
(``tests/reference/test_disco_dop.py``).

Per sentence, with an EVALB parameter file (:class:`~.evalb.EvalbParams`;
disco-dop's ``proper.prm`` removes the root and all punctuation):

1. *Words removed*: a word whose **gold** tag is in ``DELETE_LABEL`` (also
   matched with ``(``/``)`` written ``[``/``]``, as disco-dop escapes export
   tags), or which is in ``DELETE_WORD``, or (``DELETE_ROOT_PRETERMS 1``) which
   hangs directly from the gold root. The gold decides for both trees, so the
   two keep the same words. The kept words are numbered again from 0, so a
   constituent interrupted only by punctuation is contiguous.
2. *Brackets*: every node that dominates a kept word, labelled with its
   category without function tags (``NP-SBJ`` -> ``NP``, ``NP=2`` -> ``NP``;
   a label starting with ``-`` such as ``-NONE-`` is left whole), ``EQ_LABEL``
   classes mapped to one member; nodes labelled with a ``DELETE_LABEL`` are
   not counted (their words stay). The virtual root of NEGRA/TIGER is never a
   bracket. ``LABELED 0`` compares yields only. ``DISC_ONLY 1`` keeps the
   discontinuous brackets only, and counts only the sentences that have one.
3. ``matched`` = the size of the multiset intersection; ``recall =
   matched / gold``, ``precision = matched / test``, ``F = 2PR / (P + R)``;
   *exact match*: the two multisets are equal; *POS accuracy*: the share of
   kept words whose tags (function tags stripped) are equal.

Sentences pair by id (NEGRA ``#BOS n``, TIGER ``<s id>``) when the two files share ids, else by position.
As in EVALB (never a crash; disco-dop itself stops): a sentence whose test
side has no words is *skipped*; one whose kept words differ in number or
spelling (``EQ_WORD`` aside), or that is missing from the test, is an
*error*; both are counted, listed with a message and left out of the
figures. A test sentence without a gold one is an :class:`InputError`.
Sentence length (``CUTOFF_LEN``) counts every gold word whose tag is not in
``DELETE_LABEL_FOR_LENGTH`` (punctuation included), as disco-dop does.

Definitional differences, on purpose:

- disco-dop without a parameter file counts its ``ROOT`` node as a bracket
  (which always matches); here the virtual root is never one;
- evalb-lcfrs divides POS accuracy by all gold words, punctuation included
  (90.79 on ``disc_alpino3`` where disco-dop and this module give 98.57).

>>> from spacy_anno_eval.trees.negra import parse_negra
>>> gold = parse_negra("#BOS 1\\nWho\\tW\\t--\\t--\\t500\\nsleeps\\tV\\t--\\tHD\\t501\\nnow\\tA\\t--\\t--\\t500\\n"
...                    "#500\\tVP\\t--\\t--\\t501\\n#501\\tS\\t--\\t--\\t0\\n#EOS 1")
>>> test = parse_negra("#BOS 1\\nWho\\tW\\t--\\t--\\t501\\nsleeps\\tV\\t--\\tHD\\t501\\nnow\\tA\\t--\\t--\\t500\\n"
...                    "#500\\tVP\\t--\\t--\\t501\\n#501\\tS\\t--\\t--\\t0\\n#EOS 1")
>>> result = evaluate(gold, test)
>>> result.all.matched, result.all.gold_brackets, result.all.disc_gold, round(result.figures()["fmeasure"], 2)
(1, 2, 1, 50.0)
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from ..errors import InputError
from ..figures import json_safe, warn_zero_division
from .evalb import ERROR, OK, SKIP, STATUSES, EvalbParams
from .phrase import ROOT, PhraseTree, is_discontinuous

Bracket = tuple[str, tuple[int, ...]]


def strip_functions(label: str) -> str:
    """disco-dop's ``functions='remove'``: cut at the first ``-``, then at the first ``=``, when not at the start.

    >>> strip_functions("NP-SBJ-1"), strip_functions("PP=2"), strip_functions("-NONE-"), strip_functions("$(")
    ('NP', 'PP', '-NONE-', '$(')
    """
    for char in "-=":
        cut = label.find(char)
        if cut > 0:
            label = label[:cut]
    return label


class _Classes:
    """``EQ_LABEL`` / ``EQ_WORD`` pairs closed into classes; each member maps to the class's smallest."""

    def __init__(self, pairs: Sequence[tuple[str, str]]):
        parent: dict[str, str] = {}

        def find(x: str) -> str:
            while parent.setdefault(x, x) != x:
                x = parent[x]
            return x

        for a, b in pairs:
            ra, rb = find(a), find(b)
            if ra != rb:
                parent[max(ra, rb)] = min(ra, rb)
        self.map = {x: find(x) for x in parent}

    def __call__(self, x: str) -> str:
        return self.map.get(x, x)


@dataclass(frozen=True)
class Prepared:
    """What is scored of one tree: kept words and tags, and the bracket multiset."""

    words: tuple[str, ...]
    tags: tuple[str, ...]
    brackets: Counter


def prepare(tree: PhraseTree, keep: Sequence[bool], params: EvalbParams, labels: _Classes) -> Prepared:
    """The words kept (``keep``, decided on the gold tree), renumbered, and the counted brackets."""
    index, n = {}, 0
    for i, k in enumerate(keep):
        if k:
            index[i] = n
            n += 1
    deleted = set(params.delete_labels)
    deleted_classes = {labels(d) for d in deleted}
    brackets: Counter = Counter()
    for node in tree.nodes:
        ys = tuple(index[i] for i in tree.yields()[node.id] if i in index)
        if not ys:
            continue
        label = strip_functions(node.label)
        if label in deleted or labels(label) in deleted_classes:
            continue
        if params.disc_only and not is_discontinuous(ys):
            continue
        brackets[(labels(label) if params.labeled else "", ys)] += 1
    words = tuple(w for w, k in zip(tree.words, keep, strict=True) if k)
    tags = tuple(strip_functions(t) for t, k in zip(tree.tags, keep, strict=True) if k)
    return Prepared(words, tags, brackets)


def kept_words(gold: PhraseTree, params: EvalbParams) -> list[bool]:
    """Which words of the gold sentence are scored (rule 1 of the module docstring)."""
    deleted = set(params.delete_labels)
    words = set(params.delete_words)
    out = []
    for word, tag, parent in zip(gold.words, gold.tags, gold.word_parents, strict=True):
        tag = strip_functions(tag)
        gone = (tag in deleted or tag.replace("(", "[").replace(")", "]") in deleted or word in words
                or (params.delete_root_preterms and parent == ROOT))
        out.append(not gone)
    return out


@dataclass(frozen=True)
class SentenceScore:
    """One sentence: status (0 ok, 1 error, 2 skip), the bracket counts, and the unmatched brackets."""

    id: str
    length: int
    status: int
    matched: int = 0
    gold_brackets: int = 0
    test_brackets: int = 0
    disc_gold: int = 0
    disc_test: int = 0
    words: int = 0
    correct_tags: int = 0
    exact: bool = False
    gold_only: tuple[Bracket, ...] = ()
    test_only: tuple[Bracket, ...] = ()
    message: str = ""

    def to_dict(self) -> dict[str, Any]:
        out = {k: v for k, v in asdict(self).items() if k not in ("gold_only", "test_only")}
        out["status_name"] = STATUSES[self.status]
        out["recall"] = 100.0 * self.matched / self.gold_brackets if self.gold_brackets else 0.0
        out["precision"] = 100.0 * self.matched / self.test_brackets if self.test_brackets else 0.0
        out["gold_only"] = [format_bracket(b) for b in self.gold_only]
        out["test_only"] = [format_bracket(b) for b in self.test_only]
        return out


def format_bracket(bracket: Bracket) -> str:
    """disco-dop's notation: ``VP[0,2-4]`` (0-based kept-word positions, runs joined by ``-``)."""
    label, positions = bracket
    runs: list[list[int]] = []
    for p in positions:
        if runs and p == runs[-1][-1] + 1:
            runs[-1].append(p)
        else:
            runs.append([p])
    return f"{label}[{','.join(str(r[0]) if len(r) == 1 else f'{r[0]}-{r[-1]}' for r in runs)}]"


@dataclass
class DiscoTotals:
    """Sums over a set of sentences (all; length <= ``CUTOFF_LEN``); ``sentences`` counts every pair,
    ``scored`` those in the figures (valid, and under ``DISC_ONLY`` with a discontinuous bracket)."""

    sentences: int = 0
    error: int = 0
    skip: int = 0
    scored: int = 0
    matched: int = 0
    gold_brackets: int = 0
    test_brackets: int = 0
    disc_gold: int = 0
    disc_test: int = 0
    exact: int = 0
    words: int = 0
    correct_tags: int = 0
    longest: int = 0

    def add(self, row: SentenceScore, disc_only: bool) -> None:
        self.sentences += 1
        if row.status == ERROR:
            self.error += 1
            return
        if row.status == SKIP:
            self.skip += 1
            return
        self.longest = max(self.longest, row.length)
        if not disc_only or row.gold_brackets or row.test_brackets:
            self.scored += 1
            self.exact += row.exact
        for name in ("matched", "gold_brackets", "test_brackets", "disc_gold", "disc_test", "words",
                     "correct_tags"):
            setattr(self, name, getattr(self, name) + getattr(row, name))

    def figures(self, zero_division: float = 0.0) -> tuple[dict[str, float], list[str]]:
        undefined: list[str] = []

        def pct(name: str, num: int, den: int) -> float:
            if den:
                return 100.0 * num / den
            undefined.append(name)
            return 100.0 * zero_division

        r = pct("recall", self.matched, self.gold_brackets)
        p = pct("precision", self.matched, self.test_brackets)
        return ({"recall": r, "precision": p, "fmeasure": 2 * p * r / (p + r) if p + r else 0.0,
                 "exact_match": pct("exact_match", self.exact, self.scored),
                 "pos_accuracy": pct("pos_accuracy", self.correct_tags, self.words)}, undefined)

    def to_dict(self, zero_division: float = 0.0) -> dict[str, Any]:
        figures, undefined = self.figures(zero_division)
        return {**figures, "undefined": undefined, "counts": asdict(self)}


@dataclass
class DiscoResult:
    """Per-sentence scores and the two summaries (all; length <= ``params.cutoff_len``)."""

    params: EvalbParams
    sentences: list[SentenceScore] = field(default_factory=list)
    all: DiscoTotals = field(default_factory=DiscoTotals)
    cutoff: DiscoTotals = field(default_factory=DiscoTotals)
    zero_division: float = 0.0

    def figures(self, which: str = "all") -> dict[str, float]:
        """Recall, precision, F, exact match and POS accuracy in percent (``which``: ``all`` or ``cutoff``)."""
        totals = self.all if which == "all" else self.cutoff
        return totals.figures(self.zero_division)[0]

    def to_dict(self) -> dict[str, Any]:
        return json_safe({"tool": "discontinuous EVALB (disco-dop eval)", "scale": "percent",
                          "params": self.params.to_dict(), "all": self.all.to_dict(self.zero_division),
                          f"len_le_{self.params.cutoff_len}": self.cutoff.to_dict(self.zero_division),
                          "sentences": [s.to_dict() for s in self.sentences]})

    def format_report(self) -> str:
        """disco-dop's per-sentence table and summary, as text (``--rsl``)."""
        out = ["   Sentence                 Matched   Brackets            Corr POS",
               "  ID Length  Recall  Precis Bracket   gold   cand  Words  POS  Accur.",
               " " + "_" * 68]
        for s in self.sentences:
            d = s.to_dict()
            if s.status != OK:
                out.append(f"{s.id:>4} {s.length:6d}  {STATUSES[s.status]}: {s.message}")
                continue
            acc = 100.0 * s.correct_tags / s.words if s.words else 0.0
            out.append(f"{s.id:>4} {s.length:6d}  {d['recall']:6.2f}  {d['precision']:6.2f}   {s.matched:5d}  "
                       f"{s.gold_brackets:5d}  {s.test_brackets:5d}  {s.words:5d}  {s.correct_tags:4d}  {acc:6.2f}")
        cut = self.params.cutoff_len
        a, c = self.figures("all"), self.figures("cutoff")
        out += ["", f"{' Summary '.center(27, '_')} <= {cut} ______ ALL"]
        rows = [("number of sentences", self.cutoff.sentences, self.all.sentences),
                ("error / skip sentences", f"{self.cutoff.error}/{self.cutoff.skip}",
                 f"{self.all.error}/{self.all.skip}"),
                ("longest sentence", self.cutoff.longest, self.all.longest),
                ("gold brackets (disc.)", f"{self.cutoff.gold_brackets} ({self.cutoff.disc_gold})",
                 f"{self.all.gold_brackets} ({self.all.disc_gold})"),
                ("cand. brackets (disc.)", f"{self.cutoff.test_brackets} ({self.cutoff.disc_test})",
                 f"{self.all.test_brackets} ({self.all.disc_test})")]
        out += [f"{name + ':':<27}{x!s:>6}     {y!s:>6}" for name, x, y in rows]
        label = "labeled" if self.params.labeled else "unlabeled"
        for name, key in ((f"{label} recall", "recall"), (f"{label} precision", "precision"),
                          (f"{label} f-measure", "fmeasure"), ("exact match", "exact_match"),
                          ("pos accuracy", "pos_accuracy")):
            out.append(f"{name + ':':<27}{c[key]:6.2f}     {a[key]:6.2f}")
        return "\n".join(out) + "\n"


def score_pair(gold: PhraseTree, test: PhraseTree, params: EvalbParams, labels: _Classes, words: _Classes
               ) -> SentenceScore:
    """One sentence pair, by the rules of the module docstring."""
    deleted_for_length = set(params.delete_labels_for_length)
    length = sum(strip_functions(t) not in deleted_for_length for t in gold.tags)
    base = {"id": gold.sent_id, "length": length}
    if not test.words:
        return SentenceScore(status=SKIP, message="empty test sentence", **base)
    if len(test.words) != len(gold.words):
        return SentenceScore(status=ERROR, message=f"length unmatch ({len(gold.words)}|{len(test.words)})",
                             **base)
    for i, (gw, tw) in enumerate(zip(gold.words, test.words, strict=True)):
        if words(gw) != words(tw):
            return SentenceScore(status=ERROR, message=f"words unmatch at {i + 1} ({gw}|{tw})", **base)
    keep = kept_words(gold, params)
    g, t = prepare(gold, keep, params, labels), prepare(test, keep, params, labels)
    common = g.brackets & t.brackets
    return SentenceScore(
        status=OK, matched=sum(common.values()), gold_brackets=sum(g.brackets.values()),
        test_brackets=sum(t.brackets.values()),
        disc_gold=sum(n for (_, ys), n in g.brackets.items() if is_discontinuous(ys)),
        disc_test=sum(n for (_, ys), n in t.brackets.items() if is_discontinuous(ys)),
        words=len(g.tags), correct_tags=sum(a == b for a, b in zip(g.tags, t.tags, strict=True)),
        exact=g.brackets == t.brackets, gold_only=tuple(sorted((g.brackets - t.brackets).elements())),
        test_only=tuple(sorted((t.brackets - g.brackets).elements())), **base)


def pair_sentences(gold: Sequence[PhraseTree], test: Sequence[PhraseTree], source: str = ""
                   ) -> list[tuple[PhraseTree, PhraseTree | None]]:
    """Gold sentences with their test sentence (``None`` when the test lacks it): by id when every sentence
    has a distinct id and some ids are shared, else by position (two formats that number sentences
    differently, TIGER's ``s1`` against a line number). A test sentence without a gold one is an :class:`InputError`."""
    at = f"{source}: " if source else ""
    gold_ids = [t.sent_id for t in gold]
    test_ids = [t.sent_id for t in test]
    distinct = all(gold_ids) and all(test_ids) and len(set(gold_ids)) == len(gold_ids) and \
        len(set(test_ids)) == len(test_ids)
    gold_set = set(gold_ids)
    if distinct and gold_set & set(test_ids):
        by_id = {t.sent_id: t for t in test}
        extra = [i for i in test_ids if i not in gold_set]
        if extra:
            raise InputError(f"{at}test sentence(s) {', '.join(extra[:5])}{' ...' if len(extra) > 5 else ''} have "
                             f"no gold sentence with that id; gold ids run {gold_ids[0]} .. {gold_ids[-1]}")
        return [(g, by_id.get(g.sent_id)) for g in gold]
    if len(test) > len(gold):
        raise InputError(f"{at}the test holds {len(test)} sentences and the gold {len(gold)}; files that share no "
                         "sentence ids pair sentences by position, so the test may not hold more")
    return [(g, test[i] if i < len(test) else None) for i, g in enumerate(gold)]


def evaluate(gold: Sequence[PhraseTree], test: Sequence[PhraseTree], params: EvalbParams | None = None, *,
             zero_division: float = 0.0, source: str = "") -> DiscoResult:
    """Score ``test`` against ``gold`` (see the module docstring). Undefined summary ratios are
    ``zero_division`` with one :class:`~spacy_anno_eval.errors.UndefinedFigureWarning`. A side without a
    sentence with words is an :class:`InputError` (nothing to compare; :func:`~.checks.refuse_empty`)."""
    from .checks import refuse_empty_pair

    refuse_empty_pair(gold, test, source or "disco-dop eval", sides=("gold", "test"))
    params = params or EvalbParams()
    labels, words = _Classes(params.eq_labels), _Classes(params.eq_words)
    result = DiscoResult(params, zero_division=zero_division)
    for g, t in pair_sentences(gold, test, source):
        if t is None:
            length = sum(strip_functions(x) not in set(params.delete_labels_for_length) for x in g.tags)
            row = SentenceScore(g.sent_id, length, ERROR, message="no test sentence with this id")
        else:
            row = score_pair(g, t, params, labels, words)
        result.sentences.append(row)
        result.all.add(row, params.disc_only)
        if row.length <= params.cutoff_len:
            result.cutoff.add(row, params.disc_only)
    undefined = [f"{name} (all)" for name in result.all.figures(zero_division)[1]]
    warn_zero_division(undefined, zero_division)
    return result


def evaluate_files(gold: str | os.PathLike, test: str | os.PathLike,
                   params: EvalbParams | str | os.PathLike | None = None, *, tree_format: str = "auto",
                   zero_division: float = 0.0) -> DiscoResult:
    """Read two treebanks (:func:`~.readers.read_phrase_trees`: NEGRA export, TIGER-XML, discbracket, Penn
    brackets) and score them."""
    from .readers import read_phrase_trees

    if params is not None and not isinstance(params, EvalbParams):
        params = EvalbParams.read(params)
    return evaluate(read_phrase_trees(gold, tree_format), read_phrase_trees(test, tree_format), params,
                    zero_division=zero_division, source=f"{Path(gold)} / {Path(test)}")


__all__ = ["DiscoResult", "DiscoTotals", "SentenceScore", "evaluate", "evaluate_files", "format_bracket",
           "kept_words", "pair_sentences", "prepare", "score_pair", "strip_functions"]

#: the names under which :mod:`spacy_anno_eval.trees` exports this module's entry points
evaluate_disco = evaluate
evaluate_disco_files = evaluate_files
__all__ += ["evaluate_disco", "evaluate_disco_files"]
