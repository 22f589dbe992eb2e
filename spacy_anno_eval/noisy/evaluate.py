"""Named-entity evaluation on noisy text (OCR / HTR output), compatible with nerval.

When the predicted text is the output of a text recogniser, it differs from the
gold text, and entities cannot be compared by offsets or tokens. nerval
(Teklia, ``teklia-nerval`` 0.3.3 on PyPI) aligns the two texts at
character level and matches entities through the alignment. This module
reproduces nerval's figures (predicted, matched, support, P, R, F1 per type and
for ``ALL``) and adds a per-entity table and MUC-style counts. The code is our
own; nerval's source was read to learn its exact behaviour.

Pipeline
--------

1. **Character tags** (:func:`parse_bio`, :func:`read_bio`, :func:`char_tags_from_spans`).
   A BIO / BIOES / BILOU file, read as nerval reads it, gives a text (the
   tokens joined by single spaces) and one tag per character: the characters of
   a token get its entity type, the space between two tokens gets the entity
   type when both tokens are in the same entity, else ``O``. The first
   character of a token labelled ``B-``, ``S-`` or ``U-`` begins an entity;
   ``I-``, ``E-`` and ``L-`` continue one. "Tolkien B-PER / was O / a O /
   writer B-OCC / . O" gives "Tolkien was a writer ." with 7 PER, 7 O, 6 OCC,
   2 O. The support of a type is its number of beginnings.

   File format, as nerval's parser: one ``TOKEN LABEL`` per line, separated by
   one space (no tab, no third column); ``LABEL`` is ``O`` or a prefix
   ``B- I- E- S- L- U-`` and a type. Blank lines are ignored and change
   nothing: the tokens on both sides are still joined by a space and an entity
   may continue across them. There is no document separator: one file is one
   document (a ``-DOCSTART- O`` line is a token, as in nerval). A bad line
   raises :class:`~spacy_anno_eval.errors.InputError` naming the file
   and the line. Where we differ from nerval, on input it mishandles:
   leading and trailing whitespace of a line is ignored (nerval ignores it on
   the first and last line only; elsewhere a trailing space becomes part of the
   type, ``"PER "``); a whitespace-only line is blank (nerval fails); an empty
   token, a label with whitespace, an empty type (``B-``) and the type ``O``
   (``B-O``) are errors (nerval accepts some of them); ``§`` and ``-`` in
   tokens need no special care (nerval forbids ``§``, which it uses to protect
   hyphens from its gap character).

   Nested entities as nerval writes them: an entity that is interrupted by an
   entity of another type and then continues with ``I-`` tokens
   ("Louis B-PER ... de I-PER / France B-LOC / et I-PER de I-PER") is one
   entity; the spaces around the inner entity get the outer type. We follow
   nerval's state machine exactly, including one quirk: once a nested entity
   has been seen, every later space that no other rule tags gets the outer type
   (also between two ``O`` tokens), until an entity is directly followed by an
   entity of another type that does not continue it. Such spaces are scored by
   nerval as entities of their own; see ``type 'O'`` rows below.

2. **Alignment** (:func:`align_char_tags`). ``edlib.align(gold, pred,
   mode="NW", task="path")``, a global alignment of minimal Levenshtein
   distance; gaps are written ``-`` in :attr:`NoisyAlignment.gold_aligned` and
   :attr:`NoisyAlignment.pred_aligned` (a hyphen of the text is also shown as
   ``-`` there, but the arrays keep them apart). A gap takes the type of the
   previous character of its own string, as a continuation; a gap before the
   first character or after the last one is ``O``.

3. **Matching** (:func:`match_entities`), nerval's ``compute_matches``: for each
   gold entity, the predicted characters of the same type over its aligned
   span (extended to the left to the beginning of that predicted entity and,
   past the gold entity's end, over the predicted entity's continuation) form
   the predicted entity; the Levenshtein distance between the two texts (gaps
   removed) over the gold entity's length is compared with ``threshold``:
   matched when ``distance / len(gold) <= threshold`` and neither text is
   empty. Each predicted character is used by at most one continuation. All of
   nerval's rules are reproduced, including the odd ones (a gold entity whose
   aligned predicted characters were already used by an earlier entity's
   continuation is not scored; entity characters that follow an ``O``
   character without a beginning, as "I-" after "O" in IOB1 files or the
   spaces of the nested-entity quirk, are scored as an entity credited to type
   ``O``, whose match counts in ``ALL`` but in no type). Input is therefore
   expected in IOB2 / BIOES: an IOB1 "I-" after "O" begins no entity.

4. **Scores**, nerval's ``compute_scores``: per type and ``ALL`` (micro
   average over types): ``predicted`` (predicted entities), ``matched``,
   ``support`` (gold entities), ``p = matched / predicted``,
   ``r = matched / support``, ``f`` = harmonic mean, 0 when ``p + r == 0``.
   As nerval prints them: ``predicted`` / ``support`` is None for a type absent
   from the prediction / gold, ``p`` / ``r`` is None when its denominator is 0
   or None, ``f`` is None when ``p`` or ``r`` is. Over several documents
   (:func:`evaluate_docs`) the counts are summed before the ratios (micro over
   documents; nerval's CSV mode averages per-file ALL figures instead).

Beyond nerval
-------------

- ``entities``: one row per scored gold entity: ``doc``, ``type``,
  ``gold_text``, ``pred_text`` (``""`` when none), ``distance`` (Levenshtein),
  ``ratio`` (``distance / len(gold_text)``, the figure compared with the
  threshold), ``cer`` (the same number under its OCR name: the character error
  rate of the entity), ``matched``, ``muc`` (the row's MUC class) and the
  character offsets ``gold_start``/``gold_end`` in the gold text and
  ``pred_start``/``pred_end`` in the predicted text (first and last character
  used; None when no predicted character). Rows of type ``O`` are nerval's
  artefacts described above.
- ``muc``: MUC-style counts (Chinchor 1992, as in
  :mod:`spacy_anno_eval.spans.measures`) over the scored gold entities (rows of
  type ``O`` left out) and the predicted
  entities after alignment. COR: matched. PAR: not matched, but a predicted
  character of the same type lies in the gold entity's aligned span (the
  prediction overlaps, too different to pass the threshold). INC: no predicted
  character of the same type there, but one of another type. MIS: no predicted
  entity character at all. SPU: a predicted entity (a beginning and its
  continuation characters) none of whose aligned characters lies in a gold
  entity. POS = COR+PAR+INC+MIS, ACT = COR+PAR+INC+SPU,
  P = (COR + PAR/2) / ACT, R = (COR + PAR/2) / POS, F1; 0 where a denominator
  is 0. COR, PAR, INC and MIS count under the gold type, SPU under the
  predicted type; ``all`` is the micro average (summed counts), ``macro`` the
  mean of the per-type P, R and F over the types that have a row.
- ``alignment``: per document ``{"gold_aligned", "pred_aligned"}``, or None
  when the aligned strings are longer than ``max_alignment_chars``.
- spaCy Docs (:func:`evaluate_docs`) and the spaCy scorer
  (:func:`score_noisy_examples`, :func:`make_noisy_spans_scorer`, registered
  as ``spacy_anno_eval.noisy_spans_scorer.v1``): character tags come from the
  span set of each Doc (``doc.ents`` or ``doc.spans[key]``) over ``doc.text``
  (its own whitespace, no re-joining), the same rules otherwise. A span nested
  strictly inside another (starting after it) is written as nerval writes
  nested entities; spans that cross, or that share their start with an
  enclosing span, raise an error (resolve them first, e.g. with
  ``spacy.util.filter_spans``).

Speed: the texts are aligned once per document by edlib (C); tags are aligned
with numpy and the matching loop visits only gold entity characters, with
O(1) bookkeeping (nerval scans Python lists and runs a regular expression per
character). ``edlib`` is imported when first needed.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import InputError, where

__all__ = [
    "ALL", "DEFAULT_THRESHOLD", "CharTags", "NoisyAlignment", "EntityMatch",
    "parse_bio", "read_bio", "char_tags_from_spans", "align_char_tags", "match_entities",
    "PairResult", "levenshtein", "evaluate_pair", "evaluate_files", "evaluate_docs",
    "score_noisy_examples", "make_noisy_spans_scorer",
]

ALL = "ALL"
OUTSIDE = "O"
GAP = "-"
DEFAULT_THRESHOLD = 0.30
DEFAULT_MAX_ALIGNMENT_CHARS = 2000
MUC_CLASSES = ("COR", "PAR", "INC", "MIS", "SPU")

_LINE = re.compile(r"(\S+) (O|[BIESLU]-\S*)")
_BEGIN_PREFIXES = frozenset("BSU")
_CIGAR = re.compile(r"(\d+)([=XID])")


# ---------------------------------------------------------------------------
# character tags


@dataclass
class CharTags:
    """A text with one entity tag per character.

    ``types[i]`` is an index into ``labels`` (``labels[0] == "O"``),
    ``begins[i]`` whether character ``i`` begins an entity. ``counts`` is the
    number of entities (beginnings) per type, types without entity left out.
    """

    text: str
    types: np.ndarray
    begins: np.ndarray
    labels: list[str]
    counts: dict[str, int]

    def tags(self) -> list[str]:
        """The type of every character (``"O"`` outside entities), as in nerval's README."""
        names = np.asarray(self.labels, dtype=object)
        return names[self.types].tolist()

    def bio(self) -> list[str]:
        """``B-TYPE`` / ``I-TYPE`` / ``O`` per character, as nerval's parser labels them."""
        return [OUTSIDE if not t else ("B-" if b else "I-") + self.labels[t]
                for t, b in zip(self.types.tolist(), self.begins.tolist(), strict=True)]

    def recode(self, labels: list[str], index: dict[str, int]) -> CharTags:
        """The same tags with type indices into ``labels`` (extended in place with unseen types)."""
        table = np.empty(len(self.labels), dtype=np.int32)
        for i, name in enumerate(self.labels):
            if name not in index:
                index[name] = len(labels)
                labels.append(name)
            table[i] = index[name]
        return CharTags(self.text, table[self.types], self.begins, labels, self.counts)


def _bad_line(source: str | None, number: int, line: str, why: str) -> InputError:
    return InputError(
        f"{where(source or '<bio>', line=number)}: {why}; got {line!r}. Expected 'TOKEN LABEL' separated by one "
        f"space, LABEL being O or B-/I-/E-/S-/L-/U- and a type (the BIO/BIOES format nerval reads)"
    )


def parse_bio(lines: Iterable[str], source: str | None = None) -> CharTags | None:
    """Text and character tags of BIO/BIOES lines, as nerval's ``parse_bio``; None when there is no token.

    ``source`` names the file in error messages; lines are numbered from 1.
    """
    words: list[str] = []
    wtype: list[int] = []
    wbegin: list[bool] = []
    labels = [OUTSIDE]
    index = {OUTSIDE: 0}
    for number, raw in enumerate(lines, 1):
        line = raw.strip()
        if not line:
            continue
        m = _LINE.fullmatch(line)
        if m is None:
            if " " not in line and "\t" not in line:
                why = "no label"
            elif "\t" in line:
                why = "tab-separated or malformed line"
            elif len(line.split()) > 2:
                why = "more than two fields"
            else:
                why = "invalid label"
            raise _bad_line(source, number, raw, why)
        word, label = m.groups()
        if label == OUTSIDE:
            wtype.append(0)
            wbegin.append(False)
        else:
            name = label[2:]
            if not name or name == OUTSIDE:
                raise _bad_line(source, number, raw, f"invalid entity type {name!r}")
            t = index.get(name)
            if t is None:
                t = index[name] = len(labels)
                labels.append(name)
            wtype.append(t)
            wbegin.append(label[0] in _BEGIN_PREFIXES)
        words.append(word)
    if not words:
        return None
    space = _space_types(wtype, wbegin)
    n_words = len(words)
    lengths = np.fromiter(map(len, words), dtype=np.int64, count=n_words)
    seg_types = np.empty(2 * n_words - 1, dtype=np.int32)
    seg_types[0::2] = wtype
    seg_types[1::2] = space
    seg_lens = np.ones(2 * n_words - 1, dtype=np.int64)
    seg_lens[0::2] = lengths
    types = np.repeat(seg_types, seg_lens)
    begins = np.zeros(len(types), dtype=bool)
    word_start = np.concatenate(([0], np.cumsum(lengths[:-1] + 1)))
    wb = np.asarray(wbegin, dtype=bool)
    begins[word_start[wb]] = True
    n_ent = np.bincount(np.asarray(wtype, dtype=np.int64)[wb], minlength=len(labels))
    counts = {labels[t]: int(c) for t, c in enumerate(n_ent.tolist()) if t and c}
    return CharTags(" ".join(words), types, begins, labels, counts)


def _space_types(wtype: list[int], wbegin: list[bool]) -> list[int]:
    """Type of the space after each token but the last, by nerval's rules (including nested entities)."""
    n = len(wtype)
    out = [0] * (n - 1)
    nested = False
    outer = 0
    for k in range(1, n):
        t, b, prev = wtype[k], wbegin[k], wtype[k - 1]
        if t and t == prev and not b:
            out[k - 1] = prev
        elif t and prev and t != prev and b:
            # an entity right after another type: nested if the earlier entity continues later
            j, ft, fb = k, t, b
            while j < n and ft and ft != prev:
                j += 1
                if j < n:
                    ft, fb = wtype[j], wbegin[j]
            if j < n and ft == prev and not fb:
                out[k - 1] = prev
                nested, outer = True, prev
            else:
                nested = False
        elif nested:  # nerval keeps this state until the branch above resets it
            out[k - 1] = outer
    return out


def read_bio(path: str | Path) -> CharTags:
    """Read a BIO/BIOES file (UTF-8) as nerval does; raise when it has no token."""
    path = Path(path)
    try:
        content = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputError(f"{path}: file not found") from None
    except UnicodeDecodeError as e:
        raise InputError(f"{path}: not UTF-8 text ({e.reason} at byte {e.start})") from None
    tags = parse_bio(content.splitlines(), str(path))
    if tags is None:
        raise InputError(f"{path}: no token found (an empty BIO file cannot be evaluated)")
    return tags


def char_tags_from_spans(text: str, spans: Iterable[tuple[int, int, str]], source: str | None = None) -> CharTags:
    """Character tags of ``text`` from ``(start_char, end_char, label)`` spans.

    Characters of a span get its label (the whitespace inside it too), its
    first character begins an entity; exact duplicates count once. A span nested strictly inside another
    (starting after it) interrupts it as nerval's nested entities do; crossing
    spans, and spans sharing their start with an enclosing span, raise
    :class:`InputError`. Empty spans are ignored.
    """
    items = sorted({(int(s), int(e), str(lab)) for s, e, lab in spans if int(e) > int(s)},
                   key=lambda x: (x[0], -x[1], x[2]))
    labels = [OUTSIDE]
    index = {OUTSIDE: 0}
    types = np.zeros(len(text), dtype=np.int32)
    begins = np.zeros(len(text), dtype=bool)
    counts: dict[str, int] = {}
    stack: list[tuple[int, int, str]] = []
    for s, e, lab in items:
        if s < 0 or e > len(text):
            raise InputError(f"{where(source, span=(s, e))}: span out of range for a text of "
                                     f"{len(text)} characters")
        if not lab or lab == OUTSIDE:
            raise InputError(f"{where(source, span=(s, e))}: invalid entity label {lab!r}")
        while stack and stack[-1][1] <= s:
            stack.pop()
        if stack:
            ps, pe, plab = stack[-1]
            if s == ps or e > pe:
                how = "crosses" if e > pe else "shares its start with"
                raise InputError(
                    f"{where(source, span=(s, e))}: span {lab!r} {how} span {plab!r} [{ps}, {pe}); noisy-text "
                    f"matching needs one tag per character (nested spans must start inside their parent): "
                    f"resolve overlaps first, e.g. with spacy.util.filter_spans"
                )
        stack.append((s, e, lab))
        t = index.get(lab)
        if t is None:
            t = index[lab] = len(labels)
            labels.append(lab)
        types[s:e] = t
        begins[s] = True
        counts[lab] = counts.get(lab, 0) + 1
    return CharTags(text, types, begins, labels, counts)


# ---------------------------------------------------------------------------
# alignment


@dataclass
class NoisyAlignment:
    """Global character alignment of a gold and a predicted text, with aligned tags.

    ``gold_index[k]`` / ``pred_index[k]`` is the character of each text at
    aligned position ``k``, -1 for a gap; ``gold_types`` ... ``pred_begins``
    the aligned tags (type indices into ``labels``).
    """

    gold: CharTags
    pred: CharTags
    labels: list[str]
    gold_index: np.ndarray
    pred_index: np.ndarray
    gold_types: np.ndarray
    gold_begins: np.ndarray
    pred_types: np.ndarray
    pred_begins: np.ndarray
    distance: int

    def __len__(self) -> int:
        return len(self.gold_index)

    @property
    def gold_aligned(self) -> str:
        """The gold text with ``-`` for gaps."""
        return _aligned_string(self.gold.text, self.gold_index)

    @property
    def pred_aligned(self) -> str:
        """The predicted text with ``-`` for gaps."""
        return _aligned_string(self.pred.text, self.pred_index)

    def gold_tags(self) -> list[str]:
        """Type name per aligned gold position."""
        return np.asarray(self.labels, dtype=object)[self.gold_types].tolist()

    def pred_tags(self) -> list[str]:
        """Type name per aligned predicted position."""
        return np.asarray(self.labels, dtype=object)[self.pred_types].tolist()


def _aligned_string(text: str, idx: np.ndarray) -> str:
    return "".join(np.asarray(list(text) + [GAP], dtype=object)[idx].tolist()) if len(idx) else ""


def _cigar_ops(gold: str, pred: str, source: str | None) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """(counts, consumes_gold, consumes_pred, distance) of edlib's global alignment path."""
    if not gold or not pred:
        n = max(len(gold), len(pred))
        return (np.array([n] if n else [], dtype=np.int64), np.array([bool(gold)] if n else [], dtype=bool),
                np.array([bool(pred)] if n else [], dtype=bool), n)
    import edlib

    try:
        res = edlib.align(gold, pred, mode="NW", task="path")
    except ValueError as e:  # more than 256 distinct characters
        raise InputError(f"{source or 'texts'}: edlib cannot align these texts ({e})") from None
    ops = _CIGAR.findall(res["cigar"])
    counts = np.fromiter((int(c) for c, _ in ops), dtype=np.int64, count=len(ops))
    codes = np.asarray([op for _, op in ops])
    # '=' and 'X' use a character of both texts, 'I' one of the gold text (query), 'D' one of the prediction
    return counts, codes != "D", codes != "I", int(res["editDistance"])


def _aligned_index(real: np.ndarray, n: int) -> np.ndarray:
    idx = np.full(len(real), -1, dtype=np.int64)
    idx[real] = np.arange(n, dtype=np.int64)
    return idx


def _aligned_tags(tags: CharTags, real: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Tags of the aligned string, as nerval's ``get_labels_aligned``.

    A gap continues the type of the previous character of its string (never
    begins an entity); a gap before the first or after the last character is O.
    """
    n = len(tags.text)
    if not len(real) or not n:
        return np.zeros(len(real), dtype=np.int32), np.zeros(len(real), dtype=bool)
    used = np.cumsum(real)
    prev = np.maximum(used - 1, 0)
    inside = (used > 0) & (real | (used < n))
    types = np.where(inside, tags.types[prev], 0).astype(np.int32)
    begins = real & tags.begins[prev]
    return types, begins


def align_char_tags(gold: CharTags, pred: CharTags, source: str | None = None) -> NoisyAlignment:
    """Align two tagged texts with edlib (global, Levenshtein) and carry the tags over (nerval's way)."""
    labels: list[str] = []
    index: dict[str, int] = {}
    gold = gold.recode(labels, index)
    pred = pred.recode(labels, index)
    counts, g_use, p_use, distance = _cigar_ops(gold.text, pred.text, source)
    g_real = np.repeat(g_use, counts)
    p_real = np.repeat(p_use, counts)
    gt, gb = _aligned_tags(gold, g_real)
    pt, pb = _aligned_tags(pred, p_real)
    return NoisyAlignment(gold, pred, labels, _aligned_index(g_real, len(gold.text)),
                          _aligned_index(p_real, len(pred.text)), gt, gb, pt, pb, distance)


# ---------------------------------------------------------------------------
# matching


@dataclass
class EntityMatch:
    """One scored gold entity (a row of the ``entities`` table)."""

    type: str
    gold_text: str
    pred_text: str
    distance: int
    matched: bool
    muc: str | None
    gold_start: int | None
    gold_end: int | None
    pred_start: int | None
    pred_end: int | None
    doc: int = 0

    @property
    def ratio(self) -> float | None:
        """``distance / len(gold_text)``: the figure compared with the threshold (None for an empty text)."""
        return self.distance / len(self.gold_text) if self.gold_text else None

    def to_dict(self) -> dict[str, Any]:
        ratio = self.ratio
        return {"doc": self.doc, "type": self.type, "gold_text": self.gold_text, "pred_text": self.pred_text,
                "distance": self.distance, "ratio": ratio, "cer": ratio, "matched": self.matched,
                "muc": self.muc, "gold_start": self.gold_start, "gold_end": self.gold_end,
                "pred_start": self.pred_start, "pred_end": self.pred_end}


def levenshtein(a: str, b: str) -> int:
    """Levenshtein distance (unit costs) between two strings."""
    if not a or not b:
        return len(a) + len(b)
    if a == b:
        return 0
    import edlib

    try:
        return int(edlib.align(a, b)["editDistance"])
    except ValueError:  # more than 256 distinct characters: plain dynamic programming
        prev = list(range(len(b) + 1))
        for i, ca in enumerate(a, 1):
            cur = [i]
            for j, cb in enumerate(b, 1):
                cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb)))
            prev = cur
        return prev[-1]


def _further(index: int, tag: int, types: list[int], begins: list[bool], n: int) -> tuple[int, list[int]]:
    """The continuation of an entity of type ``tag`` after ``index`` (nerval's ``look_for_further_entity_part``).

    Skips characters of other entity types, takes continuation characters of
    ``tag``, and repeats while that makes progress and ends on ``tag``. Returns
    the end of the text to add (``index`` itself when nothing is added) and the
    positions of the ``tag`` characters taken (marked used even when nothing is
    added, as nerval does).
    """
    start = last = index
    taken: list[int] = []
    while True:
        while index < n and types[index] and types[index] != tag:
            index += 1
        while index < n and types[index] == tag and not begins[index]:
            taken.append(index)
            index += 1
        if index == last or types[index - 1] != tag:
            break
        last = index
    return (index if types[index - 1] == tag else start), taken


def match_entities(al: NoisyAlignment, threshold: float = DEFAULT_THRESHOLD,
                   doc: int = 0) -> tuple[list[EntityMatch], dict[str, int]]:
    """Score every gold entity against the aligned prediction, as nerval's ``compute_matches``.

    Returns the rows (one per scored gold entity, in text order) and the
    matched count per type, with ``ALL`` (which includes nerval's type-``O``
    artefacts).
    """
    gt = al.gold_types.tolist()
    gb = al.gold_begins.tolist()
    pt = al.pred_types.tolist()
    pb = al.pred_begins.tolist()
    gi = al.gold_index.tolist()
    pi = al.pred_index.tolist()
    n = len(gt)
    gold_chars = np.asarray(list(al.gold.text) + [""], dtype=object)[al.gold_index].tolist()
    pred_chars = np.asarray(list(al.pred.text) + [""], dtype=object)[al.pred_index].tolist()
    used_gold = bytearray(n)
    used_pred = bytearray(n)
    rows: list[EntityMatch] = []
    matched = [0] * len(al.labels)
    n_all = 0
    last = 0  # type of the current gold entity (0 after an O character)
    ref: list[int] = []
    comp: list[int] = []
    found_begin = found_end = False
    for i in np.flatnonzero(al.gold_types).tolist():
        if used_gold[i]:
            continue
        if i and not gt[i - 1]:
            last = 0
        t = gt[i]
        if gb[i]:
            ref, comp = [], []
            last = t
            found_begin = found_end = False
        ref.append(i)
        if not found_end and pt[i] == t:
            if used_pred[i]:
                continue  # nerval skips the rest of this character, end-of-entity check included
            if len(ref) == 1 and not pb[i]:
                # the predicted entity started earlier: back to its beginning
                j = i - 1
                while j >= 0 and pt[j] == t and not pb[j] and not used_pred[j]:
                    j -= 1
                if j >= 0:
                    comp.extend(range(j if (pb[j] and pt[j] == t and not used_pred[j]) else j + 1, i))
                elif not (pb[-1] and pt[-1] == t):  # nerval reads labels[-1] here: an empty slice if it begins
                    comp.extend(range(0, i))
            found_begin = True
            comp.append(i)
        elif found_begin:
            found_end = True
        if i + 1 == n or gt[i + 1] != last:
            if not found_end:
                stop, taken = _further(i + 1, t, pt, pb, n)
                comp.extend(range(i + 1, stop))
                for k in taken:
                    used_pred[k] = 1
            stop, taken = _further(i + 1, t, gt, gb, n)
            ref.extend(range(i + 1, stop))
            for k in taken:
                used_gold[k] = 1
            gold_text = "".join([gold_chars[k] for k in ref])
            pred_text = "".join([pred_chars[k] for k in comp])
            distance = levenshtein(gold_text, pred_text)
            ok = bool(gold_text) and bool(pred_text) and distance / len(gold_text) <= threshold
            if ok:
                matched[last] += 1
                n_all += 1
            rows.append(_row(gi, pi, pt, al.labels, last, ref, comp, gold_text, pred_text, distance, ok, doc))
            ref, comp = [], []
    out = {al.labels[t]: c for t, c in enumerate(matched) if t and c}
    out[ALL] = n_all
    return rows, out


def _span_of(index: list[int], positions: list[int]) -> tuple[int | None, int | None]:
    """First and last+1 text offsets of aligned ``positions`` (ascending), gaps skipped."""
    first = next((index[k] for k in positions if index[k] >= 0), None)
    if first is None:
        return None, None
    last = next(index[k] for k in reversed(positions) if index[k] >= 0)
    return first, last + 1


def _row(gi: list[int], pi: list[int], pt: list[int], labels: list[str], t: int, ref: list[int], comp: list[int],
         gold_text: str, pred_text: str, distance: int, ok: bool, doc: int) -> EntityMatch:
    if not t:
        muc = None
    elif ok:
        muc = "COR"
    else:
        over = {pt[k] for k in ref}
        muc = "PAR" if t in over else "INC" if over - {0} else "MIS"
    gs, ge = _span_of(gi, ref)
    ps, pe = _span_of(pi, comp)
    return EntityMatch(labels[t], gold_text, pred_text, distance, ok, muc, gs, ge, ps, pe, doc)


def _spurious(al: NoisyAlignment) -> np.ndarray:
    """Count per type of predicted entities with no aligned character inside a gold entity."""
    pt, pb = al.pred_types, al.pred_begins
    if not pb.any():
        return np.zeros(len(al.labels), dtype=np.int64)
    cont = np.zeros(len(pt), dtype=bool)
    cont[1:] = (pt[1:] == pt[:-1]) & ~pb[1:] & (pt[1:] != 0)
    seg = np.cumsum(~cont) - 1
    n_seg = int(seg[-1]) + 1
    first = np.flatnonzero(~cont)
    is_entity = pb[first]
    hits = np.bincount(seg, weights=(al.gold_types != 0), minlength=n_seg)
    spu = is_entity & (hits == 0)
    return np.bincount(pt[first[spu]], minlength=len(al.labels)).astype(np.int64)


# ---------------------------------------------------------------------------
# scores


@dataclass
class PairResult:
    """Everything computed for one gold / predicted document pair."""

    alignment: NoisyAlignment
    rows: list[EntityMatch]
    matched: dict[str, int]
    spurious: dict[str, int]


def evaluate_pair(gold: CharTags, pred: CharTags, threshold: float = DEFAULT_THRESHOLD, doc: int = 0,
                  source: str | None = None) -> PairResult:
    """Align, match and count one document pair."""
    al = align_char_tags(gold, pred, source)
    rows, matched = match_entities(al, threshold, doc)
    spu = _spurious(al)
    return PairResult(al, rows, matched, {al.labels[t]: int(c) for t, c in enumerate(spu.tolist()) if t and c})


def _ratio_row(predicted: int | None, matched: int, support: int | None) -> dict[str, Any]:
    p = matched / predicted if predicted else None
    r = matched / support if support else None
    f = None if p is None or r is None else (0.0 if p + r == 0 else 2 * p * r / (p + r))
    return {"p": p, "r": r, "f": f, "predicted": predicted, "matched": matched, "support": support}


def _check_threshold(threshold: Any) -> float:
    try:
        value = float(threshold)
    except (TypeError, ValueError):
        value = float("nan")
    if isinstance(threshold, bool) or math.isnan(value) or value < 0:
        raise ValueError(f"threshold must be a number >= 0 (edit distance / gold entity length), got {threshold!r}")
    return value


def _combine(pairs: Sequence[PairResult], threshold: float, max_alignment_chars: int) -> dict[str, Any]:
    support: dict[str, int] = {}
    predicted: dict[str, int] = {}
    matched: dict[str, int] = {ALL: 0}
    spurious: dict[str, int] = {}
    rows: list[EntityMatch] = []
    alignment: list[dict[str, str] | None] = []
    for pr in pairs:
        for counts, into in ((pr.alignment.gold.counts, support), (pr.alignment.pred.counts, predicted),
                             (pr.matched, matched), (pr.spurious, spurious)):
            for k, v in counts.items():
                into[k] = into.get(k, 0) + v
        rows.extend(pr.rows)
        small = len(pr.alignment) <= max_alignment_chars
        alignment.append({"gold_aligned": pr.alignment.gold_aligned, "pred_aligned": pr.alignment.pred_aligned}
                         if small else None)
    types = sorted(set(support) | set(predicted))
    per_type = {t: _ratio_row(predicted.get(t), matched.get(t, 0), support.get(t)) for t in types}
    overall = _ratio_row(sum(predicted.values()), matched[ALL], sum(support.values()))
    return {
        "threshold": threshold,
        "all": overall,
        "per_type": per_type,
        "entities": [r.to_dict() for r in rows],
        "muc": _muc(rows, spurious),
        "alignment": alignment,
    }


def _muc(rows: list[EntityMatch], spurious: dict[str, int]) -> dict[str, Any]:
    from ..spans.measures import _prf_from

    types = sorted({r.type for r in rows if r.muc} | set(spurious))
    pos = {t: i for i, t in enumerate(types)}
    counts = np.zeros((len(types) + 1, 5), dtype=np.int64)
    col = {c: i for i, c in enumerate(MUC_CLASSES)}
    for r in rows:
        if r.muc:
            counts[pos[r.type], col[r.muc]] += 1
    for t, c in spurious.items():
        counts[pos[t], col["SPU"]] += c
    counts[-1] = counts[:-1].sum(axis=0)
    res = _prf_from(*(counts[:, i] for i in range(5)), 1.0, 0.0)
    keys = ("COR", "PAR", "INC", "MIS", "SPU", "POS", "ACT")

    def row(i: int) -> dict[str, Any]:
        out: dict[str, Any] = {k: int(res[k][i]) for k in keys}
        out.update({k: float(res[k][i]) for k in ("p", "r", "f")})
        return out

    macro = ({k: float(np.mean(res[k][:-1])) for k in ("p", "r", "f")} if types
             else {"p": 0.0, "r": 0.0, "f": 0.0})
    return {"all": row(len(types)), "per_type": {t: row(i) for i, t in enumerate(types)}, "macro": macro}


def evaluate_files(gold_path: str | Path, pred_path: str | Path, threshold: float = DEFAULT_THRESHOLD, *,
                   max_alignment_chars: int = DEFAULT_MAX_ALIGNMENT_CHARS) -> dict[str, Any]:
    """Evaluate a predicted BIO/BIOES file against a gold one, as ``nerval -a gold -p pred -t threshold``.

    Returns a JSON-ready dict: ``threshold``, ``all`` and ``per_type``
    (``p``, ``r``, ``f``, ``predicted``, ``matched``, ``support``; None where
    nerval prints None), ``entities``, ``muc`` and ``alignment`` (one entry,
    the file being one document); see the module docstring.
    """
    threshold = _check_threshold(threshold)
    gold = read_bio(gold_path)
    pred = read_bio(pred_path)
    pair = evaluate_pair(gold, pred, threshold, source=f"{gold_path} / {pred_path}")
    return _combine([pair], threshold, max_alignment_chars)


def _doc_spans(doc: Any, selector: str) -> list[tuple[int, int, str]]:
    from ..annotations.table import parse_selector

    kind, key = parse_selector(selector)
    spans = doc.ents if kind == "ents" else doc.spans.get(key, ())
    return [(s.start_char, s.end_char, s.label_) for s in spans]


def evaluate_docs(gold_docs: Iterable[Any], pred_docs: Iterable[Any], *, threshold: float = DEFAULT_THRESHOLD,
                  key_set: str = "ents", response_set: str | None = None,
                  max_alignment_chars: int = DEFAULT_MAX_ALIGNMENT_CHARS) -> dict[str, Any]:
    """Evaluate predicted spaCy Docs against gold Docs whose texts may differ.

    ``key_set`` / ``response_set`` select the spans (``ents`` or
    ``spans:<key>``; the response set defaults to the key set). Each pair is
    aligned on ``doc.text``; counts are summed over the pairs. Same result
    layout as :func:`evaluate_files`, with one ``alignment`` entry per pair
    and the pair's index in each entity row's ``doc``.
    """
    threshold = _check_threshold(threshold)
    response_set = response_set or key_set
    gold_docs, pred_docs = list(gold_docs), list(pred_docs)
    if len(gold_docs) != len(pred_docs):
        raise InputError(f"{len(gold_docs)} gold docs but {len(pred_docs)} predicted docs: "
                                 f"pass one prediction per gold doc, in the same order")
    pairs = []
    for d, (g, p) in enumerate(zip(gold_docs, pred_docs, strict=True)):
        gold = char_tags_from_spans(g.text, _doc_spans(g, key_set), f"gold doc {d} ({key_set})")
        pred = char_tags_from_spans(p.text, _doc_spans(p, response_set), f"predicted doc {d} ({response_set})")
        pairs.append(evaluate_pair(gold, pred, threshold, d, f"doc {d}"))
    return _combine(pairs, threshold, max_alignment_chars)


# ---------------------------------------------------------------------------
# spaCy scorer


def _prefix(key_set: str) -> str:
    from ..annotations.table import parse_selector

    kind, key = parse_selector(key_set)
    return "noisy_ents" if kind == "ents" else f"noisy_spans_{key}"


def score_noisy_examples(examples: Iterable[Any], threshold: float = DEFAULT_THRESHOLD, *, key_set: str = "ents",
                         response_set: str | None = None, prefix: str | None = None) -> dict[str, Any]:
    """Score spaCy ``Example`` objects whose reference and predicted texts may differ.

    Keys (``prefix`` defaults to ``noisy_ents`` or ``noisy_spans_<key>``):
    ``{prefix}_p``, ``{prefix}_r``, ``{prefix}_f`` (nerval's ALL figures),
    ``{prefix}_per_type`` (``{TYPE: {"p", "r", "f", "predicted", "matched",
    "support"}}``) and ``{prefix}_muc`` (MUC micro counts and P/R/F). As the
    package's other scorers, a figure nerval leaves undefined (None) is 0.0
    here, so that spaCy keeps the key in its weighted score.
    """
    examples = list(examples)
    res = evaluate_docs([eg.reference for eg in examples], [eg.predicted for eg in examples],
                        threshold=threshold, key_set=key_set, response_set=response_set, max_alignment_chars=0)
    prefix = prefix or _prefix(key_set)

    def num(x: Any) -> Any:
        return 0.0 if x is None else x

    out: dict[str, Any] = {f"{prefix}_{k}": float(num(res["all"][k])) for k in ("p", "r", "f")}
    out[f"{prefix}_per_type"] = {
        t: {k: (float(num(v)) if k in ("p", "r", "f") else int(num(v))) for k, v in row.items()}
        for t, row in res["per_type"].items()
    }
    out[f"{prefix}_muc"] = res["muc"]["all"]
    return out


def make_noisy_spans_scorer(threshold: float = DEFAULT_THRESHOLD, spans_key: str | None = None,
                            prefix: str | None = None) -> Callable[..., dict[str, Any]]:
    """Build the scorer registered as ``spacy_anno_eval.noisy_spans_scorer.v1``.

    threshold (float): an entity is recognised when edit distance / gold length <= threshold (nerval: 0.30).
    spans_key (str | None): ``doc.spans`` key to score; None scores ``doc.ents``.
    prefix (str | None): key prefix; default ``noisy_ents`` or ``noisy_spans_<key>``.
    """
    threshold = _check_threshold(threshold)
    if spans_key is not None and (not isinstance(spans_key, str) or not spans_key):
        raise ValueError(f"noisy_spans_scorer: spans_key must be a non-empty string or null, got {spans_key!r}")
    key_set = "ents" if spans_key is None else f"spans:{spans_key}"

    def scorer(examples: Iterable[Any], **kwargs: Any) -> dict[str, Any]:
        # kwargs come from the component's cfg (spaCy's TrainablePipe.score); the config wins
        return score_noisy_examples(examples, threshold, key_set=key_set, prefix=prefix)

    return scorer
