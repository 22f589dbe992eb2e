"""EVALB: PARSEVAL bracket scoring with parameter files, as Sekine & Collins's ``evalb`` computes it.

Sources: the PARSEVAL measures (Black et al. 1991, "A procedure for
quantitatively comparing the syntactic coverage of English grammars") as
implemented by EVALB (Satoshi Sekine & Michael Collins 1997, README and
``evalb.c``; the 2006 release, ``EVALB20060307``, by David Ellis with the
F-measure line and ``QUOTE_LABEL``). This module reproduces EVALB's
``sample.rsl`` figure for figure (``tests/trees/test_evalb.py``), and EVALB
2006's output for its bug-fix sample with ``new.prm``
(``tests/trees/test_evalb_2006.py``).

Per sentence (gold = key, test = response), after the parameter file's
deletions (below):

- ``recall = matched / gold brackets``, ``precision = matched / test
  brackets`` (in percent; 0 when the denominator is 0, as EVALB prints);
- a bracket matches a test bracket with the same span (and, when
  ``LABELED 1``, an equal label); each bracket matches at most once, gold
  brackets taking the first free test bracket in reading order;
- ``crossing`` = the number of test brackets that cross some gold bracket
  (one starts strictly inside the other and ends strictly outside it);
- ``tagging accuracy = correct tags / words`` (tags compared as labels).

Summary (EVALB's ``=== Summary ===``, for all sentences and for those whose
length is at most ``CUTOFF_LEN``): brackets and tags are summed over the
valid sentences (status 0) before dividing; F = 2PR / (P + R); complete
match = sentences with ``matched == gold == test``; average crossing =
crossings / valid sentences; no crossing and 2-or-less crossing = share of
valid sentences.

Parameter file (one ``KEYWORD value`` per line; a line starting with ``#``, or shorter than 3 characters,
is skipped). Every keyword EVALB 2006 knows (``evalb.c``, ``set_param``) is read:

- ``DEBUG n`` (read; EVALB's debug printout is not reproduced), ``MAX_ERROR n`` (EVALB stops at its
  (n + 2)-th error sentence: it compares the count before adding one, with ``>``), ``CUTOFF_LEN n`` (40),
  ``LABELED 0|1`` (1);
- ``DELETE_LABEL X``: a preterminal tagged ``X`` is removed with its word (it takes no position); a phrase
  labelled ``X`` (after the functional tags are stripped, ``NP-SBJ-1`` -> ``NP``, ``PP=2`` -> ``PP``) is not
  counted, its children are;
- ``DELETE_LABEL_FOR_LENGTH X``: preterminals not counted in the sentence length (the gold sentence's);
- ``QUOTE_LABEL X`` (EVALB 2006): a tag that a misplaced quotation mark may carry; see *Quotes* below;
- ``EQ_LABEL A B`` / ``EQ_WORD A B``: labels / words taken as equal, in both directions;
- disco-dop's additions (its ``proper.prm``): ``DELETE_WORD w`` removes the word ``w`` with its preterminal
  (punctuation matched by word); ``DISC_ONLY`` and ``DELETE_ROOT_PRETERMS`` apply to discontinuous treebanks
  (:mod:`~.disco`) and are refused here when 1; ``LA``, ``TED``, ``DEP`` are accepted only as 0.

*Quotes* (``QUOTE_LABEL``; EVALB 2006: README, "Bug fix and additional functionality for evalb", David
Ellis, January 2006, and ``evalb.c``'s ``fix_quote`` and ``reinsert_term``). A parser may tag a quotation
mark as something ``DELETE_LABEL`` does not remove (``(CD ")``, ``(POS ')``) where the gold tags it ``````
or ``''``, which it removes, or the other way round. The two sentences then keep different numbers of words,
and EVALB 1997 scored the pair as an error ("Length unmatch"). EVALB 2006 repairs this: when (and only when)
the kept words differ in number, every preterminal whose tag is a ``QUOTE_LABEL`` and whose word is ``'``,
``"`` or ``/`` is a *quote term*, known by the number of kept words before it. For each test quote term, in
order, and each gold quote term at the same position with another tag: when one of the two tags is removed
and the other is not, the removed term is put back (reinserted) into its sentence at that position; the
brackets around it grow by one word, those after it move by one, and so do the later quote terms of that
sentence (the reinserted one too, as ``evalb.c`` counts). The numbers of words are then compared again
(still different: an error). A reinserted quotation mark is scored as any word: in the brackets, the word
comparison and the tagging accuracy (gold ``````` against test ``CD``: a wrong tag). The sentence length of
``CUTOFF_LEN`` does not change. Two departures, where ``evalb.c`` has no defined behaviour: more than 20
quote terms in a sentence (its ``MAX_QUOTE_TERM``, past which it writes beyond its arrays) are all used, and
a term that ``DELETE_WORD`` (not EVALB's) removes counts as removed. ``QUOTE_LABEL`` does nothing in
:mod:`~.disco`, where the gold's tags decide the removals on both sides, so the mismatch it repairs cannot
arise.

Brackets that cover no word (after deletions) are not counted. A sentence is
*skipped* (status 2) when the test sentence has no words, and an *error*
(status 1) when the two have different numbers of words or a word differs
(``EQ_WORD`` aside); both are counted and reported, never scored.

>>> from spacy_anno_eval.trees.brackets import parse_brackets
>>> gold = parse_brackets("(S (A (P this)) (B (Q is) (A (R a) (T test))))")
>>> test = parse_brackets("(S (A (P this)) (B (Q is) (C (R a) (T test))))")
>>> row = evaluate(gold, test).sentences[0]
>>> row.matched, row.gold_brackets, row.test_brackets, row.recall
(3, 4, 4, 75.0)
"""

from __future__ import annotations

import os
from bisect import bisect_right
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, fields
from functools import lru_cache
from typing import Any

from ..errors import ConfigError, InputError
from ..figures import json_safe, warn_zero_division
from .brackets import BracketTree, Constituent, read_brackets
from .evalb_params import KEYWORDS, EvalbParams

#: status of a sentence, as EVALB numbers them
OK, ERROR, SKIP = 0, 1, 2
STATUSES = {OK: "ok", ERROR: "error", SKIP: "skip"}
STYLES = ("2006", "1997")

#: the words a quote term may have (EVALB 2006, ``is_quote_term``)
QUOTE_WORDS = ("'", '"', "/")


# ---------------------------------------------------------------- bracket extraction


@lru_cache(maxsize=8192)
def strip_function_tags(label: str) -> str:
    """EVALB's label trimming: everything from the first ``-`` or ``=`` goes (``NP-SBJ-1`` -> ``NP``).

    >>> strip_function_tags("NP-SBJ-1"), strip_function_tags("PP=2"), strip_function_tags("-NONE-")
    ('NP', 'PP', '')
    """
    cut = min((i for i in (label.find("-"), label.find("=")) if i >= 0), default=len(label))
    return label[:cut]


@dataclass(frozen=True)
class Extracted:
    """What EVALB scores of one sentence: the kept words and tags, the counted brackets (as
    :class:`~.brackets.Constituent` s, labels trimmed), and the length (for ``CUTOFF_LEN``)."""

    words: tuple[str, ...]
    tags: tuple[str, ...]
    brackets: tuple[Constituent, ...]
    length: int


@dataclass
class _Quote:
    """A quote term (EVALB 2006's ``s_term_ind``): its word and tag, ``index`` (kept words before it: its
    position once kept), ``bracket`` (brackets opened before it), ``ends`` (the brackets open around it) and
    whether the deletions removed it."""

    word: str
    tag: str
    index: int
    bracket: int
    ends: tuple[int, ...]
    removed: bool


@dataclass
class _Sentence:
    """One side of a sentence pair as EVALB holds it before scoring (``read_line``): the kept words and tags,
    every bracket as written (raw label, start and end in kept-word positions, preorder), the quote terms and
    the length. Mutable: :func:`fix_quote` reinserts quote terms into it."""

    words: list[str]
    tags: list[str]
    labels: list[str]
    starts: list[int]
    ends: list[int]
    quotes: list[_Quote]
    length: int


def _read(tree: BracketTree, params: EvalbParams) -> _Sentence:
    """``tree`` as EVALB reads it with ``params`` (words removed, positions renumbered, quote terms noted)."""
    deleted = set(params.delete_labels)
    gone_words = set(params.delete_words)
    keep = [tag not in deleted and word not in gone_words for tag, word in zip(tree.tags, tree.words, strict=True)]
    before = [0]  # kept words before each raw position
    for k in keep:
        before.append(before[-1] + k)
    quotes = []
    if params.quote_labels:
        quote_tags = set(params.quote_labels)
        raw_starts = [b.start for b in tree.brackets]  # non-decreasing: brackets are in preorder
        for p, (word, tag) in enumerate(zip(tree.words, tree.tags, strict=True)):
            if tag in quote_tags and word in QUOTE_WORDS:
                opened = bisect_right(raw_starts, p)  # brackets opened before the word
                around = tuple(k for k in range(opened) if tree.brackets[k].end > p)
                quotes.append(_Quote(word, tag, before[p], opened, around, not keep[p]))
    return _Sentence(words=[w for w, k in zip(tree.words, keep, strict=True) if k],
                     tags=[t for t, k in zip(tree.tags, keep, strict=True) if k],
                     labels=[b.label for b in tree.brackets], starts=[before[b.start] for b in tree.brackets],
                     ends=[before[b.end] for b in tree.brackets], quotes=quotes,
                     length=sum(tag not in params.delete_labels_for_length for tag in tree.tags))


def _reinsert(sentence: _Sentence, quote: _Quote) -> None:
    """EVALB 2006's ``reinsert_term``: put ``quote`` back at its position; the brackets opened after it move by
    one word, those open around it grow by one."""
    sentence.words.insert(quote.index, quote.word)
    sentence.tags.insert(quote.index, quote.tag)
    for k in range(quote.bracket, len(sentence.starts)):
        sentence.starts[k] += 1
        sentence.ends[k] += 1
    for k in quote.ends:
        sentence.ends[k] += 1


def fix_quote(gold: _Sentence, test: _Sentence) -> None:
    """EVALB 2006's ``fix_quote`` (see *Quotes* in the module docstring): for each test quote term, in order,
    and each gold quote term at its position with another tag, reinsert the one of the two that the deletions
    removed when the other was kept; the later quote terms of that side (the reinserted one included, as
    ``evalb.c`` counts) move by one."""
    for i, tq in enumerate(test.quotes):
        at = tq.index
        for j, gq in enumerate(gold.quotes):
            if gq.index != at or gq.tag == tq.tag:
                continue
            if gq.removed and not tq.removed:
                _reinsert(gold, gq)
                for later in gold.quotes[j:]:
                    later.index += 1
            elif tq.removed and not gq.removed:
                _reinsert(test, tq)
                for later in test.quotes[i:]:
                    later.index += 1


def _finish(sentence: _Sentence, params: EvalbParams) -> Extracted:
    """The brackets EVALB counts (``massage_data``): not empty, labels trimmed, deleted labels left out."""
    deleted = set(params.delete_labels)
    # a phrase label that EQ_LABEL makes equal to a deleted one is deleted too (EVALB compares with it)
    dropped = deleted | {b for a, b in params.eq_labels if a in deleted} | {a for a, b in params.eq_labels
                                                                             if b in deleted}
    brackets = []
    for raw, start, end in zip(sentence.labels, sentence.starts, sentence.ends, strict=True):
        if start == end:
            continue
        label = strip_function_tags(raw)
        if label in dropped:
            continue
        brackets.append(Constituent(label, tuple(range(start, end))))
    return Extracted(tuple(sentence.words), tuple(sentence.tags), tuple(brackets), sentence.length)


def extract(tree: BracketTree, params: EvalbParams) -> Extracted:
    """The words, tags and brackets EVALB scores in ``tree`` (see the module docstring for the rules; the
    quote terms of ``QUOTE_LABEL`` are repaired for a pair of sentences only, in :func:`score_sentence`).

    >>> from spacy_anno_eval.trees.brackets import parse_brackets
    >>> tree = parse_brackets("(TOP (S (NP-SBJ (PRP It)) (VP (VBZ is)) (, ,) (-NONE- *)))")[0]
    >>> params = EvalbParams(delete_labels=("TOP", ",", "-NONE-"), delete_labels_for_length=("-NONE-",))
    >>> e = extract(tree, params)
    >>> e.words, e.length, [(c.label, c.positions) for c in e.brackets]
    (('It', 'is'), 3, [('S', (0, 1)), ('NP', (0,)), ('VP', (1,))])
    """
    return _finish(_read(tree, params), params)


# ---------------------------------------------------------------- results


def _pct(num: float, den: float) -> float:
    return 100.0 * num / den if den else 0.0


@dataclass(frozen=True)
class SentenceResult:
    """One line of EVALB's table. ``words`` is 0 for error and skip sentences (EVALB 2006);
    ``gold_words`` is the gold sentence's kept words whatever the status (what EVALB 1997 printed)."""

    id: int
    length: int
    status: int
    matched: int = 0
    gold_brackets: int = 0
    test_brackets: int = 0
    crossing: int = 0
    words: int = 0
    correct_tags: int = 0
    gold_words: int = 0
    message: str = ""

    @property
    def recall(self) -> float:
        """``100 * matched / gold brackets``, 0.0 when there are none (EVALB's row)."""
        return _pct(self.matched, self.gold_brackets)

    @property
    def precision(self) -> float:
        """``100 * matched / test brackets``, 0.0 when there are none (EVALB's row)."""
        return _pct(self.matched, self.test_brackets)

    @property
    def tagging_accuracy(self) -> float:
        """``100 * correct tags / words``, 0.0 when there are none (EVALB's row)."""
        return _pct(self.correct_tags, self.words)

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "length": self.length, "status": self.status, "status_name": STATUSES[self.status],
                "recall": self.recall, "precision": self.precision, "matched": self.matched,
                "gold_brackets": self.gold_brackets, "test_brackets": self.test_brackets,
                "crossing": self.crossing, "words": self.words, "correct_tags": self.correct_tags,
                "tagging_accuracy": self.tagging_accuracy, "message": self.message}


#: what a :class:`Totals` sums: all sentences, or those of length <= ``CUTOFF_LEN``
SCOPES = ("all", "cutoff")


@dataclass
class Totals:
    """EVALB's sums over a set of sentences (``scope``: ``"all"``, or ``"cutoff"``: those of length <=
    ``CUTOFF_LEN``), made with ``params``; a mergeable sum (:meth:`merge`).

    The totals carry the parameters they were made with (a frozen, validated :class:`EvalbParams`), so that
    sums made with different deletions, equivalences or cut-off are never added up."""

    sentences: int = 0
    error: int = 0
    skip: int = 0
    matched: int = 0
    gold_brackets: int = 0
    test_brackets: int = 0
    complete_match: int = 0
    crossing: int = 0
    no_crossing: int = 0
    two_or_less_crossing: int = 0
    words: int = 0
    correct_tags: int = 0
    params: EvalbParams = field(default_factory=EvalbParams)
    scope: str = "all"

    def __post_init__(self):
        if not isinstance(self.params, EvalbParams):
            raise ConfigError(f"Totals.params must be EvalbParams, got {type(self.params).__name__}: "
                              f"{self.params!r}")
        if self.scope not in SCOPES:
            raise ConfigError(f"Totals.scope must be one of {', '.join(SCOPES)}, got {self.scope!r}")
        for name in COUNTS:
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ConfigError(f"Totals.{name} must be a whole number >= 0, got {value!r}")

    def add(self, row: SentenceResult) -> None:
        self.sentences += 1
        if row.status == ERROR:
            self.error += 1
        elif row.status == SKIP:
            self.skip += 1
        else:
            self.matched += row.matched
            self.gold_brackets += row.gold_brackets
            self.test_brackets += row.test_brackets
            self.complete_match += row.matched == row.gold_brackets == row.test_brackets
            self.crossing += row.crossing
            self.no_crossing += row.crossing == 0
            self.two_or_less_crossing += row.crossing <= 2
            self.words += row.words
            self.correct_tags += row.correct_tags

    def merge(self, other: Totals) -> Totals:
        """The sums of both sets of sentences. Totals made with other parameters (any field of
        :class:`EvalbParams`) or over another scope are a :class:`ConfigError` naming the first setting that
        differs, whether or not they hold sentences: score every part with the same parameter file, and
        merge ``all`` with ``all``, ``cutoff`` with ``cutoff``."""
        if not isinstance(other, Totals):
            raise ConfigError(f"Totals.merge needs EVALB Totals, got {type(other).__name__}: {other!r}")
        differs = _first_difference(self, other)
        if differs is not None:
            raise ConfigError(f"cannot merge EVALB totals made with different settings: {differs}; score every "
                              f"part with the same parameter file (and merge 'all' with 'all', 'cutoff' with "
                              f"'cutoff')")
        return Totals(**{name: getattr(self, name) + getattr(other, name) for name in COUNTS},
                      params=self.params, scope=self.scope)

    @property
    def valid(self) -> int:
        return self.sentences - self.error - self.skip

    def figures(self, zero_division: float = 0.0) -> tuple[dict[str, float], list[str]]:
        """The summary figures in percent (average crossing per sentence) and the names of those whose
        denominator was 0 (given ``zero_division``, as EVALB prints 0.00). F = 2PR / (P + R), 0 when P + R = 0."""
        undefined = []

        def pct(name: str, num: int, den: int) -> float:
            if den:
                return 100.0 * num / den
            undefined.append(name)
            return 100.0 * zero_division

        r = pct("recall", self.matched, self.gold_brackets)
        p = pct("precision", self.matched, self.test_brackets)
        out = {"recall": r, "precision": p, "fmeasure": 2 * p * r / (p + r) if p + r else 0.0,
               "complete_match": pct("complete_match", self.complete_match, self.valid),
               "average_crossing": pct("average_crossing", self.crossing, self.valid) / 100.0,
               "no_crossing": pct("no_crossing", self.no_crossing, self.valid),
               "two_or_less_crossing": pct("two_or_less_crossing", self.two_or_less_crossing, self.valid),
               "tagging_accuracy": pct("tagging_accuracy", self.correct_tags, self.words)}
        return out, undefined

    def to_dict(self, zero_division: float = 0.0) -> dict[str, Any]:
        figures, _ = self.figures(zero_division)
        return {"sentences": self.sentences, "error": self.error, "skip": self.skip, "valid": self.valid,
                **figures, "counts": {name: getattr(self, name) for name in COUNTS}}


#: the sums of :class:`Totals` (what :meth:`Totals.merge` adds)
COUNTS = tuple(f.name for f in fields(Totals) if f.name not in ("params", "scope"))


def _first_difference(a: Totals, b: Totals) -> str | None:
    """``"<setting> (<KEYWORD>) is x in the first totals but y in the second"`` for the first setting of
    :class:`EvalbParams` (then the scope) that differs between ``a`` and ``b``; ``None`` when none does."""
    for f in fields(EvalbParams):
        x, y = getattr(a.params, f.name), getattr(b.params, f.name)
        if x != y:
            key = f" ({KEYWORDS[f.name]})" if f.name in KEYWORDS else ""
            return f"{f.name}{key} is {x!r} in the first totals but {y!r} in the second"
    if a.scope != b.scope:
        return f"scope is {a.scope!r} in the first totals but {b.scope!r} in the second"
    return None


@dataclass
class EvalbResult:
    """The per-sentence rows and the two summaries (all; length <= ``params.cutoff_len``), each made with
    ``params`` (given when left out)."""

    params: EvalbParams
    sentences: list[SentenceResult] = field(default_factory=list)
    all: Totals = None
    cutoff: Totals = None

    def __post_init__(self):
        if not isinstance(self.params, EvalbParams):
            raise ConfigError(f"EvalbResult.params must be EvalbParams, got {type(self.params).__name__}")
        if self.all is None:
            self.all = Totals(params=self.params)
        if self.cutoff is None:
            self.cutoff = Totals(params=self.params, scope="cutoff")
        for name, scope in (("all", "all"), ("cutoff", "cutoff")):
            totals = getattr(self, name)
            if totals.params != self.params or totals.scope != scope:
                raise ConfigError(f"EvalbResult.{name} must be Totals made with the result's parameters and "
                                  f"scope {scope!r}")

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: figures in percent as EVALB prints them, unrounded; no NaN."""
        return json_safe({"tool": "EVALB (Sekine & Collins 1997)", "scale": "percent",
                          "params": self.params.to_dict(),
                          "all": self.all.to_dict(), f"len_le_{self.params.cutoff_len}": self.cutoff.to_dict(),
                          "sentences": [s.to_dict() for s in self.sentences]})

    def format_rsl(self, style: str = "2006") -> str:
        """EVALB's text output (the ``.rsl`` layout). ``style="2006"`` is the current release (F-measure
        lines; words 0 on error and skip rows); ``"1997"`` is the layout of the ``sample.rsl`` shipped with
        EVALB (gold words on error and skip rows, no F-measure; its totals line printed the number of
        sentences without crossing in the crossing column, reproduced here)."""
        if style not in STYLES:
            raise ConfigError(f"style must be one of {', '.join(STYLES)}, got {style!r}")
        out = ["  Sent.                        Matched  Bracket   Cross        Correct Tag",
               " ID  Len.  Stat. Recal  Prec.  Bracket gold test Bracket Words  Tags Accracy",
               "=" * 76]
        for s in self.sentences:
            words = s.gold_words if style == "1997" and s.status != OK else s.words
            out.append(f"{s.id:4d}  {s.length:3d}    {s.status:d}  {s.recall:6.2f} {s.precision:6.2f}   "
                       f"{s.matched:3d}    {s.gold_brackets:3d}  {s.test_brackets:3d}    {s.crossing:3d}   "
                       f"{words:4d}  {s.correct_tags:4d}   {s.tagging_accuracy:6.2f}")
        out.append("=" * 76)
        t = self.all
        figs, _ = t.figures()
        if style == "1997":
            out.append(f"{'':16s}{figs['recall']:6.2f} {figs['precision']:6.2f}{t.matched:7d}{t.gold_brackets:7d}"
                       f"{t.test_brackets:5d}{t.no_crossing:7d}{t.words:7d}{t.correct_tags:6d}"
                       f"{figs['tagging_accuracy']:9.2f}")
        else:
            line = ""
            if t.gold_brackets > 0 and t.test_brackets > 0:
                line = (f"{'':16s}{figs['recall']:6.2f} {figs['precision']:6.2f} {t.matched:6d} "
                        f"{t.gold_brackets:5d} {t.test_brackets:5d}  {t.crossing:5d}")
            out.append(f"{line}  {t.words:5d} {t.correct_tags:5d}   {figs['tagging_accuracy']:6.2f}")
        out.append("=== Summary ===")
        for title, totals in (("All", self.all), (f"len<={self.params.cutoff_len}", self.cutoff)):
            f, _ = totals.figures()
            out += ["", f"-- {title} --",
                    f"Number of sentence        = {totals.sentences:6d}",
                    f"Number of Error sentence  = {totals.error:6d}",
                    f"Number of Skip  sentence  = {totals.skip:6d}",
                    f"Number of Valid sentence  = {totals.valid:6d}",
                    f"Bracketing Recall         = {f['recall']:6.2f}",
                    f"Bracketing Precision      = {f['precision']:6.2f}"]
            if style == "2006":
                out.append(f"Bracketing FMeasure       = {f['fmeasure']:6.2f}")
            out += [f"Complete match            = {f['complete_match']:6.2f}",
                    f"Average crossing          = {f['average_crossing']:6.2f}",
                    f"No crossing               = {f['no_crossing']:6.2f}",
                    f"2 or less crossing        = {f['two_or_less_crossing']:6.2f}",
                    f"Tagging accuracy          = {f['tagging_accuracy']:6.2f}"]
        return "\n".join(out) + "\n"


# ---------------------------------------------------------------- scoring


def _crossing(gold_spans: Iterable[tuple[int, int]], test_spans: Iterable[tuple[int, int]]) -> int:
    """The number of test spans that cross a gold span (one begins strictly inside the other, ends outside).

    A test span equal to a gold span crosses none: the gold spans come from one tree, so they nest."""
    gold = set(gold_spans)
    n = 0
    for ts, te in test_spans:
        if (ts, te) in gold:
            continue
        for gs, ge in gold:
            if gs < ts < ge < te or ts < gs < te < ge:
                n += 1
                break
    return n


def score_sentence(gold: BracketTree, test: BracketTree, params: EvalbParams, sent_id: int | None = None
                   ) -> SentenceResult:
    """One sentence as EVALB scores it: status, brackets, crossing and tags (see the module docstring; quote
    terms are repaired, with ``QUOTE_LABEL``, when the kept words differ in number, as EVALB 2006 does)."""
    gs, ts = _read(gold, params), _read(test, params)
    sid = gold.number if sent_id is None else sent_id
    if not ts.words:
        return SentenceResult(status=SKIP, message="empty test sentence", id=sid, length=gs.length,
                              gold_words=len(gs.words))
    if len(gs.words) != len(ts.words) and (gs.quotes or ts.quotes):
        fix_quote(gs, ts)
    g, t = _finish(gs, params), _finish(ts, params)
    base = {"id": sid, "length": g.length, "gold_words": len(g.words)}
    if len(g.words) != len(t.words):
        return SentenceResult(status=ERROR, message=f"Length unmatch ({len(g.words)}|{len(t.words)})", **base)
    for gw, tw in zip(g.words, t.words, strict=True):
        if not params.word_eq(gw, tw):
            return SentenceResult(status=ERROR, message=f"Words unmatch ({gw}|{tw})", **base)
    gold_spans = [(c.positions[0], c.positions[-1] + 1) for c in g.brackets]
    test_spans = [(c.positions[0], c.positions[-1] + 1) for c in t.brackets]
    free: dict[tuple[int, int], list[int]] = {}  # span -> unmatched test brackets, in reading order
    for j, ts in enumerate(test_spans):
        free.setdefault(ts, []).append(j)
    matched = 0
    for gc, gs in zip(g.brackets, gold_spans, strict=True):
        candidates = free.get(gs, ())
        for k, j in enumerate(candidates):
            if not params.labeled or params.label_eq(gc.label, t.brackets[j].label):
                del candidates[k]
                matched += 1
                break
    crossing = _crossing(gold_spans, test_spans)
    correct = sum(params.label_eq(a, b) for a, b in zip(g.tags, t.tags, strict=True))
    return SentenceResult(status=OK, matched=matched, gold_brackets=len(g.brackets), test_brackets=len(t.brackets),
                          crossing=crossing, words=len(g.words), correct_tags=correct, **base)


def evaluate(gold: Sequence[BracketTree], test: Sequence[BracketTree], params: EvalbParams | None = None, *,
             stop_at_max_error: bool = True, zero_division: float = 0.0, source: str = "") -> EvalbResult:
    """Score ``test`` against ``gold`` sentence by sentence, as EVALB does.

    Each must hold a sentence with words (:class:`InputError` otherwise: nothing to compare;
    :func:`~.checks.refuse_empty`), and the two as many sentences (:class:`InputError` otherwise; EVALB stops
    there). With
    ``stop_at_max_error``, more error sentences than EVALB tolerates (``MAX_ERROR + 1``) raise
    :class:`InputError`, as EVALB stops; without it every sentence is scored. Summary ratios with a zero
    denominator are ``zero_division`` with one :class:`~spacy_anno_eval.errors.UndefinedFigureWarning`.
    """
    from .checks import refuse_empty_pair

    params = params or EvalbParams()
    if params.disc_only or params.delete_root_preterms:
        key = "DISC_ONLY" if params.disc_only else "DELETE_ROOT_PRETERMS"
        raise ConfigError(f"{key} 1 is disco-dop's, for discontinuous treebanks (NEGRA export, TIGER-XML, "
                          f"discbracket: spacy_anno_eval.trees.disco); EVALB on Penn brackets has no such setting")
    refuse_empty_pair(gold, test, source or "EVALB", sides=("gold", "test"))
    if len(gold) != len(test):
        raise InputError(f"{source + ': ' if source else ''}the gold holds {len(gold)} sentence(s) and the test "
                         f"{len(test)}: EVALB compares them line by line; give one test line per gold line "
                         "(an empty line for a sentence the parser skipped)")
    result = EvalbResult(params)
    errors = 0
    for g, t in zip(gold, test, strict=True):
        row = score_sentence(g, t, params)
        errors += row.status == ERROR
        if stop_at_max_error and errors > params.max_error + 1:
            raise InputError(f"{source + ': ' if source else ''}sentence {row.id}: {errors} error sentences "
                             f"(last: {row.message}); EVALB stops after MAX_ERROR + 1 = {params.max_error + 1}. "
                             "Check that the files are tokenized alike, or raise MAX_ERROR")
        result.sentences.append(row)
        result.all.add(row)
        if row.length <= params.cutoff_len:
            result.cutoff.add(row)
    undefined = [f"{name} ({title})" for title, totals in (("all", result.all), ("cutoff", result.cutoff))
                 for name in totals.figures(zero_division)[1]]
    warn_zero_division(undefined, zero_division)
    return result


def evaluate_files(gold: str | os.PathLike, test: str | os.PathLike,
                   params: EvalbParams | str | os.PathLike | None = None, *, layout: str = "auto",
                   stop_at_max_error: bool = True, zero_division: float = 0.0) -> EvalbResult:
    """Read two bracketed files (:func:`~.brackets.read_brackets`) and score them with ``params`` (an
    :class:`EvalbParams` or the path of a parameter file)."""
    if params is not None and not isinstance(params, EvalbParams):
        params = EvalbParams.read(params)
    return evaluate(read_brackets(gold, layout), read_brackets(test, layout), params,
                    stop_at_max_error=stop_at_max_error, zero_division=zero_division, source=f"{gold} / {test}")


def evaluate_trees(gold: Iterable[str], test: Iterable[str], params: EvalbParams | None = None) -> EvalbResult:
    """Score bracketed strings, one sentence each (a convenience for tests and notebooks)."""
    from .brackets import parse_brackets

    def one(side: str, n: int, text: str) -> BracketTree:
        trees = parse_brackets(" ".join(text.splitlines()), f"{side} sentence {n}", layout="line")
        tree = trees[0] if trees else BracketTree(n, 1, (), (), ())
        return BracketTree(n, 1, tree.words, tree.tags, tree.brackets, tree.outer)

    return evaluate([one("gold", n, s) for n, s in enumerate(gold, 1)],
                    [one("test", n, s) for n, s in enumerate(test, 1)], params)


__all__ = ["ERROR", "KEYWORDS", "OK", "QUOTE_WORDS", "SKIP", "STATUSES", "STYLES", "EvalbParams", "EvalbResult",
           "Extracted", "SentenceResult", "Totals", "evaluate", "evaluate_files", "evaluate_trees", "extract",
           "fix_quote", "score_sentence", "strip_function_tags"]
