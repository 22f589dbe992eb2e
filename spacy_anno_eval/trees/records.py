"""The records two tree comparisons share: sentence results, differences, ratios and the diff helpers.

Brants and Skut (1998, "Automation of Treebank Annotation", section 4)
compare two annotations of a sentence at word, node and sentence level and
mark the nodes and edges in which they differ (figures 5 and 6). Both
comparisons here, of dependency trees (:mod:`~.dependencies`) and of phrase
structures (:mod:`~.phrase_compare`), record a sentence's counts and
differences in the dataclasses below, count Table 4's seven levels
(:data:`TABLE4`) with :class:`Ratios`, and write yields and differences with
:func:`format_ids`, :func:`yield_text` and :func:`arrow`; :mod:`~.diff`
renders the dependency differences. This module imports no other module of
:mod:`spacy_anno_eval.trees`, so each of those imports it and none imports
another back.

Undefined figures follow the package's one policy
(:mod:`spacy_anno_eval.figures`): a ratio whose denominator is 0 is
``zero_division``, and :meth:`Ratios.warn` names every such figure in one
:class:`~spacy_anno_eval.errors.UndefinedFigureWarning`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..figures import fbeta, ratio, warn_zero_division

#: Brants and Skut's Table 4: word level (1-2), node level (3-5), sentence level (6-7)
TABLE4 = ("1_parent_node", "1_parent_category", "2_grammatical_function", "3_identical_nodes",
          "4_identical_nodes_labels", "5_identical_nodes_functions", "6_identical_structure",
          "7_identical_annotation")


# ---------------------------------------------------------------------------
# figures


class Ratios:
    """Ratios by the package's policy: ``zero_division`` where the denominator is 0, with the names of those
    figures kept so that one warning can name them all (:func:`~spacy_anno_eval.figures.warn_zero_division`)."""

    def __init__(self, zero_division: float) -> None:
        self.zero_division = zero_division
        self.undefined: list[str] = []

    def __call__(self, num: int, den: int, name: str) -> float:
        if not den:
            self.undefined.append(name)
        return float(ratio(num, den, self.zero_division))

    def prf(self, tp: int, n_pred: int, n_gold: int, name: str) -> dict[str, float]:
        """P = tp / n_pred, R = tp / n_gold, F1 (:func:`~spacy_anno_eval.figures.fbeta`); spaCy's ``PRFScore``."""
        p, r = self(tp, n_pred, f"{name} precision"), self(tp, n_gold, f"{name} recall")
        f = fbeta(p, r, 1.0, undefined=not n_pred and not n_gold, zero_division=self.zero_division)
        return {"p": p, "r": r, "f": float(f)}

    def count(self, correct: int, total: int, name: str) -> dict[str, Any]:
        return {"correct": correct, "total": total, "ratio": self(correct, total, name)}

    def nodes(self, identical: int, key: int, response: int, name: str) -> dict[str, Any]:
        f = self(2 * identical, key + response, name)
        return {"identical": identical, "key": key, "response": response,
                "precision": self(identical, response, f"{name} precision"),
                "recall": self(identical, key, f"{name} recall"), "f": f, "ratio": f}

    def warn(self) -> None:
        """One warning naming every figure that got ``zero_division``, for the caller's caller."""
        warn_zero_division(self.undefined, self.zero_division, stacklevel=3)


# ---------------------------------------------------------------------------
# dependency trees: one sentence and its differences


@dataclass(frozen=True)
class EdgeDiff:
    """A word whose head or DEPREL differs (figure 6's marked edges). IDs are 1-based, head 0 = root."""

    id: int
    form: str
    key_head: int
    response_head: int
    key_deprel: str
    response_deprel: str

    @property
    def status(self) -> str:
        """``head``, ``deprel`` or ``head+deprel``."""
        parts = []
        if self.key_head != self.response_head:
            parts.append("head")
        if self.key_deprel != self.response_deprel:
            parts.append("deprel")
        return "+".join(parts)


@dataclass(frozen=True)
class NodeDiff:
    """A node (a yield) that is in one tree only, or in both with another head word or function.

    ``ids`` is the yield (1-based word IDs, possibly discontinuous);
    ``key_word`` / ``response_word`` the word heading the node in each tree
    (``None`` where the tree has no node with this yield), ``key_deprel`` /
    ``response_deprel`` that word's DEPREL (the node's function in its parent).
    """

    ids: tuple[int, ...]
    status: str  # key_only, response_only, head_word, function
    key_word: int | None
    response_word: int | None
    key_deprel: str | None
    response_deprel: str | None

    @property
    def span(self) -> str:
        return format_ids(self.ids)


@dataclass
class SentenceResult:
    """One sentence's figures and differences."""

    index: int  # 0-based position
    sent_id: str
    text: str
    forms: tuple[str, ...]
    head_correct: int
    las_correct: int
    nodes_key: int
    nodes_response: int
    nodes_identical: int
    edges: list[EdgeDiff] = field(default_factory=list)
    nodes: list[NodeDiff] = field(default_factory=list)

    @property
    def n_words(self) -> int:
        return len(self.forms)

    @property
    def identical_structure(self) -> bool:
        return self.head_correct == self.n_words

    @property
    def identical_annotation(self) -> bool:
        return self.las_correct == self.n_words


# ---------------------------------------------------------------------------
# phrase structures: one sentence and its differences


@dataclass(frozen=True)
class WordDiff:
    """A word whose parent node (by yield), parent category, function or tag differs (1-based ``id``)."""

    id: int
    form: str
    key_parent: str
    response_parent: str
    key_function: str
    response_function: str
    key_tag: str
    response_tag: str
    status: str


@dataclass(frozen=True)
class PhraseNodeDiff:
    """A node only in one tree (``key_only``/``response_only``) or in both with another ``label``/``function``."""

    ids: tuple[int, ...]  # 1-based word ids of the yield
    status: str
    key_label: str | None
    response_label: str | None
    key_function: str | None
    response_function: str | None

    @property
    def span(self) -> str:
        return format_ids(self.ids)


@dataclass
class PhraseSentence:
    """One compared sentence: counts and differences (``error`` set when the words differ)."""

    index: int
    sent_id: str
    forms: tuple[str, ...]
    parent_node: int = 0
    parent_category: int = 0
    function: int = 0
    tag: int = 0
    nodes_key: int = 0
    nodes_response: int = 0
    nodes_identical: int = 0
    nodes_labelled: int = 0
    nodes_functional: int = 0
    words: list[WordDiff] = field(default_factory=list)
    nodes: list[PhraseNodeDiff] = field(default_factory=list)
    error: str = ""

    @property
    def identical_structure(self) -> bool:
        return not self.error and self.nodes_identical == self.nodes_key == self.nodes_response

    @property
    def identical_annotation(self) -> bool:
        return (self.identical_structure and self.nodes_functional == self.nodes_key and not self.words)


# ---------------------------------------------------------------------------
# writing yields and differences


def format_ids(ids: Iterable[int]) -> str:
    """``[1, 2, 3, 5]`` -> ``"1-3,5"``."""
    out: list[str] = []
    run: list[int] = []
    for i in ids:
        if run and i == run[-1] + 1:
            run.append(i)
            continue
        if run:
            out.append(str(run[0]) if len(run) == 1 else f"{run[0]}-{run[-1]}")
        run = [i]
    if run:
        out.append(str(run[0]) if len(run) == 1 else f"{run[0]}-{run[-1]}")
    return ",".join(out)


def yield_text(s: SentenceResult | PhraseSentence, ids: Sequence[int], limit: int = 60) -> str:
    """The words of a yield of sentence ``s`` (anything with ``forms``), ``…`` marking each gap, cut to
    ``limit`` characters."""
    parts = []
    for j, i in enumerate(ids):
        if j and i != ids[j - 1] + 1:
            parts.append("…")
        parts.append(s.forms[i - 1])
    text = " ".join(parts)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def arrow(key: Any, response: Any) -> str:
    """``key`` alone when equal, else ``key→response``."""
    return str(key) if key == response else f"{key}→{response}"


__all__ = ["TABLE4", "EdgeDiff", "NodeDiff", "PhraseNodeDiff", "PhraseSentence", "Ratios", "SentenceResult",
           "WordDiff", "arrow", "format_ids", "yield_text"]
