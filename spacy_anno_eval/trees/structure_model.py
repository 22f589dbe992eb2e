"""Brants & Skut's models of an annotation: function tagging, category choice, P(A), perplexity, reliability.

Brants and Skut (1998, "Automation of Treebank Annotation"):

- **Section 3.1, functions.** "Each category (S, VP, NP, PP etc.) defines a
  separate Markov model": for a phrase of category ``Q`` with children's
  categories ``T = T_1..T_k`` (outputs) and grammatical functions ``G =
  G_1..G_k`` (states), a trigram model (:class:`~.tnt.TrigramHMM`, Brants'
  TnT: deleted interpolation, end transition included)::

      P_Q(T, G) = prod_j P_Q(T_j | G_j) P_Q(G_j | G_{j-2}, G_{j-1})  *  P_Q(EOS | G_{k-1}, G_k)

  One model per parent category; a category never seen as a parent in
  training is read by the *pooled* model (all phrases of all categories).
- **Section 3.2, categories.** "Given the categories of the children nodes
  in a phrase, we can run these models in parallel. The model that assigns
  the most probable sequence of grammatical functions determines the
  category": the category of a node is ``argmax_Q P(Q) max_G P_Q(T, G)``,
  every category model reading the same sequence, the children's categories
  ``T`` (with their functions as its hidden states), ``P(Q)`` the relative
  frequency of ``Q`` among the (non-root) phrases of the training trees; the
  root's category is no decision; dependency trees have no category
  decisions (their "categories" are the heads' part-of-speech tags).
- **Section 4.2, probability and perplexity.** "The probabilities of each
  sub-structure of depth one are calculated separately ... the product of
  these probabilities is used as a scoring function"::

      P(A) = prod_{phrases Q_i of A} P_{Q_i}(T_i, G_i),      PP(A) = P(A)^(-1/n)

  over every phrase of :func:`~.structure.substructures` (the virtual root's
  included, so every word and node is scored once as a child), each with the
  end transition (the paper's printed product has none; the models are
  trained with it, as NLTK's TnT, so ``P_Q`` is a distribution over
  sequences of every length). ``n`` is the number of nodes, nonterminals plus
  words ("n number of nodes = n_nt + n_t"; dependency trees: words). No
  ``P(Q)`` factor: a node's category is scored as an output of its parent's
  phrase.
- **Section 3.5, reliability.** Per decision, the quotient ``P_best /
  P_second`` of the best and the second-best alternative: below ``theta1``
  *unreliable*, above ``theta2`` *reliable*, between (or equal to either)
  *almost reliable* (section 3.6: 5 and 100). For a function, ``P_best`` is
  the probability of the best function sequence (Viterbi) and ``P_second``
  that of the best sequence with another function at that child
  (:meth:`~.tnt.TrigramHMM.alternatives`): the decisions are TnT's Viterbi
  decisions and the quotient compares whole assignments, as "the
  probability of the alternative comes very close to that of the best
  sequence of labels". For a category, the two best ``P(Q) max_G P_Q(T,
  G)``.
- **Section 3.6, cross-validation.** :func:`cross_validated_models` gives
  each tree the model trained on the other folds; counts are summed once and
  each fold's subtracted.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from ..errors import ConfigError, InputError
from ..figures import json_safe
from .conllu import Sentence
from .phrase import PhraseTree
from .structure import HEAD, n_nodes, substructures, tree_kind
from .tnt import LN2, Counts, TrigramHMM, count_flat

LEVELS = ("unreliable", "almost reliable", "reliable")
#: Brants & Skut's thresholds (section 3.6)
THETA1, THETA2 = 5.0, 100.0
POOLED = "*"


def check_thresholds(theta1: Any, theta2: Any) -> tuple[float, float]:
    """``(theta1, theta2)`` as floats; a :class:`ConfigError` unless ``1 <= theta1 <= theta2``."""
    try:
        t1, t2 = float(theta1), float(theta2)
    except (TypeError, ValueError):
        raise ConfigError(f"theta1 and theta2 must be numbers, got {theta1!r} and {theta2!r}") from None
    if math.isnan(t1) or math.isnan(t2) or t1 < 1.0:
        raise ConfigError(f"theta1 = {theta1!r}: the quotient P_best / P_second is at least 1, so theta1 must be "
                          f"a number >= 1 (Brants & Skut: 5)")
    if t1 > t2:
        raise ConfigError(f"theta1 = {t1:g} is greater than theta2 = {t2:g}; section 3.5 needs theta1 <= theta2 "
                          f"(Brants & Skut: 5 and 100)")
    return t1, t2


def reliability(quotient: float, theta1: float = THETA1, theta2: float = THETA2) -> str:
    """Section 3.5's level of a quotient ``P_best / P_second``.

    >>> reliability(4.9), reliability(5.0), reliability(100.0), reliability(100.5)
    ('unreliable', 'almost reliable', 'almost reliable', 'reliable')
    """
    if quotient < theta1:
        return LEVELS[0]
    if quotient > theta2:
        return LEVELS[2]
    return LEVELS[1]


def _quotient(log_best: float, log_second: float) -> float:
    """``exp(log_best - log_second)``; ``inf`` without a second alternative or beyond float range."""
    if log_second == -math.inf:
        return math.inf
    d = log_best - log_second
    return math.exp(d) if d < 709.0 else math.inf


@dataclass(frozen=True)
class Doubt:
    """One decision of the models on one label of an annotation (section 3.5). ``node``: the node id (a node's
    function or category), ``word``: the 1-based word (a word's function, a dependent's relation); ``kind``
    ``"function"`` or ``"category"``; ``given`` the annotation's label, ``best`` and ``second`` the model's two best
    (``second`` ``None`` when nothing else can be), ``quotient`` ``P_best / P_second`` (``inf`` without a second),
    ``level`` its reliability (an infinite quotient is reliable, as section 3.5 reads, though such contradictions
    come from sparse data more often; a dependent's ``<HEAD>`` candidate is skipped); ``contradicts``: reliable,
    and the annotation's label is not the best. ``parent``: the category of the phrase the function is decided in."""

    sent_id: str
    node: int | None
    word: int | None
    kind: str
    given: str
    best: str
    second: str | None
    quotient: float
    level: str
    contradicts: bool
    parent: str = ""

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready (an infinite quotient is ``None``)."""
        return json_safe(asdict(self))


class StructureModel:
    """The models of one training treebank (:meth:`fit`): ``models`` one :class:`~.tnt.TrigramHMM` per
    parent category, ``pooled`` the fallback, ``category_counts`` the non-root phrases per category
    (``P(Q)``); ``kind`` ``"phrase"`` or ``"dependency"``."""

    def __init__(self, kind: str, models: dict[str, TrigramHMM], pooled: TrigramHMM,
                 category_counts: dict[str, float]):
        self.kind = kind
        self.models = models
        self.pooled = pooled
        self.category_counts = {c: n for c, n in category_counts.items() if n > 0}

    @classmethod
    def fit(cls, trees: Iterable[PhraseTree | Sentence]) -> StructureModel:
        """Train on phrase trees or on dependency trees (not both)."""
        trees = list(trees)
        if not trees:
            raise InputError("no tree to train the models on")
        return _Bank(trees).model()

    def __repr__(self) -> str:
        return f"StructureModel({self.kind}, {len(self.models)} category models)"

    def model_for(self, category: str) -> TrigramHMM:
        """The model of ``category``, or the pooled model when ``category`` was never a parent in training."""
        return self.models.get(category, self.pooled)

    def _check(self, tree: Any) -> None:
        kind = tree_kind(tree)
        if kind != self.kind:
            raise InputError(f"sentence {tree.sent_id}: a {kind} tree, but the model was trained on {self.kind} "
                             f"trees")

    # -- section 4.2 ----------------------------------------------------------------------------------------

    def log_probs(self, trees: Sequence[PhraseTree | Sentence]) -> np.ndarray:
        """``ln P(A)`` of every tree (section 4.2), vectorised per category model."""
        for tree in trees:
            self._check(tree)
        return self._log_probs(_Flat.of(trees), len(trees))

    def _log_probs(self, flat: _Flat, n_trees: int) -> np.ndarray:
        total = np.zeros(n_trees)
        if not len(flat.lengths):
            return total
        known = np.isin(flat.categories, np.array(list(self.models), dtype=str)) if self.models else \
            np.zeros(len(flat.categories), dtype=bool)
        keys = np.where(known, flat.categories, POOLED)
        for key in np.unique(keys):
            model = self.models.get(str(key), self.pooled)
            phrases = keys == key
            tokens = np.repeat(phrases, flat.lengths)
            o = _lookup(model.outputs, flat.outputs[tokens])
            st = _lookup(model.states, flat.states[tokens])
            sums = model.log2_batch(o, st, flat.lengths[phrases])
            np.add.at(total, flat.owners[phrases], sums)
        return total * LN2

    def log_prob(self, tree: PhraseTree | Sentence) -> float:
        """``ln P(A)``: the sum over the phrases of ``ln P_Q(T, G)`` (module docstring, section 4.2)."""
        return float(self.log_probs([tree])[0])

    def log_perplexity(self, tree: PhraseTree | Sentence) -> float:
        """``ln PP(A) = -ln P(A) / n`` (finite where :meth:`perplexity` overflows)."""
        n = n_nodes(tree)
        if not n:
            raise InputError(f"sentence {tree.sent_id}: no word, no perplexity")
        return -self.log_prob(tree) / n

    def perplexity(self, tree: PhraseTree | Sentence) -> float:
        """``PP(A) = P(A)^(-1/n)``, ``n`` = nonterminals + words (dependency trees: words); ``inf`` beyond
        float range."""
        lp = self.log_perplexity(tree)
        return math.exp(lp) if lp < 709.0 else math.inf

    # -- sections 3.2 and 3.5 -------------------------------------------------------------------------------

    def category_scores(self, outputs: Sequence[str]) -> list[tuple[str, float]]:
        """``(Q, ln P(Q) + ln max_G P_Q(T, G))`` for every category seen as a non-root parent, best first
        (section 3.2; ties by name)."""
        total = sum(self.category_counts.values())
        scores = [(c, math.log(n / total) + self.models[c].best_log_prob(outputs))
                  for c, n in self.category_counts.items() if c in self.models]
        return sorted(scores, key=lambda cs: (-cs[1], cs[0]))

    def doubt(self, tree: PhraseTree | Sentence, theta1: float = THETA1, theta2: float = THETA2) -> list[Doubt]:
        """Every function decision (each child of each phrase, ``<HEAD>`` markers excepted) and every category
        decision (each node of a phrase tree) with the model's best and second best and the section 3.5
        level; see :class:`Doubt`."""
        t1, t2 = check_thresholds(theta1, theta2)
        self._check(tree)
        out: list[Doubt] = []
        phrases = substructures(tree)
        for p in phrases:
            alts = self.model_for(p.category).alternatives(p.outputs)
            for (best, lb, second, ls), given, (node, word), decided in zip(alts, p.states, p.children, p.decided,
                                                                          strict=True):
                if decided:
                    if best == HEAD:  # a dependent is never the head: its best is the next candidate
                        best, lb, second, ls = second, ls, "", -math.inf
                    elif second == HEAD:
                        second, ls = "", -math.inf
                    if not best:
                        continue  # nothing but the head marker fits: no decision to judge
                    out.append(_doubt(tree.sent_id, node, word, "function", given, best, second or None,
                                      _quotient(lb, ls), t1, t2, p.category))
        if self.kind == "phrase" and self.category_counts:
            for p in phrases:
                if p.root:
                    continue
                scores = self.category_scores(p.outputs)
                (best, lb), (second, ls) = scores[0], scores[1] if len(scores) > 1 else (None, -math.inf)
                out.append(_doubt(tree.sent_id, p.node, None, "category", p.category, best, second,
                                  _quotient(lb, ls), t1, t2, ""))
        return out


def _doubt(sid: str, node: int | None, word: int | None, kind: str, given: str, best: str, second: str | None,
           q: float, t1: float, t2: float, parent: str) -> Doubt:
    # no second alternative: an infinite quotient, reliable by section 3.5's rule; such contradictions are less
    # precise than finite ones (benchmarks/study_brants_skut.py: 17-49 % against 70-98 %), and the rows say so
    # with second None, for a reader to weigh
    level = reliability(q, t1, t2)
    return Doubt(sid, node, word, kind, given, best, second, q, level, level == LEVELS[2] and given != best, parent)


def _lookup(vocab: Sequence[str], xs: np.ndarray) -> np.ndarray:
    """The index of each string of ``xs`` in ``vocab``, ``len(vocab)`` for one not in it (vectorised)."""
    if not len(vocab):
        return np.zeros(len(xs), dtype=np.int64)
    v = np.array(vocab, dtype=str)
    order = np.argsort(v, kind="stable")
    sv = v[order]
    pos = np.minimum(np.searchsorted(sv, xs), len(sv) - 1)
    return np.where(sv[pos] == xs, order[pos], len(vocab)).astype(np.int64)


@dataclass(frozen=True)
class _Flat:
    """The phrases of several trees as flat numpy arrays: per phrase its category, length, owner (tree
    index), whether it is the root's; per child its output and state."""

    categories: np.ndarray
    lengths: np.ndarray
    owners: np.ndarray
    roots: np.ndarray
    outputs: np.ndarray
    states: np.ndarray

    @classmethod
    def of(cls, trees: Sequence[PhraseTree | Sentence]) -> _Flat:
        cats, lens, owners, roots, outs, sts = [], [], [], [], [], []
        for i, tree in enumerate(trees):
            for p in substructures(tree):
                cats.append(p.category)
                lens.append(len(p.states))
                owners.append(i)
                roots.append(p.root)
                outs.extend(p.outputs)
                sts.extend(p.states)
        return cls(np.array(cats, dtype=str), np.array(lens, dtype=np.int64), np.array(owners, dtype=np.int64),
                   np.array(roots, dtype=bool), np.array(outs, dtype=str), np.array(sts, dtype=str))


class _Bank:
    """The counts of a treebank per category (and pooled), per fold when folds are given, so that a fold's
    model is the total minus the fold (section 3.6 without training k models from scratch)."""

    def __init__(self, trees: Sequence[PhraseTree | Sentence], folds: np.ndarray | None = None):
        kinds = {tree_kind(t) for t in trees}
        if len(kinds) > 1:
            raise InputError("phrase trees and dependency trees mixed in one treebank; train on one kind")
        self.kind = kinds.pop()
        self.flat = flat = _Flat.of(trees)
        self.n_folds = 0 if folds is None else int(folds.max()) + 1
        tree_fold = folds if folds is not None else np.zeros(len(trees), dtype=np.int64)
        phrase_fold = tree_fold[flat.owners]
        self.cats = [str(c) for c in np.unique(flat.categories)]
        self.category_counts = np.zeros((max(self.n_folds, 1), len(self.cats)))
        cat_of_phrase = np.searchsorted(np.array(self.cats, dtype=str), flat.categories)
        np.add.at(self.category_counts, (phrase_fold[~flat.roots], cat_of_phrase[~flat.roots]), 1)
        self.vocab: dict[str, tuple[list[str], list[str]]] = {}
        self.counts: dict[str, Counts] = {}
        self.fold_counts: dict[str, list[Counts]] = {}
        for j, key in [*enumerate(self.cats), (None, POOLED)]:
            phrases = np.ones(len(flat.lengths), dtype=bool) if j is None else cat_of_phrase == j
            tokens = np.repeat(phrases, flat.lengths)
            st_names, s = np.unique(flat.states[tokens], return_inverse=True)
            ou_names, o = np.unique(flat.outputs[tokens], return_inverse=True)
            ln = flat.lengths[phrases]
            st, ou = [str(x) for x in st_names], [str(x) for x in ou_names]
            self.vocab[key] = (st, ou)
            self.counts[key] = count_flat(o, s, ln, len(st), len(ou))
            if folds is not None:
                owner = phrase_fold[phrases]
                token_owner = np.repeat(owner, ln)
                self.fold_counts[key] = [count_flat(o[token_owner == f], s[token_owner == f], ln[owner == f],
                                                    len(st), len(ou)) for f in range(self.n_folds)]

    def model(self, fold: int | None = None) -> StructureModel:
        """The model of all trees, or of all but fold ``fold``."""
        models = {}
        for key in [*self.cats, POOLED]:
            counts = self.counts[key] if fold is None else self.counts[key] - self.fold_counts[key][fold]
            if counts.uni.sum() > 0:
                models[key] = TrigramHMM.from_counts(*self.vocab[key], counts)
        pooled = models.pop(POOLED, None)
        if pooled is None:
            raise InputError("no phrase left to train on (every tree is in the held-out fold)")
        cc = self.category_counts.sum(axis=0) - (self.category_counts[fold] if fold is not None else 0)
        return StructureModel(self.kind, models, pooled, {c: float(n) for c, n in zip(self.cats, cc, strict=True)})


def fold_assignment(n: int, folds: int = 10, seed: int = 0) -> np.ndarray:
    """The fold (``0..k-1``, ``k = min(folds, n)``) of each of ``n`` items: a random permutation (``seed``)
    dealt round-robin, so fold sizes differ by at most one."""
    if isinstance(folds, bool) or not isinstance(folds, (int, np.integer)) or folds < 2:
        raise ConfigError(f"folds = {folds!r}: cross-validation needs an integer number of folds >= 2 "
                          f"(Brants & Skut: 10)")
    if n < 2:
        raise InputError(f"cross-validation needs at least 2 sentences; got {n}")
    k = min(int(folds), n)
    perm = np.random.default_rng(seed).permutation(n)
    out = np.empty(n, dtype=np.int64)
    out[perm] = np.arange(n) % k
    return out


def cross_validated_models(trees: Sequence[PhraseTree | Sentence], folds: int = 10, seed: int = 0, *,
                           groups: np.ndarray | None = None) -> list[StructureModel]:
    """For each tree, the model trained on the trees of the other folds (section 3.6: "90% training data and
    10% test data ... repeated ten times"); trees of one fold share one model. ``groups`` (optional): the
    fold of each tree given directly (e.g. two annotations of a sentence in the same fold)."""
    trees = list(trees)
    assigned = fold_assignment(len(trees), folds, seed) if groups is None else np.asarray(groups, dtype=np.int64)
    if len(assigned) != len(trees):
        raise ConfigError(f"{len(assigned)} fold numbers for {len(trees)} trees")
    bank = _Bank(trees, assigned)
    models = [bank.model(f) for f in range(bank.n_folds)]
    return [models[f] for f in assigned]


def doubts(trees: Sequence[PhraseTree | Sentence], *, model: StructureModel | None = None, folds: int = 10,
           seed: int = 0, theta1: float = THETA1, theta2: float = THETA2) -> list[Doubt]:
    """:meth:`StructureModel.doubt` for every tree, with ``model`` or else each tree's cross-validated model
    (:func:`cross_validated_models`; the treebank judges itself, each tree by a model that never saw it)."""
    check_thresholds(theta1, theta2)
    trees = list(trees)
    models = [model] * len(trees) if model is not None else cross_validated_models(trees, folds, seed)
    return [d for tree, m in zip(trees, models, strict=True) for d in m.doubt(tree, theta1, theta2)]


__all__ = ["LEVELS", "THETA1", "THETA2", "Doubt", "StructureModel", "check_thresholds", "cross_validated_models",
           "doubts", "fold_assignment", "reliability"]
