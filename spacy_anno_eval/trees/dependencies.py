"""Compare two dependency annotations of the same sentences: word, node and sentence level.

Brants and Skut (1998, "Automation of Treebank Annotation", section 4)
compare two annotations of a sentence that "share identical terminal nodes
(the words of the annotated sentence)" (4.1), mark the differing nodes and
edges (figures 5 and 6), and count agreement at three levels (4.3, Table 4).
Their trees are phrase structures with crossing branches; here the trees are
dependency trees (CoNLL-U basic trees or spaCy parses), read as follows:

- terminals are the words; a *node* (a non-terminal, a "phrase") is a word
  that has dependents, and its *yield* is the set of words it dominates: the
  word itself and all its descendants (4.1: "the ordered set of terminals
  that are (directly or indirectly) dominated by X"). A yield may be
  discontinuous (non-projective trees), exactly as in 4.1. A word without
  dependents is a terminal only: a node over it alone would be the unary
  branching that 4.1 excludes. Within one tree no two nodes share a yield
  (a word's yield strictly contains its dependents' yields), so the yield
  alone identifies a node, the property 4.1 relies on;
- the *label* (category) of a node is the word that heads it, i.e. the word
  the phrase projects from: two nodes with the same yield headed by
  different words are the same constituent analysed differently;
- the *function* of a node (its "grammatical function within its parent
  phrase", 4.3) is the DEPREL of its head word; the function of a word is
  its DEPREL.

The levels of 4.3 / Table 4:

word level (every word; ratios over the number of words)
    (1) ``parent_node``, the table's "ident. parent node": the same head, i.e.
    UAS. ``parent_category``, the text's "correctly assigned parent
    categories (does a word belong to a PP, NP, etc.?)": the UPOS of the
    head is the same (``ROOT`` for a root word; each tree's own UPOS), even
    when the head word differs. (2) ``grammatical_function``: the same
    DEPREL, i.e. label accuracy. Also LAS (same head and DEPREL) and the
    universal variants, where a DEPREL's subtype after ``:`` is dropped
    (``obl:npmod`` -> ``obl``), as the CoNLL 2018 shared task's LAS does.
node level (every node of either tree)
    (3) ``identical_yields``: a node has a node with the same yield in the
    other tree. (4) ``labelled``: ... headed by the same word. (5)
    ``functional``: ... and with the same DEPREL. The comparison is run in
    both directions (4.1: "a complete comparison consists of two runs, one
    for each direction"): with ``k`` key nodes, ``r`` response nodes and
    ``m`` yields found in both, precision is ``m / r``, recall ``m / k``,
    and the reported ``ratio`` is ``2m / (k + r)``, the share of all nodes
    of both annotations that have a counterpart (= F1). The sentence root's
    node spans the whole sentence and always matches in single-rooted trees.
sentence level (every sentence)
    (6) ``identical_structure``: every word has the same head (the unlabelled
    trees are equal; equivalently every node of either tree has a labelled
    counterpart). (7) ``identical_annotation``: the same heads and DEPRELs.

Per relation (key DEPREL): count, UAS, LAS, label accuracy; and with the
response's DEPRELs, precision / recall / F of labelled attachments (a
response word with DEPREL d is correct when the key has the same head and
DEPREL d) and of labels alone. Per parent UPOS (the key head's UPOS): count,
UAS, LAS, label accuracy and parent category agreement.

Differences (figures 5 and 6): per sentence, the words whose head or DEPREL
differs, and the nodes whose yield is in one tree only (``key_only``,
``response_only``), or whose yield is in both but which are headed by
different words (``head_word``) or have a different DEPREL (``function``):
4.1's "if Y exists: emit different labels if any; if Y does not exist: emit
X", run both ways. :meth:`TreeComparison.render_diff` prints them,
:meth:`TreeComparison.diff_rows` gives them as flat rows.

spaCy. ``Scorer.score_deps`` scores sets of (word, head, label) triples and
reports F-scores; the dependency parser's scorer (what ``nlp.evaluate``
uses) lower-cases labels and leaves out ``p`` and ``punct`` on each side
separately (a key ``punct`` word is not in the key set; a response
``punct`` word is not in the response set). With identical tokenization and
nothing left out, its F-scores equal the accuracies above; with punctuation
left out, precision and recall differ whenever one side calls a word
``punct`` and the other does not. The ``spacy`` entry of
:meth:`TreeComparison.to_dict` reproduces that computation
(:func:`spacy_dep_scores`); every other figure here counts all words,
punctuation included, like the CoNLL 2018 evaluation.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import InputError, where
from .conllu import Sentence, Treebank, check_tree, read_conllu, treebank_from_docs

ROOT_CATEGORY = "ROOT"
SPACY_IGNORE_LABELS = ("p", "punct")
DIFF_COLUMNS = ("sentence", "sent_id", "kind", "status", "id", "form", "key_head", "response_head", "key_deprel",
                "response_deprel", "yield", "key_word", "response_word")
TABLE4 = ("1_parent_node", "1_parent_category", "2_grammatical_function", "3_identical_nodes",
          "4_identical_nodes_labels", "5_identical_nodes_functions", "6_identical_structure",
          "7_identical_annotation")


def universal_relation(deprel: str) -> str:
    """The universal part of a UD relation: ``obl:npmod`` -> ``obl``."""
    return deprel.split(":", 1)[0]


# ---------------------------------------------------------------------------
# figures


def _ratio(correct: int, total: int) -> float | None:
    return correct / total if total else None


def _prf(tp: int, n_pred: int, n_gold: int) -> dict[str, float]:
    """Precision, recall and F as spaCy's ``PRFScore`` computes them (0.0 when undefined)."""
    p = tp / n_pred if n_pred else 0.0
    r = tp / n_gold if n_gold else 0.0
    f = 2 * ((p * r) / (p + r)) if p + r else 0.0
    return {"p": p, "r": r, "f": f}


def _count(correct: int, total: int) -> dict[str, Any]:
    return {"correct": correct, "total": total, "ratio": _ratio(correct, total)}


def _node_figures(identical: int, key: int, response: int) -> dict[str, Any]:
    return {"identical": identical, "key": key, "response": response,
            "precision": _ratio(identical, response), "recall": _ratio(identical, key),
            "f": _ratio(2 * identical, key + response), "ratio": _ratio(2 * identical, key + response)}


@dataclass
class _RelCounts:
    gold: int = 0  # key words with this relation
    pred: int = 0  # response words with this relation
    head: int = 0  # key words with this relation and the right head
    las: int = 0  # ... and the same relation in the response
    label: int = 0  # key words with this relation whose response relation is the same

    def figures(self) -> dict[str, Any]:
        attach = _prf(self.las, self.pred, self.gold)
        label = _prf(self.label, self.pred, self.gold)
        return {"count": self.gold, "predicted": self.pred, "head_correct": self.head, "las_correct": self.las,
                "label_correct": self.label, "uas": _ratio(self.head, self.gold), "las": _ratio(self.las, self.gold),
                "label_accuracy": _ratio(self.label, self.gold),
                "precision": attach["p"], "recall": attach["r"], "f": attach["f"],
                "label_precision": label["p"], "label_recall": label["r"], "label_f": label["f"]}


@dataclass
class _ParentCounts:
    count: int = 0
    head: int = 0
    las: int = 0
    label: int = 0
    category: int = 0

    def figures(self) -> dict[str, Any]:
        return {"count": self.count, "uas": _ratio(self.head, self.count), "las": _ratio(self.las, self.count),
                "label_accuracy": _ratio(self.label, self.count),
                "parent_category": _ratio(self.category, self.count)}


# ---------------------------------------------------------------------------
# per-sentence differences


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

    def yield_text(self, ids: Sequence[int], limit: int = 60) -> str:
        """The words of a yield, ``…`` marking each gap."""
        parts = []
        for j, i in enumerate(ids):
            if j and i != ids[j - 1] + 1:
                parts.append("…")
            parts.append(self.forms[i - 1])
        text = " ".join(parts)
        return text if len(text) <= limit else text[: limit - 1] + "…"


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


def _mask_ids(mask: int) -> tuple[int, ...]:
    ids = []
    i = 1
    while mask:
        if mask & 1:
            ids.append(i)
        mask >>= 1
        i += 1
    return tuple(ids)


def tree_nodes(heads: Sequence[int]) -> dict[int, int]:
    """The nodes of a tree given by ``heads`` (1-based, 0 = root): ``{yield bit mask: head word ID}``.

    Bit ``i - 1`` of a mask stands for word ``i``; only words with
    dependents are nodes. ``heads`` must be acyclic (see :func:`check_tree`).
    """
    n = len(heads)
    children: list[list[int]] = [[] for _ in range(n + 1)]
    for i, h in enumerate(heads, 1):
        children[h].append(i)
    order = []
    stack = [0]
    while stack:
        x = stack.pop()
        order.append(x)
        stack.extend(children[x])
    mask = [0] * (n + 1)
    for x in reversed(order):
        m = 1 << (x - 1) if x else 0
        for c in children[x]:
            m |= mask[c]
        mask[x] = m
    return {mask[i]: i for i in range(1, n + 1) if children[i]}


def _node_order(mask: int) -> tuple[int, int]:
    """Sort nodes by first word, outer nodes first."""
    return ((mask & -mask).bit_length(), -mask.bit_count())


# ---------------------------------------------------------------------------
# the comparison


@dataclass
class TreeComparison:
    """The result of :func:`compare_treebanks`; see the module docstring for the definitions."""

    key_source: str
    response_source: str
    n_words: int = 0
    head_correct: int = 0
    las_correct: int = 0
    las_universal_correct: int = 0
    label_correct: int = 0
    label_universal_correct: int = 0
    parent_category_correct: int = 0
    per_relation: dict[str, _RelCounts] = field(default_factory=dict)
    per_relation_universal: dict[str, _RelCounts] = field(default_factory=dict)
    per_parent_upos: dict[str, _ParentCounts] = field(default_factory=dict)
    nodes_key: int = 0
    nodes_response: int = 0
    nodes_identical: int = 0
    nodes_labelled: int = 0
    nodes_functional: int = 0
    sentences: list[SentenceResult] = field(default_factory=list)
    spacy: dict[str, Any] = field(default_factory=dict)

    # -- figures -------------------------------------------------------------

    @property
    def n_sentences(self) -> int:
        return len(self.sentences)

    @property
    def uas(self) -> float | None:
        """Same head (Table 4's (1) "ident. parent node")."""
        return _ratio(self.head_correct, self.n_words)

    @property
    def las(self) -> float | None:
        """Same head and the same full DEPREL."""
        return _ratio(self.las_correct, self.n_words)

    @property
    def las_universal(self) -> float | None:
        """Same head and the same universal relation (subtypes dropped), the CoNLL 2018 LAS."""
        return _ratio(self.las_universal_correct, self.n_words)

    @property
    def label_accuracy(self) -> float | None:
        """Same full DEPREL (Table 4's (2) "ident. gram. func.")."""
        return _ratio(self.label_correct, self.n_words)

    @property
    def label_accuracy_universal(self) -> float | None:
        return _ratio(self.label_universal_correct, self.n_words)

    @property
    def parent_category(self) -> float | None:
        """Same UPOS of the head (``ROOT`` for roots): 4.3's "correctly assigned parent categories"."""
        return _ratio(self.parent_category_correct, self.n_words)

    @property
    def identical_structure(self) -> int:
        return sum(s.identical_structure for s in self.sentences)

    @property
    def identical_annotation(self) -> int:
        return sum(s.identical_annotation for s in self.sentences)

    def table4(self) -> dict[str, float | None]:
        """The seven levels of Brants and Skut's Table 4 (word 1-2, node 3-5, sentence 6-7) as ratios."""
        n, k, r = self.n_words, self.nodes_key, self.nodes_response
        s = self.n_sentences
        values = (_ratio(self.head_correct, n), _ratio(self.parent_category_correct, n), _ratio(self.label_correct, n),
                  _ratio(2 * self.nodes_identical, k + r), _ratio(2 * self.nodes_labelled, k + r),
                  _ratio(2 * self.nodes_functional, k + r), _ratio(self.identical_structure, s),
                  _ratio(self.identical_annotation, s))
        return dict(zip(TABLE4, values, strict=True))

    def to_dict(self) -> dict[str, Any]:
        """Every figure, JSON-ready.

        Top level: ``uas``, ``las`` (full DEPRELs), ``las_universal``,
        ``label_accuracy``, ``label_accuracy_universal`` (floats),
        ``n_sentences``, ``n_words``; ``word`` (each measure as ``correct``,
        ``total``, ``ratio``), ``per_relation`` / ``per_relation_universal``,
        ``per_parent_upos``, ``node`` (``identical_yields``, ``labelled``,
        ``functional``: ``identical``, ``key``, ``response``, ``precision``,
        ``recall``, ``f`` = ``ratio``), ``sentence`` (``identical_structure``,
        ``identical_annotation``: ``count``, ``total``, ``ratio``), ``table4``,
        ``spacy`` (spaCy's parser scores, see :func:`spacy_dep_scores`),
        ``n_differing_sentences``, ``key``, ``response`` (the sources).
        """
        n = self.n_words
        s = self.n_sentences
        word = {"uas": _count(self.head_correct, n), "las": _count(self.las_correct, n),
                "las_universal": _count(self.las_universal_correct, n), "label_accuracy": _count(self.label_correct, n),
                "label_accuracy_universal": _count(self.label_universal_correct, n),
                "parent_category": _count(self.parent_category_correct, n)}
        k, r = self.nodes_key, self.nodes_response
        return {
            "key": self.key_source,
            "response": self.response_source,
            "n_sentences": s,
            "n_words": n,
            "uas": word["uas"]["ratio"],
            "las": word["las"]["ratio"],
            "las_universal": word["las_universal"]["ratio"],
            "label_accuracy": word["label_accuracy"]["ratio"],
            "label_accuracy_universal": word["label_accuracy_universal"]["ratio"],
            "word": word,
            "per_relation": {d: c.figures() for d, c in sorted(self.per_relation.items())},
            "per_relation_universal": {d: c.figures() for d, c in sorted(self.per_relation_universal.items())},
            "per_parent_upos": {u: c.figures() for u, c in sorted(self.per_parent_upos.items())},
            "node": {"identical_yields": _node_figures(self.nodes_identical, k, r),
                     "labelled": _node_figures(self.nodes_labelled, k, r),
                     "functional": _node_figures(self.nodes_functional, k, r)},
            "sentence": {"identical_structure": {"count": self.identical_structure, "total": s,
                                                 "ratio": _ratio(self.identical_structure, s)},
                         "identical_annotation": {"count": self.identical_annotation, "total": s,
                                                  "ratio": _ratio(self.identical_annotation, s)}},
            "table4": self.table4(),
            "spacy": self.spacy,
            "n_differing_sentences": sum(1 for x in self.sentences if x.edges or x.nodes),
        }

    def to_json(self, indent: int | None = 2) -> str:
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False)

    # -- differences ---------------------------------------------------------

    def diff_rows(self, nodes: bool = True) -> list[dict[str, Any]]:
        """The differences as flat rows with the columns :data:`DIFF_COLUMNS`, for JSON lines or TSV.

        ``sentence`` is the 1-based position, ``sent_id`` the key's id.
        ``kind="edge"`` rows: one per word whose head or DEPREL differs;
        ``id`` / ``form`` the word, ``key_head`` / ``response_head`` its head
        IDs (0 = root), ``key_deprel`` / ``response_deprel`` its DEPRELs,
        ``status`` ``head``, ``deprel`` or ``head+deprel``. ``kind="node"``
        rows: ``yield`` the node's word IDs (``"2-3,5"``), ``form`` its
        words (``…`` at gaps), ``key_word`` / ``response_word`` the word
        heading it in each tree (``None`` where absent), ``key_deprel`` /
        ``response_deprel`` that word's DEPREL, ``status`` ``key_only``,
        ``response_only``, ``head_word`` or ``function``.
        """
        rows = []
        for s in self.sentences:
            for e in s.edges:
                rows.append({"sentence": s.index + 1, "sent_id": s.sent_id, "kind": "edge", "status": e.status,
                             "id": e.id, "form": e.form, "key_head": e.key_head, "response_head": e.response_head,
                             "key_deprel": e.key_deprel, "response_deprel": e.response_deprel, "yield": None,
                             "key_word": None, "response_word": None})
            if nodes:
                for d in s.nodes:
                    rows.append({"sentence": s.index + 1, "sent_id": s.sent_id, "kind": "node", "status": d.status,
                                 "id": None, "form": s.yield_text(d.ids, limit=10**9), "key_head": None,
                                 "response_head": None, "key_deprel": d.key_deprel,
                                 "response_deprel": d.response_deprel, "yield": d.span, "key_word": d.key_word,
                                 "response_word": d.response_word})
        return rows

    def sentence_rows(self) -> list[dict[str, Any]]:
        """One row per sentence: words, head / LAS counts, node counts, identical structure / annotation."""
        return [{"sentence": s.index + 1, "sent_id": s.sent_id, "n_words": s.n_words, "head_correct": s.head_correct,
                 "las_correct": s.las_correct, "nodes_key": s.nodes_key, "nodes_response": s.nodes_response,
                 "nodes_identical": s.nodes_identical, "identical_structure": s.identical_structure,
                 "identical_annotation": s.identical_annotation, "edge_differences": len(s.edges),
                 "node_differences": len(s.nodes)} for s in self.sentences]

    def render_diff(self, *, nodes: bool = True, max_sentences: int | None = None, max_form: int = 20) -> str:
        """The differences as text, sentence by sentence (only sentences that differ).

        Each sentence: ``# sentence i/n  sent_id = X  UAS a/n  LAS b/n``,
        ``# text = ...``, then one line per differing word
        (``3 dog  head 2→4  nsubj→obj``; an arrow marks each key→response
        difference, an unchanged value stands alone), then one line per
        differing node (``node 2-3,5  key only  head word 3 dog, nsubj  "big dog … into"``).
        """
        lines = [f"# differences {self.key_source} → {self.response_source} (key→response; word IDs from 1, "
                 f"head 0 = root)"]
        shown = 0
        total = len(self.sentences)
        for s in self.sentences:
            if not (s.edges or (nodes and s.nodes)):
                continue
            if max_sentences is not None and shown >= max_sentences:
                rest = sum(1 for x in self.sentences[s.index:] if x.edges or (nodes and x.nodes))
                lines += ["", f"# ... {rest} more differing sentences"]
                break
            shown += 1
            lines += ["", f"# sentence {s.index + 1}/{total}  sent_id = {s.sent_id}  UAS {s.head_correct}/"
                          f"{s.n_words}  LAS {s.las_correct}/{s.n_words}", f"# text = {s.text}"]
            idw = len(str(s.n_words))
            formw = min(max_form, max((len(e.form) for e in s.edges), default=1))
            heads = [_arrow(e.key_head, e.response_head) for e in s.edges]
            headw = max((len(h) for h in heads), default=1)
            for e, h in zip(s.edges, heads, strict=True):
                form = e.form if len(e.form) <= formw else e.form[: formw - 1] + "…"
                lines.append(f"  {e.id:>{idw}} {form:<{formw}}  head {h:<{headw}}  "
                             f"{_arrow(e.key_deprel, e.response_deprel)}")
            if nodes and s.nodes:
                spanw = max(len(d.span) for d in s.nodes)
                for d in s.nodes:
                    lines.append(f"  node {d.span:<{spanw}}  {_node_text(s, d)}  \"{s.yield_text(d.ids)}\"")
        if shown == 0:
            lines += ["", "# no differences"]
        return "\n".join(lines) + "\n"

    def write_diff(self, path: str | os.PathLike, nodes: bool = True) -> Path:
        """Write :meth:`diff_rows` atomically: JSON lines for ``.jsonl``, else TSV with a header."""
        from ..files import write_rows

        return write_rows(path, self.diff_rows(nodes=nodes), DIFF_COLUMNS)


def _arrow(key: Any, response: Any) -> str:
    return str(key) if key == response else f"{key}→{response}"


def _word(s: SentenceResult, i: int | None) -> str:
    return f"{i} {s.forms[i - 1]}" if i else "-"


def _node_text(s: SentenceResult, d: NodeDiff) -> str:
    if d.status == "key_only":
        return f"key only       head word {_word(s, d.key_word)}, {d.key_deprel}"
    if d.status == "response_only":
        return f"response only  head word {_word(s, d.response_word)}, {d.response_deprel}"
    if d.status == "head_word":
        return (f"head word      {_word(s, d.key_word)}→{_word(s, d.response_word)}, "
                f"{_arrow(d.key_deprel, d.response_deprel)}")
    return f"function       {_arrow(d.key_deprel, d.response_deprel)} (head word {_word(s, d.key_word)})"


def _check_same_words(key: Treebank, response: Treebank) -> None:
    """Identical tokenization: as many sentences, and the same words in each; else name the first difference."""

    def first_difference() -> int | None:
        for i, (a, b) in enumerate(zip(key.sentences, response.sentences, strict=False)):
            if a.forms != b.forms:
                return i
        return None

    def describe(i: int) -> str:
        a, b = key.sentences[i], response.sentences[i]
        place = f"sentence {i + 1} (key sent_id {a.sent_id!r}, {where(key.source, line=a.line)}; response " \
                f"sent_id {b.sent_id!r}, {where(response.source, line=b.line)})"
        if len(a) != len(b):
            detail = f"the key has {len(a)} words, the response {len(b)}"
        else:
            detail = ""
        for j, (x, y) in enumerate(zip(a.forms, b.forms, strict=False)):
            if x != y:
                detail += ("; " if detail else "") + f"word {j + 1} is {x!r} in the key, {y!r} in the response"
                break
        else:
            longer = a if len(a) > len(b) else b
            j = min(len(a), len(b))
            detail += f"; word {j + 1} {longer.forms[j]!r} has no counterpart"
        return f"{place}: {detail}"

    i = first_difference()
    if len(key) != len(response):
        msg = f"the key ({key.source}) has {len(key)} sentences, the response ({response.source}) {len(response)}"
        if i is not None:
            msg += f"; the first that differs is {describe(i)}"
        else:
            extra = key if len(key) > len(response) else response
            j = min(len(key), len(response))
            msg += f"; the extra sentences start with sentence {j + 1} (sent_id {extra.sentences[j].sent_id!r})"
        raise InputError(msg + ". Trees are compared only over identical tokenization")
    if i is not None:
        raise InputError(f"different words in {describe(i)}. Trees are compared only over identical "
                                 f"tokenization")


def _label_key(deprel: str) -> str:
    return deprel.lower()


def spacy_dep_scores(key: Treebank, response: Treebank, ignore_labels: Iterable[str] = SPACY_IGNORE_LABELS,
                     lowercase: bool = True) -> dict[str, Any]:
    """``dep_uas``, ``dep_las``, ``dep_las_per_type`` as spaCy's parser scorer computes them.

    spaCy (``Scorer.score_deps``; the parser's scorer adds lower-casing and
    ``ignore_labels=("p", "punct")``) collects per sentence the key's
    (word, head, label) triples whose label is not ignored and the
    response's likewise, and scores the sets: ``tp`` = triples in both,
    precision = tp / response triples, recall = tp / key triples, F
    reported. UAS uses (word, head) pairs of the same filtered triples. So
    a word that is ``punct`` on one side only counts against precision or
    recall. Tokenization must be identical (checked by the caller).
    Returns ``None`` scores when no key triple is left, as spaCy does.
    """
    ignore = set(ignore_labels)
    u_tp = u_pred = u_gold = 0
    l_tp = l_pred = l_gold = 0
    per_type: dict[str, list[int]] = {}
    for a, b in zip(key.sentences, response.sentences, strict=True):
        gold = set()
        pred = set()
        for i, (wa, wb) in enumerate(zip(a.words, b.words, strict=True)):
            da = _label_key(wa.deprel) if lowercase else wa.deprel
            db = _label_key(wb.deprel) if lowercase else wb.deprel
            if da not in ignore:
                gold.add((i, wa.head, da))
            if db not in ignore and wb.form.strip():
                pred.add((i, wb.head, db))
        l_tp += len(gold & pred)
        l_pred += len(pred)
        l_gold += len(gold)
        ug = {t[:2] for t in gold}
        up = {t[:2] for t in pred}
        u_tp += len(ug & up)
        u_pred += len(up)
        u_gold += len(ug)
        for t in gold:
            per_type.setdefault(t[2], [0, 0, 0])[2] += 1
        for t in pred:
            c = per_type.setdefault(t[2], [0, 0, 0])
            c[1] += 1
            if t in gold:
                c[0] += 1
    if not u_gold and not u_pred:
        return {"ignore_labels": sorted(ignore), "dep_uas": None, "dep_las": None, "dep_las_per_type": None}
    return {"ignore_labels": sorted(ignore), "dep_uas": _prf(u_tp, u_pred, u_gold)["f"],
            "dep_las": _prf(l_tp, l_pred, l_gold)["f"],
            "dep_las_per_type": {d: _prf(*c) for d, c in sorted(per_type.items())},
            "counts": {"uas": {"tp": u_tp, "predicted": u_pred, "gold": u_gold},
                       "las": {"tp": l_tp, "predicted": l_pred, "gold": l_gold}}}


def compare_treebanks(key: Treebank, response: Treebank, *,
                      spacy_ignore_labels: Iterable[str] = SPACY_IGNORE_LABELS) -> TreeComparison:
    """Compare ``response`` with ``key`` (same sentences, same words) at word, node and sentence level.

    Raise :class:`InputError` when the tokenization differs (naming
    the first sentence that differs), when a tree is not acyclic or when
    there is no word at all.
    """
    _check_same_words(key, response)
    if key.n_words == 0:
        raise InputError(f"nothing to compare: the key ({key.source}) has no words")
    for tb in (key, response):
        if not tb.metadata.get("checked"):  # built by hand: not checked by a reader
            for s in tb.sentences:
                check_tree(s, tb.source)
    result = TreeComparison(key_source=key.source, response_source=response.source)
    rel, rel_u, par = result.per_relation, result.per_relation_universal, result.per_parent_upos
    for index, (a, b) in enumerate(zip(key.sentences, response.sentences, strict=True)):
        sr = _compare_sentence(index, a, b, result, rel, rel_u, par)
        result.sentences.append(sr)
    result.spacy = spacy_dep_scores(key, response, spacy_ignore_labels)
    return result


def _compare_sentence(index: int, a: Sentence, b: Sentence, result: TreeComparison, rel: dict[str, _RelCounts],
                      rel_u: dict[str, _RelCounts], par: dict[str, _ParentCounts]) -> SentenceResult:
    wa, wb = a.words, b.words
    head_ok = las_ok = 0
    edges = []
    for x, y in zip(wa, wb, strict=True):
        same_head = x.head == y.head
        same_label = x.deprel == y.deprel
        ux, uy = universal_relation(x.deprel), universal_relation(y.deprel)
        same_u = ux == uy
        cat_x = wa[x.head - 1].upos if x.head else ROOT_CATEGORY
        cat_y = wb[y.head - 1].upos if y.head else ROOT_CATEGORY
        head_ok += same_head
        las_ok += same_head and same_label
        result.las_universal_correct += same_head and same_u
        result.label_correct += same_label
        result.label_universal_correct += same_u
        result.parent_category_correct += cat_x == cat_y
        for counts, lx, ly, same in ((rel, x.deprel, y.deprel, same_label), (rel_u, ux, uy, same_u)):
            cx = counts.get(lx) or counts.setdefault(lx, _RelCounts())
            cy = counts.get(ly) or counts.setdefault(ly, _RelCounts())
            cx.gold += 1
            cy.pred += 1
            cx.head += same_head
            cx.label += same
            cx.las += same_head and same
        p = par.get(cat_x) or par.setdefault(cat_x, _ParentCounts())
        p.count += 1
        p.head += same_head
        p.las += same_head and same_label
        p.label += same_label
        p.category += cat_x == cat_y
        if not (same_head and same_label):
            edges.append(EdgeDiff(x.id, x.form, x.head, y.head, x.deprel, y.deprel))
    n = len(wa)
    result.n_words += n
    result.head_correct += head_ok
    result.las_correct += las_ok

    if head_ok == n:  # the same tree: the same nodes, headed by the same words
        nodes_a = nodes_b = tree_nodes(a.heads)
    else:
        nodes_a, nodes_b = tree_nodes(a.heads), tree_nodes(b.heads)
    node_diffs = []
    identical = 0
    for mask in sorted(nodes_a.keys() | nodes_b.keys(), key=_node_order):
        ha, hb = nodes_a.get(mask), nodes_b.get(mask)
        da = wa[ha - 1].deprel if ha else None
        db = wb[hb - 1].deprel if hb else None
        if ha and hb:
            identical += 1
            if ha == hb:
                result.nodes_labelled += 1
                if da == db:
                    result.nodes_functional += 1
                    continue
                status = "function"
            else:
                status = "head_word"
        else:
            status = "key_only" if ha else "response_only"
        node_diffs.append(NodeDiff(_mask_ids(mask), status, ha, hb, da, db))
    result.nodes_key += len(nodes_a)
    result.nodes_response += len(nodes_b)
    result.nodes_identical += identical
    return SentenceResult(index=index, sent_id=a.sent_id, text=a.display_text, forms=tuple(a.forms),
                          head_correct=head_ok, las_correct=las_ok, nodes_key=len(nodes_a),
                          nodes_response=len(nodes_b), nodes_identical=identical, edges=edges, nodes=node_diffs)


def compare_files(key_path: str | os.PathLike, response_path: str | os.PathLike, **options: Any) -> TreeComparison:
    """Read two CoNLL-U files (:func:`~spacy_anno_eval.trees.conllu.read_conllu`) and compare their basic trees."""
    return compare_treebanks(read_conllu(key_path), read_conllu(response_path), **options)


def compare_docs(key_docs: Iterable[Any], response_docs: Iterable[Any], **options: Any) -> TreeComparison:
    """Compare the parses of two lists of spaCy Docs, sentence by sentence (``doc.sents``)."""
    return compare_treebanks(treebank_from_docs(key_docs, source="key docs"),
                             treebank_from_docs(response_docs, source="response docs"), **options)


__all__ = ["DIFF_COLUMNS", "ROOT_CATEGORY", "SPACY_IGNORE_LABELS", "TABLE4", "EdgeDiff", "NodeDiff",
           "SentenceResult", "TreeComparison", "compare_docs", "compare_files", "compare_treebanks", "format_ids",
           "spacy_dep_scores", "tree_nodes", "universal_relation"]
