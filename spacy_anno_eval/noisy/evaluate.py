"""Named-entity evaluation on noisy text (OCR / HTR output), compatible with nerval.

When the predicted text is the output of a text recogniser, it differs from the
gold text, and entities cannot be compared by offsets or tokens. nerval
(Teklia, ``teklia-nerval`` 0.3.3 on PyPI) aligns the two texts at
character level and matches entities through the alignment. This package
reproduces nerval's figures (predicted, matched, support, P, R, F1 per type and
for ``ALL``) and adds a per-entity table and MUC-style counts. The code is our
own; nerval's source was read to learn its exact behaviour.

Pipeline
--------

Each step is a module of :mod:`spacy_anno_eval.noisy`; this one computes the
figures (step 4) and evaluates files and spaCy Docs.

1. **Character tags** (:mod:`~spacy_anno_eval.noisy.reader`: :func:`parse_bio`, :func:`read_bio`;
   :mod:`~spacy_anno_eval.noisy.tags`: :func:`char_tags_from_spans`).
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

2. **Alignment** (:mod:`~spacy_anno_eval.noisy.align`: :func:`align_char_tags`). ``edlib.align(gold, pred,
   mode="NW", task="path")``, a global alignment of minimal Levenshtein
   distance; gaps are written ``-`` in :attr:`NoisyAlignment.gold_aligned` and
   :attr:`NoisyAlignment.pred_aligned` (a hyphen of the text is also shown as
   ``-`` there, but the arrays keep them apart). A gap takes the type of the
   previous character of its own string, as a continuation; a gap before the
   first character or after the last one is ``O``.

3. **Matching** (:mod:`~spacy_anno_eval.noisy.match`: :func:`match_entities`), nerval's ``compute_matches``: for each
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
   ``r = matched / support``, ``f`` = 2·p·r / (p + r), 0 when ``p + r == 0``.
   ``predicted`` / ``support`` is None for a type absent from the prediction
   / gold, as nerval prints it. Undefined figures follow the package's one
   policy (:mod:`spacy_anno_eval.figures`), not nerval's: a ratio whose
   denominator is 0 is ``zero_division`` (default 0.0; nerval prints None),
   ``f`` is ``zero_division`` when both ``p`` and ``r`` are, and one
   :class:`~spacy_anno_eval.errors.UndefinedFigureWarning` names them. Over
   several documents (:func:`evaluate_docs`) the counts are summed before the
   ratios (micro over documents; nerval's CSV mode averages per-file ALL
   figures instead).

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
  P = (COR + PAR/2) / ACT, R = (COR + PAR/2) / POS, F1; ``zero_division``
  where a denominator is 0 (:func:`~spacy_anno_eval.figures.ratio` and
  :func:`~spacy_anno_eval.figures.fbeta`, through
  :mod:`spacy_anno_eval.spans.measures`). COR, PAR, INC and MIS count under the gold type, SPU under the
  predicted type; ``all`` is the micro average (summed counts), ``macro`` the
  mean of the per-type P, R and F over the types that have a row
  (``zero_division`` when no type has one). The warning names nerval's
  figures only: a MUC ratio given ``zero_division`` is not named in it.
- ``alignment``: per document ``{"gold_aligned", "pred_aligned"}``, or None
  when the aligned strings are longer than ``max_alignment_chars``.
- spaCy Docs (:func:`evaluate_docs`) and the spaCy scorer
  (:mod:`spacy_anno_eval.pipeline.noisy_scorer`, registered
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

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import InputError
from ..figures import check_zero_division, fbeta, ratio, warn_zero_division
from .align import NoisyAlignment, align_char_tags
from .match import EntityMatch, match_entities, spurious
from .reader import read_bio
from .settings import (
    ALL,
    DEFAULT_BOUNDARY,
    DEFAULT_MAX_ALIGNMENT_CHARS,
    DEFAULT_THRESHOLD,
    check_boundary,
    check_threshold,
)
from .tags import CharTags, char_tags_from_spans

MUC_CLASSES = ("COR", "PAR", "INC", "MIS", "SPU")


@dataclass
class PairResult:
    """Everything computed for one gold / predicted document pair."""

    alignment: NoisyAlignment
    rows: list[EntityMatch]
    matched: dict[str, int]
    spurious: dict[str, int]


def evaluate_pair(gold: CharTags, pred: CharTags, threshold: float = DEFAULT_THRESHOLD, doc: int = 0,
                  source: str | None = None, boundary: str = DEFAULT_BOUNDARY) -> PairResult:
    """Align, match and count one document pair."""
    al = align_char_tags(gold, pred, source)
    rows, matched = match_entities(al, threshold, doc, boundary)
    spu = spurious(al)
    return PairResult(al, rows, matched, {al.labels[t]: int(c) for t, c in enumerate(spu.tolist()) if t and c})


def _figures(predicted: dict[str, int], matched: dict[str, int], support: dict[str, int], zero_division: float,
             undefined: list[str]) -> dict[str, dict[str, Any]]:
    """nerval's table: per type, then ``ALL`` (counts summed over types); ratios by the package's policy.

    P = matched / predicted, R = matched / support, F = 2PR / (P + R)
    (:func:`~spacy_anno_eval.figures.fbeta`, β = 1), ``zero_division`` where a
    denominator is 0 (their names are appended to ``undefined``).
    """
    types = sorted(set(support) | set(predicted))
    names = [*types, ALL]
    pred = np.array([predicted.get(t, 0) for t in types] + [sum(predicted.values())])
    sup = np.array([support.get(t, 0) for t in types] + [sum(support.values())])
    hit = np.array([matched.get(t, 0) for t in types] + [matched[ALL]])
    p, r = ratio(hit, pred, zero_division), ratio(hit, sup, zero_division)
    f = fbeta(p, r, 1.0, undefined=(pred == 0) & (sup == 0), zero_division=zero_division)
    undefined += [f"P of {n} (no predicted entity)" for n in np.asarray(names)[pred == 0].tolist()]
    undefined += [f"R of {n} (no gold entity)" for n in np.asarray(names)[sup == 0].tolist()]
    out = {}
    for i, name in enumerate(names):
        total = name == ALL
        out[name] = {"p": float(p[i]), "r": float(r[i]), "f": float(f[i]),
                     "predicted": int(pred[i]) if total or name in predicted else None, "matched": int(hit[i]),
                     "support": int(sup[i]) if total or name in support else None}
    return out


def _combine(pairs: Sequence[PairResult], threshold: float, max_alignment_chars: int,
             zero_division: float, boundary: str = DEFAULT_BOUNDARY) -> dict[str, Any]:
    """The result of several document pairs: counts summed, then the figures; warns once for undefined ratios."""
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
    undefined: list[str] = []
    per_type = _figures(predicted, matched, support, zero_division, undefined)
    overall = per_type.pop(ALL)
    warn_zero_division(undefined, zero_division, stacklevel=3)
    return {
        "threshold": threshold,
        "boundary": boundary,
        "zero_division": zero_division,
        "all": overall,
        "per_type": per_type,
        "entities": [r.to_dict() for r in rows],
        "muc": _muc(rows, spurious, zero_division),
        "alignment": alignment,
    }


def _muc(rows: list[EntityMatch], spurious: dict[str, int], zero_division: float) -> dict[str, Any]:
    """MUC counts and P/R/F per type, micro (``all``) and macro over types (Chinchor 1992); see the module."""
    from ..spans.measures import prf

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
    res = prf(*(counts[:, i] for i in range(5)), 1.0, zero_division)
    keys = ("COR", "PAR", "INC", "MIS", "SPU", "POS", "ACT")

    def row(i: int) -> dict[str, Any]:
        out: dict[str, Any] = {k: int(res[k][i]) for k in keys}
        out.update({k: float(res[k][i]) for k in ("p", "r", "f")})
        return out

    # the mean over the types; over no type a 0/0, so ``zero_division`` (the package's one rule)
    macro = {k: float(ratio(np.sum(res[k][:-1]), len(types), zero_division)) for k in ("p", "r", "f")}
    return {"all": row(len(types)), "per_type": {t: row(i) for i, t in enumerate(types)}, "macro": macro}


def evaluate_files(gold_path: str | Path, pred_path: str | Path, threshold: float = DEFAULT_THRESHOLD, *,
                   max_alignment_chars: int = DEFAULT_MAX_ALIGNMENT_CHARS,
                   zero_division: float = 0.0, boundary: str = DEFAULT_BOUNDARY) -> dict[str, Any]:
    """Evaluate a predicted BIO/BIOES file against a gold one, as ``nerval -a gold -p pred -t threshold``.

    ``boundary``: ``"inclusive"`` (an entity matches when edit distance / gold length <= threshold, as
    nerval 0.3.3's code; the default) or ``"exclusive"`` (< threshold, as nerval's README says).
    Returns a JSON-ready dict: ``threshold``, ``boundary``, ``all`` and ``per_type``
    (``p``, ``r``, ``f``, ``predicted``, ``matched``, ``support``; a ratio
    with a zero denominator is ``zero_division``, a count of a type absent
    from one side None as nerval prints it), ``zero_division``, ``entities``,
    ``muc`` and ``alignment`` (one entry, the file being one document); see
    the module docstring.
    """
    from ..files import check_path

    gold_path, pred_path = check_path(gold_path, "gold_path"), check_path(pred_path, "pred_path")
    threshold = check_threshold(threshold)
    boundary = check_boundary(boundary)
    zero_division = check_zero_division(zero_division)
    gold = read_bio(gold_path)
    pred = read_bio(pred_path)
    pair = evaluate_pair(gold, pred, threshold, source=f"{gold_path} / {pred_path}", boundary=boundary)
    return _combine([pair], threshold, max_alignment_chars, zero_division, boundary)


def evaluate_docs(gold_docs: Iterable[Any], pred_docs: Iterable[Any], *, threshold: float = DEFAULT_THRESHOLD,
                  key_set: str = "ents", response_set: str | None = None,
                  max_alignment_chars: int = DEFAULT_MAX_ALIGNMENT_CHARS,
                  zero_division: float = 0.0, boundary: str = DEFAULT_BOUNDARY) -> dict[str, Any]:
    """Evaluate predicted spaCy Docs against gold Docs whose texts may differ (``boundary``: as
    :func:`evaluate_files`).

    ``key_set`` / ``response_set`` select the spans (``ents`` or
    ``spans:<key>``; the response set defaults to the key set). Each pair is
    aligned on ``doc.text``; counts are summed over the pairs. Same result
    layout as :func:`evaluate_files`, with one ``alignment`` entry per pair
    and the pair's index in each entity row's ``doc``. Messages name a Doc by
    its id (:func:`~spacy_anno_eval.annotations.docs.doc_id`: its position
    when its ``user_data`` gives none).
    """
    from ..annotations.docs import doc_id, doc_spans

    threshold = check_threshold(threshold)
    boundary = check_boundary(boundary)
    zero_division = check_zero_division(zero_division)
    response_set = response_set or key_set
    gold_docs, pred_docs = list(gold_docs), list(pred_docs)
    if len(gold_docs) != len(pred_docs):
        raise InputError(f"{len(gold_docs)} gold docs but {len(pred_docs)} predicted docs: "
                         f"pass one prediction per gold doc, in the same order")
    pairs = []
    for d, (g, p) in enumerate(zip(gold_docs, pred_docs, strict=True)):
        gold_id, pred_id = doc_id(g, d), doc_id(p, d)
        gold = char_tags_from_spans(g.text, doc_spans(g, key_set), f"gold doc {gold_id} ({key_set})")
        pred = char_tags_from_spans(p.text, doc_spans(p, response_set), f"predicted doc {pred_id} ({response_set})")
        pairs.append(evaluate_pair(gold, pred, threshold, d, f"doc {gold_id}", boundary))
    return _combine(pairs, threshold, max_alignment_chars, zero_division, boundary)


__all__ = ["MUC_CLASSES", "PairResult", "evaluate_docs", "evaluate_files", "evaluate_pair"]
