"""Which of two conflicting annotations is right: Brants & Skut's perplexity test (1998, section 4.3, Table 5).

"The program calculates the probabilities of the two different annotations.
This is intended to be a first step towards resolving conflicting
annotations automatically" (section 4). For every sentence where
annotations A and B *differ* (:func:`~.structure.annotation_signature`:
tags, structure, categories and functions -- what the models read),
:func:`resolve` computes ``PP(A)`` and ``PP(B)`` (:mod:`~.structure_model`,
section 4.2) and suggests the annotation with the lower perplexity; equal
perplexities (within a relative 1e-12) suggest nothing.

The models: ``model`` when given (e.g. trained on another treebank), else
k-fold cross-validation on the compared corpus itself (section 3.6): the
sentences are dealt into ``folds`` folds, both annotations of a sentence in
the same fold, and each sentence is judged by the models trained on *both*
annotations of the other folds (so neither side is favoured, and no
sentence judges itself).

With ``gold`` (an adjudicated version of the same sentences): a differing
sentence is *decidable* when exactly one of A and B equals gold. Table 5's
**accuracy** is how often, over the decidable sentences, the hypothesis "a
correct annotation has a lower perplexity than a wrong annotation" holds
(a tie counts as a failure: the hypothesis needs a strictly lower PP). The
**precision/recall curve** requires the difference ``|PP(A) - PP(B)|`` to
exceed a minimum ``d`` ("one can further increase precision at the cost of
recall by requiring the difference in perplexity to exceed some minimum
distance"): at each ``d``, ``suggested`` (decidable sentences with a
difference > d), ``correct`` (those whose suggestion equals gold),
``precision = correct / suggested``, ``recall = correct / decidable``.

Suggestions as JSONL rows (:meth:`Resolution.suggestions`)::

    {"sent_id": "12", "choose": "A", "pp_a": 3.1, "pp_b": 4.7}

``anno-eval adjudicate`` takes choices on *spans* (document, side, offsets,
label); a tree is no span set, so these rows are their own format: one row
per differing sentence with a suggestion, ``choose`` naming the annotation
to keep.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from ..errors import InputError
from ..figures import json_safe, ratio, warn_zero_division
from .conllu import Sentence
from .phrase import PhraseTree
from .structure import annotation_signature, label_keys, n_nodes, node_keys, tree_kind
from .structure_model import Doubt, StructureModel, cross_validated_models, fold_assignment

#: minimum perplexity differences of the default precision/recall curve
MIN_DIFFERENCES = (0.0, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0)


@dataclass(frozen=True)
class ResolvedSentence:
    """One sentence where A and B differ: both perplexities (``inf`` beyond float range; ``log_pp_*`` are
    always finite), ``n_a``/``n_b`` the node counts, ``suggestion`` ``"A"``, ``"B"`` or ``None`` (tie); with
    gold: ``a_gold``/``b_gold`` (equal to gold) and ``correct`` (decidable and the suggestion is the gold
    one; ``None`` when not decidable)."""

    sent_id: str
    pp_a: float
    pp_b: float
    log_pp_a: float
    log_pp_b: float
    n_a: int
    n_b: int
    suggestion: str | None
    a_gold: bool | None = None
    b_gold: bool | None = None
    correct: bool | None = None

    @property
    def difference(self) -> float:
        """``|PP(A) - PP(B)|`` from the log perplexities (``inf`` beyond float range)."""
        hi, lo = max(self.log_pp_a, self.log_pp_b), min(self.log_pp_a, self.log_pp_b)
        if hi == lo:
            return 0.0
        log_diff = hi + math.log(-math.expm1(lo - hi))
        return math.exp(log_diff) if log_diff < 709.0 else math.inf

    @property
    def decidable(self) -> bool:
        return self.a_gold is not None and self.a_gold != self.b_gold

    def to_dict(self) -> dict[str, Any]:
        return json_safe({**asdict(self), "difference": self.difference})


@dataclass(frozen=True)
class Resolution:
    """What :func:`resolve` found: ``sentences`` (every one where A and B differ), ``compared`` (pairs),
    ``identical``; with gold, ``decidable``, ``accuracy`` (Table 5, last row) and ``curve`` (one dict per
    minimum difference). ``folds`` is 0 when a given model judged the sentences."""

    sentences: tuple[ResolvedSentence, ...]
    compared: int
    identical: int
    folds: int
    gold: bool = False
    curve: tuple[dict[str, Any], ...] = ()
    decidable: int = 0
    accuracy: float | None = None
    settings: dict[str, Any] = field(default_factory=dict)

    def rows(self) -> list[dict[str, Any]]:
        """One JSON-ready dict per differing sentence."""
        return [s.to_dict() for s in self.sentences]

    def suggestions(self) -> list[dict[str, Any]]:
        """``{"sent_id", "choose": "A"|"B", "pp_a", "pp_b"}`` for every differing sentence with a suggestion
        (module docstring); an infinite perplexity is ``None``."""
        return [json_safe({"sent_id": s.sent_id, "choose": s.suggestion, "pp_a": s.pp_a, "pp_b": s.pp_b})
                for s in self.sentences if s.suggestion is not None]

    def by_id(self) -> dict[str, ResolvedSentence]:
        return {s.sent_id: s for s in self.sentences}

    def to_dict(self) -> dict[str, Any]:
        """Everything, JSON-ready (no NaN, no infinity)."""
        return json_safe({"compared": self.compared, "identical": self.identical, "differing": len(self.sentences),
                          "suggested": sum(s.suggestion is not None for s in self.sentences),
                          "folds": self.folds, "gold": self.gold, "decidable": self.decidable,
                          "accuracy": self.accuracy, "curve": list(self.curve), "settings": self.settings,
                          "sentences": self.rows()})


def pair_trees(a_trees: Sequence[Any], b_trees: Sequence[Any], what: tuple[str, str] = ("A", "B")) -> list[tuple]:
    """Pair two versions of a treebank by sentence id; a sentence of one missing from the other, a repeated
    id, or a pair with different numbers of words is an :class:`InputError` naming it."""
    def index(trees: Sequence[Any], name: str) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for t in trees:
            tree_kind(t)
            if t.sent_id in out:
                raise InputError(f"{name}: sentence id {t.sent_id!r} repeats")
            out[t.sent_id] = t
        return out
    a, b = index(a_trees, what[0]), index(b_trees, what[1])
    for x, y, nx, ny in ((a, b, *what), (b, a, what[1], what[0])):
        missing = [sid for sid in x if sid not in y]
        if missing:
            shown = ", ".join(repr(s) for s in missing[:5]) + (f" and {len(missing) - 5} more" if len(missing) > 5
                                                               else "")
            raise InputError(f"sentence {shown} of {nx} is not in {ny}; both must hold the same sentences")
    pairs = []
    for sid, ta in a.items():
        tb = b[sid]
        if tree_kind(ta) != tree_kind(tb) or len(ta.words) != len(tb.words):
            raise InputError(f"sentence {sid!r}: {what[0]} has {len(ta.words)} words ({tree_kind(ta)} tree), "
                             f"{what[1]} {len(tb.words)} ({tree_kind(tb)} tree); the annotations must share words")
        pairs.append((sid, ta, tb))
    return pairs


def resolve(a_trees: Sequence[PhraseTree | Sentence], b_trees: Sequence[PhraseTree | Sentence], *,
            model: StructureModel | None = None, folds: int = 10, seed: int = 0,
            gold: Sequence[PhraseTree | Sentence] | None = None,
            min_differences: Sequence[float] = MIN_DIFFERENCES) -> Resolution:
    """Perplexities and suggestions for every sentence where A and B differ (module docstring)."""
    a_trees, b_trees = list(a_trees), list(b_trees)
    pairs = pair_trees(a_trees, b_trees)
    if not pairs:
        raise InputError("no sentence to compare")
    gold_by_id = None
    if gold is not None:
        gold_by_id = {sid: g for sid, _, g in pair_trees(a_trees, list(gold), ("A", "gold"))}
    pair_fold = fold_assignment(len(pairs), folds, seed) if model is None else None
    n_folds = 0 if pair_fold is None else int(pair_fold.max()) + 1
    differing = [(sid, ta, tb) for sid, ta, tb in pairs if annotation_signature(ta) != annotation_signature(tb)]
    lp_a = np.zeros(len(differing))
    lp_b = np.zeros(len(differing))
    if differing:
        if model is not None:
            lp_a = model.log_probs([ta for _, ta, _ in differing])
            lp_b = model.log_probs([tb for _, _, tb in differing])
        else:
            models = cross_validated_models([ta for _, ta, _ in pairs] + [tb for _, _, tb in pairs],
                                            groups=np.concatenate([pair_fold, pair_fold]))
            fold_model = {f: models[i] for i, f in enumerate(pair_fold)}
            position = {sid: i for i, (sid, _, _) in enumerate(pairs)}
            folds_of = np.array([pair_fold[position[sid]] for sid, _, _ in differing])
            for f in np.unique(folds_of):
                rows = np.flatnonzero(folds_of == f)
                lp_a[rows] = fold_model[f].log_probs([differing[r][1] for r in rows])
                lp_b[rows] = fold_model[f].log_probs([differing[r][2] for r in rows])
    sentences = []
    for (sid, ta, tb), la, lb in zip(differing, lp_a, lp_b, strict=True):
        na, nb = n_nodes(ta), n_nodes(tb)
        ppa, ppb = -la / na, -lb / nb
        suggestion = None if math.isclose(ppa, ppb, rel_tol=1e-12, abs_tol=1e-300) else ("A" if ppa < ppb else "B")
        a_gold = b_gold = correct = None
        if gold_by_id is not None:
            g = annotation_signature(gold_by_id[sid])
            a_gold, b_gold = annotation_signature(ta) == g, annotation_signature(tb) == g
            if a_gold != b_gold:
                correct = suggestion == ("A" if a_gold else "B")
        sentences.append(ResolvedSentence(sid, _exp(ppa), _exp(ppb), float(ppa), float(ppb), na, nb, suggestion,
                                          a_gold, b_gold, correct))
    settings = {"folds": folds if model is None else None, "seed": seed if model is None else None,
                "model": "given" if model is not None else "cross-validated"}
    res = Resolution(tuple(sentences), len(pairs), len(pairs) - len(differing), n_folds, settings=settings)
    if gold_by_id is None:
        return res
    return _with_gold(res, min_differences)


def _exp(log_pp: float) -> float:
    return math.exp(log_pp) if log_pp < 709.0 else math.inf


def _with_gold(res: Resolution, min_differences: Sequence[float]) -> Resolution:
    dec = [s for s in res.sentences if s.decidable]
    undefined = []
    acc = ratio(np.array(sum(bool(s.correct) for s in dec)), np.array(len(dec)))
    if not dec:
        undefined.append("accuracy")
    curve = []
    for d in sorted(float(x) for x in min_differences):
        made = [s for s in dec if s.suggestion is not None and s.difference > d]
        correct = sum(bool(s.correct) for s in made)
        if not made:
            undefined.append(f"precision at {d:g}")
        curve.append({"min_difference": d, "suggested": len(made), "correct": correct,
                      "precision": float(ratio(np.array(correct), np.array(len(made)))),
                      "recall": float(ratio(np.array(correct), np.array(len(dec))))})
    if not dec:
        undefined.extend(f"recall at {d:g}" for d in sorted(float(x) for x in min_differences))
    warn_zero_division(undefined, 0.0, stacklevel=3)
    return Resolution(res.sentences, res.compared, res.identical, res.folds, True, tuple(curve), len(dec),
                      float(acc), res.settings)


def check_doubts(doubts: Sequence[Doubt], trees: Sequence[PhraseTree | Sentence],
                 gold: Sequence[PhraseTree | Sentence]) -> dict[str, Any]:
    """How good the doubt list is against ``gold``: ``listed`` (doubts that contradict the annotation),
    ``wrong`` (of those, labels that differ from gold: really wrong), ``precision = wrong / listed``;
    ``errors`` (labels of ``trees`` that differ from gold, of the kinds the doubts decide), ``recall =
    wrong / errors``; ``unmatched``: listed labels with no counterpart in gold (a node gold does not have).
    Labels are matched by word index and node yield, not by node id."""
    pairs = pair_trees(list(trees), list(gold), ("the annotation", "gold"))
    keyed = {sid: (t, label_keys(t), label_keys(g), node_keys(t) if isinstance(t, PhraseTree) else {})
             for sid, t, g in pairs}
    kinds = {d.kind for d in doubts} or {"function"}
    errors = sum(1 for _, lt, lg, _ in keyed.values() for k, v in lt.items() if k[0] in kinds and lg.get(k) != v)
    listed = wrong = unmatched = 0
    for d in doubts:
        if not d.contradicts:
            continue
        listed += 1
        if d.sent_id not in keyed:
            raise InputError(f"doubt on sentence {d.sent_id!r}, which the annotation does not have")
        _, lt, lg, nk = keyed[d.sent_id]
        key = (d.kind, "w", d.word) if d.word is not None else (d.kind, *nk[d.node])
        if key not in lg:
            unmatched += 1
        elif lg[key] != lt[key]:
            wrong += 1
    warn_zero_division([name for name, den in (("precision", listed), ("recall", errors)) if not den], 0.0,
                       stacklevel=2)
    return {"listed": listed, "wrong": wrong, "unmatched": unmatched, "errors": errors,
            "precision": float(ratio(np.array(wrong), np.array(listed))),
            "recall": float(ratio(np.array(wrong), np.array(errors)))}


__all__ = ["MIN_DIFFERENCES", "ResolvedSentence", "Resolution", "check_doubts", "pair_trees", "resolve"]
