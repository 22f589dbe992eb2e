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
X", run both ways. :mod:`spacy_anno_eval.trees.diff` turns them into rows
and text (:meth:`TreeComparison.diff_rows`, :meth:`TreeComparison.render_diff`
and :meth:`TreeComparison.write_diff` call it).

Undefined figures follow the package's one policy
(:mod:`spacy_anno_eval.figures`): a ratio whose denominator is 0 (the UAS of
a relation only the response uses, a node precision without response nodes)
is ``zero_division`` (default 0.0; ``compare_treebanks(...,
zero_division=...)``), and :meth:`TreeComparison.to_dict` names them in one
:class:`~spacy_anno_eval.errors.UndefinedFigureWarning`.

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

import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import InputError, where
from ..figures import check_zero_division
from .conllu import Sentence, Treebank, check_tree, read_conllu, treebank_from_docs
from .diff import diff_rows, render_diff, write_diff
from .records import TABLE4, EdgeDiff, NodeDiff, Ratios, SentenceResult

ROOT_CATEGORY = "ROOT"
SPACY_IGNORE_LABELS = ("p", "punct")


def universal_relation(deprel: str) -> str:
    """The universal part of a UD relation: ``obl:npmod`` -> ``obl``."""
    return deprel.split(":", 1)[0]


# ---------------------------------------------------------------------------
# figures


@dataclass
class _RelCounts:
    gold: int = 0  # key words with this relation
    pred: int = 0  # response words with this relation
    head: int = 0  # key words with this relation and the right head
    las: int = 0  # ... and the same relation in the response
    label: int = 0  # key words with this relation whose response relation is the same

    def figures(self, ratios: Ratios, name: str) -> dict[str, Any]:
        attach = ratios.prf(self.las, self.pred, self.gold, f"{name} attachment")
        label = ratios.prf(self.label, self.pred, self.gold, f"{name} label")
        return {"count": self.gold, "predicted": self.pred, "head_correct": self.head, "las_correct": self.las,
                "label_correct": self.label, "uas": ratios(self.head, self.gold, f"{name} uas"),
                "las": ratios(self.las, self.gold, f"{name} las"),
                "label_accuracy": ratios(self.label, self.gold, f"{name} label_accuracy"),
                "precision": attach["p"], "recall": attach["r"], "f": attach["f"],
                "label_precision": label["p"], "label_recall": label["r"], "label_f": label["f"]}


@dataclass
class _ParentCounts:
    count: int = 0
    head: int = 0
    las: int = 0
    label: int = 0
    category: int = 0

    def figures(self, ratios: Ratios, name: str) -> dict[str, Any]:
        return {"count": self.count, "uas": ratios(self.head, self.count, f"{name} uas"),
                "las": ratios(self.las, self.count, f"{name} las"),
                "label_accuracy": ratios(self.label, self.count, f"{name} label_accuracy"),
                "parent_category": ratios(self.category, self.count, f"{name} parent_category")}


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
    #: the value of a ratio whose denominator is 0 (the package's policy; :mod:`spacy_anno_eval.figures`)
    zero_division: float = 0.0

    # -- figures -------------------------------------------------------------

    @property
    def n_sentences(self) -> int:
        return len(self.sentences)

    @property
    def uas(self) -> float:
        """Same head (Table 4's (1) "ident. parent node")."""
        return self._word_ratio(self.head_correct, "uas")

    @property
    def las(self) -> float:
        """Same head and the same full DEPREL."""
        return self._word_ratio(self.las_correct, "las")

    @property
    def las_universal(self) -> float:
        """Same head and the same universal relation (subtypes dropped), the CoNLL 2018 LAS."""
        return self._word_ratio(self.las_universal_correct, "las_universal")

    @property
    def label_accuracy(self) -> float:
        """Same full DEPREL (Table 4's (2) "ident. gram. func.")."""
        return self._word_ratio(self.label_correct, "label_accuracy")

    @property
    def label_accuracy_universal(self) -> float:
        return self._word_ratio(self.label_universal_correct, "label_accuracy_universal")

    @property
    def parent_category(self) -> float:
        """Same UPOS of the head (``ROOT`` for roots): 4.3's "correctly assigned parent categories"."""
        return self._word_ratio(self.parent_category_correct, "parent_category")

    def _word_ratio(self, correct: int, name: str) -> float:
        """``correct / n_words``; ``zero_division`` with a warning when there is no word."""
        ratios = Ratios(self.zero_division)
        value = ratios(correct, self.n_words, name)
        ratios.warn()
        return value

    @property
    def identical_structure(self) -> int:
        return sum(s.identical_structure for s in self.sentences)

    @property
    def identical_annotation(self) -> int:
        return sum(s.identical_annotation for s in self.sentences)

    def table4(self) -> dict[str, float]:
        """The seven levels of Brants and Skut's Table 4 (word 1-2, node 3-5, sentence 6-7) as ratios."""
        ratios = Ratios(self.zero_division)
        values = self._table4(ratios)
        ratios.warn()
        return values

    def _table4(self, ratios: Ratios) -> dict[str, float]:
        n, k, r = self.n_words, self.nodes_key, self.nodes_response
        s = self.n_sentences
        parts = ((self.head_correct, n), (self.parent_category_correct, n), (self.label_correct, n),
                 (2 * self.nodes_identical, k + r), (2 * self.nodes_labelled, k + r),
                 (2 * self.nodes_functional, k + r), (self.identical_structure, s), (self.identical_annotation, s))
        return {name: ratios(num, den, f"table4 {name}") for name, (num, den) in zip(TABLE4, parts, strict=True)}

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
        ratios = Ratios(self.zero_division)
        word = {name: ratios.count(correct, n, f"word {name}") for name, correct in (
            ("uas", self.head_correct), ("las", self.las_correct), ("las_universal", self.las_universal_correct),
            ("label_accuracy", self.label_correct), ("label_accuracy_universal", self.label_universal_correct),
            ("parent_category", self.parent_category_correct))}
        k, r = self.nodes_key, self.nodes_response
        out = {
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
            "per_relation": {d: c.figures(ratios, f"per_relation {d!r}") for d, c in sorted(self.per_relation.items())},
            "per_relation_universal": {d: c.figures(ratios, f"per_relation_universal {d!r}")
                                       for d, c in sorted(self.per_relation_universal.items())},
            "per_parent_upos": {u: c.figures(ratios, f"per_parent_upos {u!r}")
                                for u, c in sorted(self.per_parent_upos.items())},
            "node": {name: ratios.nodes(identical, k, r, f"node {name}") for name, identical in (
                ("identical_yields", self.nodes_identical), ("labelled", self.nodes_labelled),
                ("functional", self.nodes_functional))},
            "sentence": {name: {"count": count, "total": s, "ratio": ratios(count, s, f"sentence {name}")}
                         for name, count in (("identical_structure", self.identical_structure),
                                             ("identical_annotation", self.identical_annotation))},
            "table4": self._table4(ratios),
            "spacy": self.spacy,
            "n_differing_sentences": sum(1 for x in self.sentences if x.edges or x.nodes),
            "zero_division": self.zero_division,
        }
        ratios.warn()
        return out

    def to_json(self, indent: int | None = 2) -> str:
        """:meth:`to_dict` as strict JSON text (:func:`~spacy_anno_eval.files.json_text`: no NaN)."""
        from ..files import json_text

        return json_text(self.to_dict(), indent=indent)

    def sentence_rows(self) -> list[dict[str, Any]]:
        """One row per sentence: words, head / LAS counts, node counts, identical structure / annotation."""
        return [{"sentence": s.index + 1, "sent_id": s.sent_id, "n_words": s.n_words, "head_correct": s.head_correct,
                 "las_correct": s.las_correct, "nodes_key": s.nodes_key, "nodes_response": s.nodes_response,
                 "nodes_identical": s.nodes_identical, "identical_structure": s.identical_structure,
                 "identical_annotation": s.identical_annotation, "edge_differences": len(s.edges),
                 "node_differences": len(s.nodes)} for s in self.sentences]

    # -- differences (rows and text: spacy_anno_eval.trees.diff) -------------

    def diff_rows(self, nodes: bool = True) -> list[dict[str, Any]]:
        """The differences as flat rows (:func:`spacy_anno_eval.trees.diff.diff_rows`)."""
        return diff_rows(self, nodes)

    def render_diff(self, *, nodes: bool = True, max_sentences: int | None = None, max_form: int = 20,
                    notes: Mapping[int, Sequence[str]] | None = None) -> str:
        """The differences as text, sentence by sentence (:func:`spacy_anno_eval.trees.diff.render_diff`;
        ``notes``: more header lines per sentence, by 0-based index)."""
        return render_diff(self, nodes=nodes, max_sentences=max_sentences, max_form=max_form, notes=notes)

    def write_diff(self, path: str | os.PathLike, nodes: bool = True) -> Path:
        """Write the difference rows as JSON lines or TSV (:func:`spacy_anno_eval.trees.diff.write_diff`)."""
        return write_diff(self, path, nodes)

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
    Returns ``None`` scores when neither side has a triple left, as spaCy
    does (nothing to score); a ratio with a zero denominator is 0.0, as
    spaCy's ``PRFScore`` gives it, whatever ``zero_division`` says.
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
    spacy_prf = Ratios(0.0).prf  # PRFScore: 0.0 where undefined, silently
    return {"ignore_labels": sorted(ignore), "dep_uas": spacy_prf(u_tp, u_pred, u_gold, "uas")["f"],
            "dep_las": spacy_prf(l_tp, l_pred, l_gold, "las")["f"],
            "dep_las_per_type": {d: spacy_prf(*c, d) for d, c in sorted(per_type.items())},
            "counts": {"uas": {"tp": u_tp, "predicted": u_pred, "gold": u_gold},
                       "las": {"tp": l_tp, "predicted": l_pred, "gold": l_gold}}}


def compare_treebanks(key: Treebank, response: Treebank, *, spacy_ignore_labels: Iterable[str] = SPACY_IGNORE_LABELS,
                      zero_division: float = 0.0) -> TreeComparison:
    """Compare ``response`` with ``key`` (same sentences, same words) at word, node and sentence level.

    Raise :class:`InputError` when the key or the response has nothing
    to compare (no sentence; :func:`~.checks.refuse_empty`), when the
    tokenization differs (naming the first sentence that differs), or when
    a tree is not acyclic. ``zero_division``: the value of a ratio whose
    denominator is 0 (a number in [0, 1]; the package's policy).
    """
    from .checks import refuse_empty

    zero_division = check_zero_division(zero_division)
    refuse_empty(key, key.source, "key")
    refuse_empty(response, response.source, "response")
    _check_same_words(key, response)
    for tb in (key, response):
        if not tb.metadata.get("checked"):  # built by hand: not checked by a reader
            for s in tb.sentences:
                check_tree(s, tb.source)
    result = TreeComparison(key_source=key.source, response_source=response.source, zero_division=zero_division)
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
    from ..files import check_path

    key_path, response_path = check_path(key_path, "key_path"), check_path(response_path, "response_path")
    return compare_treebanks(read_conllu(key_path), read_conllu(response_path), **options)


def compare_docs(key_docs: Iterable[Any], response_docs: Iterable[Any], **options: Any) -> TreeComparison:
    """Compare the parses of two lists of spaCy Docs, sentence by sentence (``doc.sents``)."""
    return compare_treebanks(treebank_from_docs(key_docs, source="key docs"),
                             treebank_from_docs(response_docs, source="response docs"), **options)


__all__ = ["ROOT_CATEGORY", "SPACY_IGNORE_LABELS", "TABLE4", "SentenceResult", "TreeComparison", "compare_docs",
           "compare_files", "compare_treebanks", "spacy_dep_scores", "tree_nodes", "universal_relation"]
