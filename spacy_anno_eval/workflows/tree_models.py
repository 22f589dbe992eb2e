"""Brants & Skut's models at work on treebanks: which of two annotations to keep, which labels to doubt.

The statistical half of Brants and Skut (1998, "Automation of Treebank
Annotation") lives in :mod:`spacy_anno_eval.trees` (:mod:`~spacy_anno_eval.trees.structure_model`,
:mod:`~spacy_anno_eval.trees.resolution`). This module is what the doors
call (``anno-eval trees --resolve`` / ``--doubt`` and the Python API): it
reads the treebanks, decides *which model judges which sentence*, and keeps
what a report needs (the sentences' words, the doubts' places) on one
result, so that renderers only format.

Which models judge (one rule for both commands):

- ``train`` given: the models trained on that treebank judge every sentence
  (nothing of the judged corpus is learnt);
- :func:`resolve_treebanks` without ``train``: k-fold cross-validation on the
  compared corpus, both annotations of a sentence in one fold, each sentence
  judged by the models of the other folds
  (:func:`~spacy_anno_eval.trees.resolution.resolve`, section 3.6);
- :func:`doubt_treebank` of one treebank without ``train``: k-fold
  cross-validation on that treebank (each sentence judged by models that
  never saw it); with a ``reference`` (``anno-eval trees A B --doubt``): the
  models trained on the reference (A) judge the treebank (B).

Either way the model learns from annotations of the same kind as those it
judges, errors included: a label that is wrong often enough becomes the
model's own choice. The figures say how well the annotations agree with the
corpus's habits, not whether they are right.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import ConfigError, InputError
from ..figures import json_safe
from ..trees.conllu import Sentence, read_conllu
from ..trees.phrase import PhraseTree
from ..trees.records import format_ids
from ..trees.resolution import Resolution, check_doubts, resolve
from ..trees.structure_model import THETA1, THETA2, Doubt, StructureModel, check_thresholds, doubts

Tree = PhraseTree | Sentence
#: the columns of :meth:`DoubtReport.rows` (the ``--doubts`` file)
DOUBT_COLUMNS = ("sent_id", "kind", "word", "node", "yield", "form", "parent", "given", "best", "second",
                 "quotient", "level")


@dataclass(frozen=True)
class TreeModelSettings:
    """The settings of both commands, checked once: ``folds`` (cross-validation, an integer >= 2), ``seed``
    (how the folds are dealt), ``theta1`` <= ``theta2`` (section 3.5's thresholds, each >= 1)."""

    folds: int = 10
    seed: int = 0
    theta1: float = THETA1
    theta2: float = THETA2

    def __post_init__(self) -> None:
        if isinstance(self.folds, bool) or not isinstance(self.folds, int) or self.folds < 2:
            raise ConfigError(f"folds = {self.folds!r}: cross-validation needs an integer number of folds >= 2 "
                              f"(Brants & Skut: 10)")
        if isinstance(self.seed, bool) or not isinstance(self.seed, int) or self.seed < 0:
            raise ConfigError(f"seed = {self.seed!r}: the seed of the folds is an integer >= 0")
        t1, t2 = check_thresholds(self.theta1, self.theta2)
        object.__setattr__(self, "theta1", t1)
        object.__setattr__(self, "theta2", t2)

    def to_dict(self) -> dict[str, Any]:
        return json_safe({"folds": self.folds, "seed": self.seed, "theta1": self.theta1, "theta2": self.theta2})


def read_trees(path: str | os.PathLike, tree_format: str = "auto") -> list[Tree]:
    """A treebank file as trees: CoNLL-U sentences (``tree_format`` ``conllu``, or ``auto`` with a ``.conllu`` /
    ``.conll`` suffix) or phrase trees (:func:`~spacy_anno_eval.trees.readers.read_phrase_trees`)."""
    p = Path(path)
    if tree_format == "conllu" or (tree_format == "auto" and p.suffix.lower() in (".conllu", ".conll")):
        return list(read_conllu(p))
    from ..trees.readers import read_phrase_trees

    return read_phrase_trees(p, tree_format)


def _same_kind(trees: Sequence[Tree], other: Sequence[Tree], what: str, other_what: str) -> None:
    kind = {isinstance(t, Sentence) for t in trees}
    other_kind = {isinstance(t, Sentence) for t in other}
    if kind and other_kind and kind != other_kind:
        name = "dependency trees (CoNLL-U)" if True in kind else "phrase structures"
        other_name = "dependency trees (CoNLL-U)" if True in other_kind else "phrase structures"
        raise ConfigError(f"{what} holds {name} and {other_what} {other_name}: the models judge one kind of tree; "
                          f"give {what} of the same kind (--tree-format if one was misread)")


# ---------------------------------------------------------------------------------------------------------------
# resolve


def resolve_treebanks(a: Sequence[Tree], b: Sequence[Tree], *, train: Sequence[Tree] | None = None,
                      gold: Sequence[Tree] | None = None, settings: TreeModelSettings | None = None) -> Resolution:
    """Perplexities of both annotations and the suggestion for every sentence where ``a`` and ``b`` differ
    (:func:`~spacy_anno_eval.trees.resolution.resolve`), with the models of ``train`` or cross-validated (see
    the module docstring); with ``gold``: Table 5's accuracy and the precision/recall curve."""
    settings = settings or TreeModelSettings()
    if train is not None:
        _same_kind(train, a, "the training treebank", "the compared ones")
    if gold is not None:
        _same_kind(gold, a, "gold", "the compared treebanks")
    model = StructureModel.fit(train) if train is not None else None
    return resolve(a, b, model=model, folds=settings.folds, seed=settings.seed, gold=gold)


def resolve_files(a: str | os.PathLike, b: str | os.PathLike, *, train: str | os.PathLike | None = None,
                  gold: str | os.PathLike | None = None, tree_format: str = "auto",
                  settings: TreeModelSettings | None = None) -> Resolution:
    """:func:`resolve_treebanks` on files (:func:`read_trees`, each in ``tree_format``)."""
    return resolve_treebanks(read_trees(a, tree_format), read_trees(b, tree_format),
                             train=read_trees(train, tree_format) if train is not None else None,
                             gold=read_trees(gold, tree_format) if gold is not None else None, settings=settings)


# ---------------------------------------------------------------------------------------------------------------
# doubt


@dataclass(frozen=True)
class DoubtReport:
    """Section 3.5 on a treebank: ``decisions`` (every function and category decision of the models on
    ``source``'s labels, :class:`~spacy_anno_eval.trees.structure_model.Doubt`), ``model`` (which models
    judged: ``cross-validated``, ``trained on <reference>``), the settings, the sentences' words and nodes'
    yields (to show where a doubt is), and with gold ``check``
    (:func:`~spacy_anno_eval.trees.resolution.check_doubts`: ``listed``, ``wrong``, ``precision``,
    ``errors``, ``recall``, ``unmatched``)."""

    source: str
    model: str
    settings: TreeModelSettings
    n_sentences: int
    decisions: tuple[Doubt, ...]
    words: dict[str, tuple[str, ...]] = field(repr=False)
    yields: dict[tuple[str, int], tuple[int, ...]] = field(repr=False)
    check: dict[str, Any] | None = None

    def doubtful(self) -> list[Doubt]:
        """The doubt list: the labels a *reliable* decision contradicts (section 3.5), in sentence order."""
        return [d for d in self.decisions if d.contradicts]

    def levels(self) -> dict[str, dict[str, int]]:
        """How many decisions of each kind (``function``, ``category``) fell at each reliability level."""
        from ..trees.structure_model import LEVELS

        out: dict[str, dict[str, int]] = {}
        for d in self.decisions:
            out.setdefault(d.kind, dict.fromkeys(LEVELS, 0))[d.level] += 1
        return out

    def rows(self) -> list[dict[str, Any]]:
        """One JSON-ready row per doubtful label (:data:`DOUBT_COLUMNS`): the sentence, ``kind``, the word (1-based)
        or node id, the node's ``yield`` (``"2-3,5"``), ``form`` (the word, or the node's words), ``parent``
        (the category the function is decided in), ``given`` (the annotation's label), the model's ``best`` and
        ``second``, ``quotient`` ``P_best / P_second`` (``None``: no second alternative) and ``level``."""
        out = []
        for d in self.doubtful():
            words = self.words.get(d.sent_id, ())
            ys = self.yields.get((d.sent_id, d.node), ()) if d.node is not None else ()
            if d.word is not None:
                form = words[d.word - 1] if 0 < d.word <= len(words) else ""
            else:
                form = " ".join(words[i] for i in ys)
            out.append(json_safe({"sent_id": d.sent_id, "kind": d.kind, "word": d.word, "node": d.node,
                                  "yield": format_ids(i + 1 for i in ys) if ys else None, "form": form,
                                  "parent": d.parent or None, "given": d.given, "best": d.best, "second": d.second,
                                  "quotient": d.quotient, "level": d.level}))
        return out

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: source, model, settings, sentences, decisions and listed counts, ``levels``, ``doubts``
        (:meth:`rows`), ``gold`` (the check, or ``None``)."""
        return json_safe({"source": self.source, "model": self.model, "settings": self.settings.to_dict(),
                          "sentences": self.n_sentences, "decisions": len(self.decisions),
                          "listed": sum(d.contradicts for d in self.decisions), "levels": self.levels(),
                          "gold": self.check, "doubts": self.rows()})

    def write_rows(self, path: str | os.PathLike) -> Path:
        """Write :meth:`rows` atomically: JSON lines for ``.jsonl``, CSV for ``.csv``, else TSV."""
        from ..files import write_rows

        return write_rows(path, self.rows(), DOUBT_COLUMNS)


def doubt_treebank(trees: Sequence[Tree], *, reference: Sequence[Tree] | None = None,
                   train: Sequence[Tree] | None = None, gold: Sequence[Tree] | None = None,
                   settings: TreeModelSettings | None = None, source: str = "treebank",
                   reference_source: str = "the reference", train_source: str = "the training treebank"
                   ) -> DoubtReport:
    """Every decision of the models on ``trees``' labels and the doubt list (section 3.5), judged by the models
    of ``train``, else of ``reference``, else cross-validated on ``trees`` (module docstring); with ``gold``,
    how many doubted labels are really wrong (precision) and how many wrong labels are doubted (recall)."""
    settings = settings or TreeModelSettings()
    trees = list(trees)
    for other, what in ((train, "the training treebank"), (reference, reference_source), (gold, "gold")):
        if other is not None:
            _same_kind(other, trees, what, source)
    if train is not None:
        model, described = StructureModel.fit(train), f"trained on {train_source}"
    elif reference is not None:
        model, described = StructureModel.fit(reference), f"trained on {reference_source}"
    else:
        model, described = None, f"cross-validated ({settings.folds} folds)"
    found = doubts(trees, model=model, folds=settings.folds, seed=settings.seed, theta1=settings.theta1,
                   theta2=settings.theta2)
    check = check_doubts(found, trees, gold) if gold is not None else None
    words = {t.sent_id: tuple(t.forms if isinstance(t, Sentence) else t.words) for t in trees}
    yields = {(t.sent_id, node): ys for t in trees if isinstance(t, PhraseTree) for node, ys in t.yields().items()}
    return DoubtReport(source, described, settings, len(trees), tuple(found), words, yields, check)


def doubt_files(path: str | os.PathLike, against: str | os.PathLike | None = None, *,
                train: str | os.PathLike | None = None, gold: str | os.PathLike | None = None,
                tree_format: str = "auto", settings: TreeModelSettings | None = None) -> DoubtReport:
    """:func:`doubt_treebank` on files: ``path``'s labels doubted (cross-validated on itself), or with
    ``against`` the labels of ``against`` doubted by the models trained on ``path`` (``anno-eval trees A B
    --doubt``); ``train`` trains the models instead."""
    first = read_trees(path, tree_format)
    judged, reference = (read_trees(against, tree_format), first) if against is not None else (first, None)
    return doubt_treebank(judged, reference=reference,
                          train=read_trees(train, tree_format) if train is not None else None,
                          gold=read_trees(gold, tree_format) if gold is not None else None, settings=settings,
                          source=str(against if against is not None else path), reference_source=str(path),
                          train_source=str(train))


# ---------------------------------------------------------------------------------------------------------------
# adjudicate: a treebank from per-sentence choices


def is_tree_choices(path: str | os.PathLike) -> bool:
    """Whether a ``--choices`` file holds per-sentence tree choices (``trees --resolve --suggestions`` rows:
    ``{"sent_id", "choose": "A"|"B"}``) rather than span decisions: its first record names ``choose``."""
    from ..io.parse import json_lines

    for _, record in json_lines(path):
        return isinstance(record, dict) and "choose" in record and "sent_id" in record
    return False


def adjudicate_treebanks(a: str | os.PathLike, b: str | os.PathLike, choices: str | os.PathLike,
                         out: str | os.PathLike, tree_format: str = "auto") -> Any:
    """``anno-eval adjudicate A B --choices S.jsonl --out OUT`` for treebanks: each sentence as the choices
    name it (``trees --resolve --suggestions`` rows, edited or not; a sentence no row names keeps A's), copied
    as written (:func:`~spacy_anno_eval.trees.adjudicated.adjudicated_treebank`). A row naming a sentence
    neither file has, a ``choose`` other than A or B, a sentence chosen twice: an InputError naming the line."""
    from ..io.parse import json_lines
    from ..trees.adjudicated import adjudicated_treebank, write_adjudicated

    a_trees, b_trees = read_trees(a, tree_format), read_trees(b, tree_format)
    ids = {t.sent_id for t in a_trees}
    chosen: dict[str, Any] = {}
    for line, record in json_lines(choices):
        sid = record.get("sent_id") if isinstance(record, dict) else None
        side = record.get("choose") if isinstance(record, dict) else None
        if not isinstance(sid, str) or side not in ("A", "B"):
            raise InputError(f"{choices}:{line}: a tree choice is {{\"sent_id\": \"...\", \"choose\": \"A\" or "
                             f"\"B\"}}, got {record!r:.80}")
        if sid not in ids:
            raise InputError(f"{choices}:{line}: sentence {sid!r} is not in {a} (its first ids: "
                             f"{', '.join(sorted(ids)[:5])})")
        if sid in chosen:
            raise InputError(f"{choices}:{line}: sentence {sid!r} is chosen twice; keep one line per sentence")
        chosen[sid] = _Choice(side)
    adjudicated = adjudicated_treebank(a, b, a_trees, b_trees, _Choices(chosen), tree_format)
    write_adjudicated(out, adjudicated)
    return adjudicated


@dataclass(frozen=True)
class _Choice:
    suggestion: str


@dataclass(frozen=True)
class _Choices:
    """Per-sentence choices in the shape :func:`adjudicated_treebank` reads from a Resolution (``by_id``)."""

    chosen: dict[str, _Choice]

    def by_id(self) -> dict[str, _Choice]:
        return self.chosen


__all__ = [
    "DOUBT_COLUMNS", "DoubtReport", "TreeModelSettings", "adjudicate_treebanks", "doubt_files", "doubt_treebank",
    "is_tree_choices", "read_trees", "resolve_files", "resolve_treebanks"
]
