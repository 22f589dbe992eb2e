"""Compare two phrase-structure annotations of the same sentences: word, node and sentence level.

Brants and Skut (1998), "Automation of Treebank Annotation", *NeMLaP3/CoNLL98*,
section 4: two annotations of a sentence "share identical terminal nodes";
phrasal nodes "are compared on the basis of their yields", which "need not be
contiguous" (crossing branches, NEGRA); 4.1's algorithm: "for each
non-terminal node X in A: search node Y in B such that yield(X) = yield(Y);
if Y exists: emit different labels if any; if Y does not exist: emit X", run
both ways. Section 4.3 counts agreement at three levels (Table 4):

word level (every word; ratios over words)
    (1) ``parent_node``: the word's parent node has the same yield in both
    (the node "does a word belong to" is the same node); ``parent_category``:
    the parent's category is the same ("does a word belong to a PP, NP,
    etc.?"; the virtual root counts as ``VROOT``); (2)
    ``grammatical_function``: the word's edge label is the same. Also the tag.
node level (every non-terminal of either tree; the virtual root is not one)
    (3) ``identical_nodes``: a node of the other tree has the same yield; (4)
    ... and the same category; (5) ... and the same function in its parent.
    With ``k`` key nodes, ``r`` response nodes and ``m`` matched,
    precision ``m / r``, recall ``m / k``, ratio ``2m / (k + r)`` (= F1).
sentence level (every sentence)
    (6) ``identical_structure``: the same yields (as multisets); (7)
    ``identical_annotation``: also the same categories, functions of nodes
    and words, and tags (4.3: "exactly the same annotation"; the closing
    paragraph counts "complete structure and all tags").

Unary branching: 4.1 notes that a parent and its only child share a yield,
so "further mechanism to determine corresponding nodes" is needed. Here the
nodes of one yield pair within that yield, first those equal in category and
function, then in category, then the rest in tree order (outer first), so
that a unary chain ``NP > NP`` against ``NP`` counts one node matched and one
key-only.

Nothing is deleted (no parameter file; EVALB-style scoring with deletions is
:mod:`~.disco`). Sentences pair by id, else by position; a pair whose words
differ is not compared: it is counted in ``errors`` with the first
difference, and left out of every figure. Undefined ratios follow the
package's policy (``zero_division``, one warning).

>>> from spacy_anno_eval.trees.negra import parse_negra
>>> key = parse_negra("#BOS 1\\nhe\\tP\\t--\\tSB\\t501\\nsaw\\tV\\t--\\tHD\\t500\\nit\\tP\\t--\\tOA\\t500\\n"
...                   "#500\\tVP\\t--\\tOC\\t501\\n#501\\tS\\t--\\t--\\t0\\n#EOS 1")
>>> rsp = parse_negra("#BOS 1\\nhe\\tP\\t--\\tSB\\t501\\nsaw\\tV\\t--\\tHD\\t501\\nit\\tP\\t--\\tOA\\t501\\n"
...                   "#501\\tS\\t--\\t--\\t0\\n#EOS 1")
>>> c = compare_phrase_treebanks(key, rsp)
>>> c.table4()["3_identical_nodes"], c.nodes_key, c.nodes_response, c.nodes_identical
(0.6666666666666666, 2, 1, 1)
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..files import write_rows
from .disco import pair_sentences
from .phrase import ROOT, PhraseTree
from .records import TABLE4, PhraseNodeDiff, PhraseSentence, Ratios, WordDiff, arrow, format_ids, yield_text

#: the columns of :meth:`PhraseComparison.diff_rows`
PHRASE_DIFF_COLUMNS = ("sentence", "sent_id", "kind", "status", "id", "form", "yield", "key_label",
                       "response_label", "key_function", "response_function", "key_parent", "response_parent",
                       "key_tag", "response_tag")


def _node_info(tree: PhraseTree) -> dict[int, tuple[tuple[int, ...], str, str, int]]:
    """node id -> (yield, label, function, depth) for the nodes that dominate a word."""
    ys = tree.yields()
    parent = {n.id: n.parent for n in tree.nodes}

    def depth(i: int) -> int:
        d = 0
        while i != ROOT:
            i, d = parent[i], d + 1
        return d

    return {n.id: (ys[n.id], n.label, n.function, depth(n.id)) for n in tree.nodes if ys[n.id]}


def _pair_nodes(key: dict, rsp: dict) -> tuple[dict[int, int], list[int], list[int]]:
    """Pair key and response nodes of equal yield (see the module docstring); unpaired ids of each side."""
    by_yield: dict[tuple[int, ...], tuple[list[int], list[int]]] = {}
    for side, nodes in ((0, key), (1, rsp)):
        for i, (ys, _, _, _depth) in sorted(nodes.items(), key=lambda kv: (kv[1][3], kv[0])):
            by_yield.setdefault(ys, ([], []))[side].append(i)
    pairs: dict[int, int] = {}
    key_only, rsp_only = [], []
    for ks, rs in by_yield.values():
        ks, rs = list(ks), list(rs)
        for same in (lambda a, b: key[a][1:3] == rsp[b][1:3], lambda a, b: key[a][1] == rsp[b][1],
                     lambda a, b: True):
            for a in list(ks):
                b = next((b for b in rs if same(a, b)), None)
                if b is not None:
                    pairs[a] = b
                    ks.remove(a)
                    rs.remove(b)
        key_only += ks
        rsp_only += rs
    return pairs, key_only, rsp_only


def _compare(index: int, key: PhraseTree, rsp: PhraseTree) -> PhraseSentence:
    s = PhraseSentence(index, key.sent_id, key.words)
    if key.words != rsp.words:
        first = next((i for i, (a, b) in enumerate(zip(key.words, rsp.words, strict=False)) if a != b),
                     min(len(key.words), len(rsp.words)))
        a = key.words[first] if first < len(key.words) else "(end)"
        b = rsp.words[first] if first < len(rsp.words) else "(end)"
        s.error = f"words differ at word {first + 1}: {a!r} / {b!r} ({len(key.words)} / {len(rsp.words)} words)"
        return s
    kn, rn = _node_info(key), _node_info(rsp)
    pairs, key_only, rsp_only = _pair_nodes(kn, rn)
    s.nodes_key, s.nodes_response, s.nodes_identical = len(kn), len(rn), len(pairs)
    for a, b in pairs.items():
        same_label = kn[a][1] == rn[b][1]
        s.nodes_labelled += same_label
        s.nodes_functional += same_label and kn[a][2] == rn[b][2]
        status = "+".join(x for x, differs in (("label", not same_label), ("function", kn[a][2] != rn[b][2]))
                          if differs)
        if status:
            s.nodes.append(PhraseNodeDiff(tuple(i + 1 for i in kn[a][0]), status, kn[a][1], rn[b][1], kn[a][2],
                                          rn[b][2]))
    for side, ids, info in (("key_only", key_only, kn), ("response_only", rsp_only, rn)):
        for i in ids:
            ys, label, function, _ = info[i]
            k = side == "key_only"
            s.nodes.append(PhraseNodeDiff(tuple(j + 1 for j in ys), side, label if k else None,
                                          None if k else label, function if k else None, None if k else function))
    s.nodes.sort(key=lambda d: (d.ids[0], -len(d.ids), d.status))
    k_label = {n.id: n.label for n in key.nodes}
    r_label = {n.id: n.label for n in rsp.nodes}
    for i, form in enumerate(key.words):
        kp, rp = key.word_parents[i], rsp.word_parents[i]
        same_node = (kp == rp == ROOT) or (kp != ROOT and rp != ROOT and kn.get(kp, ((),))[0] == rn.get(rp, ((),))[0])
        kc, rc = k_label.get(kp, key.root_label), r_label.get(rp, rsp.root_label)
        same_cat = kc == rc
        same_fn = key.word_functions[i] == rsp.word_functions[i]
        same_tag = key.tags[i] == rsp.tags[i]
        s.parent_node += same_node
        s.parent_category += same_cat
        s.function += same_fn
        s.tag += same_tag
        status = "+".join(x for x, ok in (("parent", same_node and same_cat), ("function", same_fn),
                                          ("tag", same_tag)) if not ok)
        if status:
            kpn = f"{kc} {_ids(kn, kp)}" if kp != ROOT else kc
            rpn = f"{rc} {_ids(rn, rp)}" if rp != ROOT else rc
            s.words.append(WordDiff(i + 1, form, kpn, rpn, key.word_functions[i], rsp.word_functions[i],
                                    key.tags[i], rsp.tags[i], status))
    return s


def _ids(info: dict, node: int) -> str:
    return format_ids(j + 1 for j in info[node][0]) if node in info else "-"


@dataclass
class PhraseComparison:
    """The result of :func:`compare_phrase_treebanks`; see the module docstring."""

    key_source: str
    response_source: str
    sentences: list[PhraseSentence] = field(default_factory=list)
    zero_division: float = 0.0

    @property
    def compared(self) -> list[PhraseSentence]:
        return [s for s in self.sentences if not s.error]

    def _sum(self, name: str) -> int:
        return sum(getattr(s, name) for s in self.compared)

    @property
    def n_words(self) -> int:
        return sum(len(s.forms) for s in self.compared)

    @property
    def nodes_key(self) -> int:
        return self._sum("nodes_key")

    @property
    def nodes_response(self) -> int:
        return self._sum("nodes_response")

    @property
    def nodes_identical(self) -> int:
        return self._sum("nodes_identical")

    def _table4(self, ratios: Ratios) -> dict[str, float]:
        n, k, r, s = self.n_words, self.nodes_key, self.nodes_response, len(self.compared)
        parts = ((self._sum("parent_node"), n), (self._sum("parent_category"), n), (self._sum("function"), n),
                 (2 * self.nodes_identical, k + r), (2 * self._sum("nodes_labelled"), k + r),
                 (2 * self._sum("nodes_functional"), k + r),
                 (sum(x.identical_structure for x in self.compared), s),
                 (sum(x.identical_annotation for x in self.compared), s))
        return {name: ratios(num, den, f"table4 {name}") for name, (num, den) in zip(TABLE4, parts, strict=True)}

    def table4(self) -> dict[str, float]:
        """Brants and Skut's seven levels (word 1-2, node 3-5, sentence 6-7) as ratios."""
        ratios = Ratios(self.zero_division)
        out = self._table4(ratios)
        ratios.warn()
        return out

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: ``word`` (parent node / category, function, tag: correct, total, ratio), ``node``
        (identical yields / labelled / functional: identical, key, response, precision, recall, f, ratio),
        ``sentence`` (identical structure / annotation), ``table4``, ``errors`` (pairs not compared)."""
        ratios = Ratios(self.zero_division)
        n, k, r, s = self.n_words, self.nodes_key, self.nodes_response, len(self.compared)
        out = {
            "key": self.key_source, "response": self.response_source,
            "n_sentences": len(self.sentences), "n_compared": s, "n_words": n,
            "word": {name: ratios.count(self._sum(attr), n, f"word {name}") for name, attr in (
                ("parent_node", "parent_node"), ("parent_category", "parent_category"),
                ("grammatical_function", "function"), ("tag", "tag"))},
            "node": {name: ratios.nodes(self._sum(attr), k, r, f"node {name}") for name, attr in (
                ("identical_yields", "nodes_identical"), ("labelled", "nodes_labelled"),
                ("functional", "nodes_functional"))},
            "sentence": {name: {"count": c, "total": s, "ratio": ratios(c, s, f"sentence {name}")}
                         for name, c in (("identical_structure", sum(x.identical_structure for x in self.compared)),
                                         ("identical_annotation",
                                          sum(x.identical_annotation for x in self.compared)))},
            "table4": self._table4(ratios),
            "errors": [{"sentence": x.index + 1, "sent_id": x.sent_id, "message": x.error}
                       for x in self.sentences if x.error],
            "n_differing_sentences": sum(1 for x in self.compared if x.words or x.nodes),
            "zero_division": self.zero_division,
        }
        ratios.warn()
        return out

    def to_json(self, indent: int | None = 2) -> str:
        """:meth:`to_dict` as strict JSON text (:func:`~spacy_anno_eval.files.json_text`: no NaN)."""
        from ..files import json_text

        return json_text(self.to_dict(), indent=indent)

    def diff_rows(self) -> list[dict[str, Any]]:
        """The differences as flat rows (:data:`PHRASE_DIFF_COLUMNS`): ``kind="word"`` per differing word,
        ``kind="node"`` per node in one tree only or with another label/function; ``kind="error"`` per
        sentence pair whose words differ."""
        rows = []
        blank = dict.fromkeys(PHRASE_DIFF_COLUMNS)
        for s in self.sentences:
            base = {**blank, "sentence": s.index + 1, "sent_id": s.sent_id}
            if s.error:
                rows.append({**base, "kind": "error", "status": "words_differ", "form": s.error})
            for w in s.words:
                rows.append({**base, "kind": "word", "status": w.status, "id": w.id, "form": w.form,
                             "key_parent": w.key_parent, "response_parent": w.response_parent,
                             "key_function": w.key_function, "response_function": w.response_function,
                             "key_tag": w.key_tag, "response_tag": w.response_tag})
            for d in s.nodes:
                rows.append({**base, "kind": "node", "status": d.status, "form": yield_text(s, d.ids, 10**9),
                             "yield": d.span, "key_label": d.key_label, "response_label": d.response_label,
                             "key_function": d.key_function, "response_function": d.response_function})
        return rows

    def render_diff(self, *, max_sentences: int | None = None, notes: Mapping[int, Sequence[str]] | None = None
                    ) -> str:
        """The differences as text, sentence by sentence (figures 5 and 6 of the paper, in words): a header
        with the node counts, the text, the sentence's ``notes`` (by 0-based index: lines other results add,
        such as both annotations' perplexities, each after ``# ``; a sentence with a note is shown even without
        a difference here), one line per differing word (``3 saw  parent VP 2-3→S 1-3``), one per
        differing node (``node 2-3  key only  VP/OC  "saw it"``); arrows mark key→response."""
        lines = [f"# differences {self.key_source} → {self.response_source} (key→response; word ids from 1)"]
        total, shown = len(self.sentences), 0
        notes = notes or {}
        differing = [s for s in self.sentences if s.error or s.words or s.nodes or s.index in notes]
        for s in differing:
            if max_sentences is not None and shown >= max_sentences:
                lines += ["", f"# ... {len(differing) - shown} more differing sentences"]
                break
            shown += 1
            lines += ["", f"# sentence {s.index + 1}/{total}  sent_id = {s.sent_id}  nodes {s.nodes_identical} "
                          f"identical of {s.nodes_key} key / {s.nodes_response} response",
                      f"# text = {' '.join(s.forms)}"]
            lines += [f"# {note}" for note in notes.get(s.index, ())]
            if s.error:
                lines.append(f"  not compared: {s.error}")
                continue
            idw = len(str(len(s.forms)))
            for w in s.words:
                parts = []
                if "parent" in w.status:
                    parts.append(f"parent {arrow(w.key_parent, w.response_parent)}")
                if "function" in w.status:
                    parts.append(f"function {arrow(w.key_function, w.response_function)}")
                if "tag" in w.status:
                    parts.append(f"tag {arrow(w.key_tag, w.response_tag)}")
                lines.append(f"  {w.id:>{idw}} {w.form}  {'  '.join(parts)}")
            if s.nodes:
                spanw = max(len(d.span) for d in s.nodes)
                for d in s.nodes:
                    if d.status == "key_only":
                        what = f"key only       {_labelled(d.key_label, d.key_function)}"
                    elif d.status == "response_only":
                        what = f"response only  {_labelled(d.response_label, d.response_function)}"
                    else:
                        fn = arrow(d.key_function, d.response_function)
                        what = f"{d.status:<14} {arrow(d.key_label, d.response_label)}{'/' + fn if fn else ''}"
                    lines.append(f"  node {d.span:<{spanw}}  {what}  \"{yield_text(s, d.ids)}\"")
        if shown == 0:
            lines += ["", "# no differences"]
        return "\n".join(lines) + "\n"

    def write_diff(self, path: str | os.PathLike) -> Path:
        """Write :meth:`diff_rows` atomically: JSON lines for ``.jsonl``, else TSV with a header."""
        return write_rows(path, self.diff_rows(), PHRASE_DIFF_COLUMNS)


def _labelled(label: str | None, function: str | None) -> str:
    """``VP/OC``; the label alone without a function (``--`` and empty are none)."""
    return f"{label}/{function}" if function and function != "--" else str(label)


def compare_phrase_treebanks(key: Sequence[PhraseTree], response: Sequence[PhraseTree], *,
                             zero_division: float = 0.0, key_source: str = "key",
                             response_source: str = "response") -> PhraseComparison:
    """Compare two phrase-structure treebanks sentence by sentence (see the module docstring). A key
    sentence missing from the response is an error pair (not compared, listed). A side without a sentence
    with words is an :class:`InputError` (nothing to compare; :func:`~.checks.refuse_empty`)."""
    from ..figures import check_zero_division
    from .checks import refuse_empty

    check_zero_division(zero_division)
    refuse_empty(key, key_source, "key")
    refuse_empty(response, response_source, "response")
    result = PhraseComparison(key_source, response_source, zero_division=zero_division)
    for i, (k, r) in enumerate(pair_sentences(key, response, f"{key_source} / {response_source}")):
        if r is None:
            s = PhraseSentence(i, k.sent_id, k.words, error="no response sentence with this id")
        else:
            s = _compare(i, k, r)
        result.sentences.append(s)
    return result


def compare_phrase_files(key: str | os.PathLike, response: str | os.PathLike, tree_format: str = "auto",
                         **options: Any) -> PhraseComparison:
    """Read two treebanks (:func:`~.readers.read_phrase_trees`) and compare them."""
    from .readers import read_phrase_trees

    return compare_phrase_treebanks(read_phrase_trees(key, tree_format), read_phrase_trees(response, tree_format),
                                    key_source=str(key), response_source=str(response), **options)


__all__ = ["PHRASE_DIFF_COLUMNS", "PhraseComparison", "PhraseNodeDiff", "PhraseSentence", "WordDiff",
           "compare_phrase_files", "compare_phrase_treebanks"]
