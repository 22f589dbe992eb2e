"""Samples of the treebank formats, one function per reader (:meth:`spacy_anno_eval.io.registry.Reader.sample`).

Each function writes one small file of its format from a
:class:`~spacy_anno_eval.io.registry.Sample`: one sentence whose words are
those of ``case.text`` (split at spaces), whose first word carries
``case.label`` (a phrase over it; in CoNLL-U its relation), whose id is
``case.doc_id`` where the format names sentences (else ``None`` is returned
for a case with another id than the default); treebanks hold no number the
readers read (``None`` for a case with one); nested ``case.depth`` levels
where the format nests (brackets: brackets; NEGRA and TIGER-XML: a chain of
phrases, each the parent of the next); or no sentence at all (``case.empty``).
Text that UTF-8 cannot encode (a lone surrogate) is written as the bytes
``surrogatepass`` gives, which no UTF-8 decoder accepts: what a damaged file
holds. The contract suite (``tests/test_reader_contract.py``) reads every
sample through its reader. Nothing heavy is imported here.
"""

from __future__ import annotations

import os

from ..io.registry import Files, Sample
from ..io.samples import sample_words, utf8

_DEFAULT_ID = Sample().doc_id


def _unwritable(case: Sample, *, ids: bool, nests: bool) -> bool:
    """Whether ``case`` asks for what the format cannot hold: a number; an id other than the default where
    sentences have no id; nesting where the format does not nest."""
    return case.number is not None or (not ids and case.doc_id != _DEFAULT_ID) or (not nests and case.depth > 0)


def _xml(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace('"', "&quot;")


def conllu(case: Sample) -> Files | None:
    """CoNLL-U (UD v2): ``# sent_id`` and ``# text`` comments, one word line each, ten TAB-separated fields; the
    first word's DEPREL is the label (its head the second word, the root). No number, no nesting."""
    if _unwritable(case, ids=True, nests=False):
        return None
    if case.empty:
        return {"sample.conllu": b""}
    words = [w for _, _, w in sample_words(case.text)]
    lines = [f"# sent_id = {case.doc_id}", f"# text = {case.text}"]
    root = 2 if len(words) > 1 else 1
    for k, word in enumerate(words, 1):
        head, deprel = (0, "root") if k == root else ((root, case.label) if k == 1 else (root, "dep"))
        lines.append("\t".join([str(k), word, "_", "X", "_", "_", str(head), deprel, "_", "_"]))
    return {"sample.conllu": utf8("\n".join(lines) + "\n\n")}


def _bracket_leaves(words: list[str], label: str, depth: int, leaf: str) -> str:
    """``(LABEL leaf0) (NN leaf1) ...``: the first word inside a phrase ``label``, wrapped in ``depth`` more
    phrases ``X``."""
    first = f"({label} ({leaf.format(0, words[0], tag='NE')}))"
    first = "(X " * depth + first + ")" * depth
    rest = [f"({leaf.format(k, w, tag='NN')})" for k, w in enumerate(words[1:], 1)]
    return " ".join([first, *rest])


def brackets(case: Sample) -> Files | None:
    """Penn Treebank brackets, one tree per line (EVALB's layout) with the PTB's empty outer bracket: the first
    word in a phrase labelled ``case.label``; the depth wraps it in phrases ``X``. Sentences have no id."""
    if _unwritable(case, ids=False, nests=True):
        return None
    if case.empty:
        return {"sample.mrg": b""}
    words = [w for _, _, w in sample_words(case.text)]
    tree = "( (S " + _bracket_leaves(words, case.label, case.depth, "{tag} {1}") + "))"
    return {"sample.mrg": utf8(tree + "\n")}


def discbracket(case: Sample) -> Files | None:
    """disco-dop's discbracket: one tree per line, leaves ``index=word`` under a ``ROOT``; the first word in a
    phrase labelled ``case.label``; the depth wraps it in phrases ``X``. Sentences are numbered, not named."""
    if _unwritable(case, ids=False, nests=True):
        return None
    if case.empty:
        return {"sample.discbracket": b""}
    words = [w for _, _, w in sample_words(case.text)]
    tree = "(ROOT (S " + _bracket_leaves(words, case.label, case.depth, "{tag} {0}={1}") + "))"
    return {"sample.discbracket": utf8(tree + "\n")}


def export(case: Sample) -> Files | None:
    """NEGRA export, version 3 (``#FORMAT 3``): one ``#BOS <id>`` block; the first word under a node ``#500``
    labelled ``case.label``; every other word and the top node hang from the virtual root. The depth chains
    nodes: ``#500`` under ``#501`` under ... (each a parent of the next), as deep as the case asks."""
    if _unwritable(case, ids=True, nests=True):
        return None
    if case.empty:
        return {"sample.export": b"#FORMAT 3\n"}
    words = [w for _, _, w in sample_words(case.text)]
    lines = ["#FORMAT 3", f"#BOS {case.doc_id}"]
    for k, word in enumerate(words):
        lines.append("\t".join([word, "NE" if k == 0 else "NN", "--", "HD" if k == 0 else "--",
                                "500" if k == 0 else "0"]))
    for d in range(case.depth + 1):
        node, label = 500 + d, case.label if d == 0 else "X"
        parent = str(node + 1) if d < case.depth else "0"
        lines.append("\t".join([f"#{node}", label, "--", "HD" if parent != "0" else "--", parent]))
    lines.append(f"#EOS {case.doc_id}")
    return {"sample.export": utf8("\n".join(lines) + "\n")}


def tiger(case: Sample) -> Files | None:
    """TIGER-XML: one ``<s id>`` graph under a virtual root (``VROOT``); the first word under a phrase
    labelled ``case.label``; the depth chains phrases ``X`` above it (graph depth through ``<edge idref>``, the
    XML staying flat)."""
    if _unwritable(case, ids=True, nests=True):
        return None
    parts = ['<?xml version="1.0" encoding="UTF-8"?>', '<corpus id="sample">', "<head/>", "<body>"]
    if not case.empty:
        s = _xml(case.doc_id)
        words = [w for _, _, w in sample_words(case.text)]
        parts.append(f'<s id="{s}"><graph root="{s}_VROOT"><terminals>')
        for k, word in enumerate(words, 1):
            parts.append(f'<t id="{s}_{k}" word="{_xml(word)}" pos="{"NE" if k == 1 else "NN"}"/>')
        parts.append("</terminals><nonterminals>")
        child = f"{s}_1"
        for d in range(case.depth + 1):
            node = f"{s}_{500 + d}"
            label = _xml(case.label) if d == 0 else "X"
            parts.append(f'<nt id="{node}" cat="{label}"><edge label="HD" idref="{child}"/></nt>')
            child = node
        edges = "".join(f'<edge label="--" idref="{r}"/>' for r in [child] + [f"{s}_{k}" for k in
                                                                             range(2, len(words) + 1)])
        parts.append(f'<nt id="{s}_VROOT" cat="VROOT">{edges}</nt></nonterminals></graph></s>')
    parts += ["</body>", "</corpus>"]
    return {"sample.tiger.xml": utf8("\n".join(parts) + "\n")}


def is_tiger(path: str | os.PathLike) -> bool:
    """Whether the XML file ``path`` is TIGER-XML: its root element is ``corpus`` (read from its first bytes; no
    entity is expanded)."""
    from ..io.parse import root_name

    return root_name(path) == "corpus"
