"""TIGER-XML treebanks, read into :class:`~.phrase.PhraseTree` s.

TIGER-XML is the XML encoding of the syntax graphs of TIGERSearch (König,
Lezius & Voormann 2003, *TIGERSearch 2.1 User's Manual*, chapter V "TIGER-XML";
https://www.ims.uni-stuttgart.de/documents/ressourcen/werkzeuge/tigersearch/doc/html/TigerXML.html),
the format of the TIGER treebank. A file is a ``<corpus>`` with an optional
``<head>`` (metadata and the feature declarations, not needed here) and a
``<body>`` whose ``<s>`` elements (possibly grouped in ``<subcorpus>``
elements) are the sentences::

    <s id="s1">
      <graph root="s1_VROOT" discontinuous="true">
        <terminals>
          <t id="s1_1" word="Darüber" lemma="darüber" pos="PROAV" morph="--"/>
          <t id="s1_2" word="muss" lemma="müssen" pos="VMFIN" morph="3.Sg.Pres.Ind"/>
          ...
        </terminals>
        <nonterminals>
          <nt id="s1_500" cat="VP">
            <edge label="MO" idref="s1_1"/>
            <edge label="HD" idref="s1_3"/>
          </nt>
          ...
          <nt id="s1_VROOT" cat="VROOT">
            <edge label="--" idref="s1_502"/>
            ...
          </nt>
        </nonterminals>
      </graph>
    </s>

How it is read:

- the terminals, in file order, are the words: ``word`` (required), ``pos``
  (the tag; ``""`` when absent) and ``lemma`` (kept when any terminal of the
  sentence has one); ``morph`` and other features are not kept;
- each ``<edge idref="X" label="L"/>`` inside ``<nt id="N">`` makes ``N``
  the parent of ``X`` and ``L`` the function of ``X`` there; a terminal or
  non-terminal that no edge points to hangs from the virtual root (``0``)
  with the function ``--``;
- the graph's ``root``: when it names a non-terminal whose ``cat`` is
  ``VROOT`` or ``ROOT`` (TIGER's own convention), that node *is* the virtual
  root: its children get parent ``0`` and :attr:`~.phrase.PhraseTree.root_label`
  is its category. When it names any other non-terminal, that node is a real
  constituent with parent ``0`` (function ``--``, as NEGRA writes it), and
  when it names a terminal (a one-word sentence) the word hangs from ``0``.
  A graph without a ``root`` attribute is read with a virtual root;
- non-terminal ids become the integers :class:`~.phrase.PhraseNode` needs: the
  number after the last ``_`` (``s1_502`` -> 502) when there is one (not 0
  and not already taken), else the next free number from 500 on, in file
  order (``s1_VROOT`` under a real root, ``np_a``), so the same file always
  gives the same ids;
- ``<secedge>`` (secondary edges: a second, non-tree parent) are **ignored**,
  as they are by EVALB-style evaluation; ``discontinuous="true"`` needs
  nothing special, since a node's yield may have gaps anyway
  (:meth:`~.phrase.PhraseTree.constituents`).

``sent_id`` is the ``<s id>`` (its number in the file when absent) and ``line``
the line of the ``<s`` tag. XML is parsed by :func:`~spacy_anno_eval.io.parse.parse_xml`
(entity declarations refused); the encoding comes from the XML declaration
(the TIGER release is ISO-8859-1 or UTF-8).

Errors (:class:`~spacy_anno_eval.errors.InputError`, naming the file, line
and sentence, and what to do): not XML, an entity declaration, a root element
other than ``<corpus>``, a terminal without ``word``, an id used twice, an
``idref`` to nothing, a node with two parents (two ``<edge>`` s pointing to
it), an edge to the graph's root, a ``root`` naming nothing, a cycle.

>>> trees = parse_tiger('''<corpus><body><s id="s7"><graph root="s7_VROOT"><terminals>
...   <t id="s7_1" word="Wen" pos="PWS"/><t id="s7_2" word="mag" pos="VVFIN"/>
...   <t id="s7_3" word="Fritz" pos="NE"/><t id="s7_4" word="?" pos="$."/></terminals>
... <nonterminals>
...   <nt id="s7_500" cat="S"><edge label="OA" idref="s7_1"/><edge label="HD" idref="s7_2"/>
...     <edge label="SB" idref="s7_3"/></nt>
...   <nt id="s7_VROOT" cat="VROOT"><edge label="--" idref="s7_500"/><edge label="--" idref="s7_4"/></nt>
... </nonterminals></graph></s></body></corpus>''')
>>> t = trees[0]
>>> t.sent_id, t.words, t.word_parents, t.root_label
('s7', ('Wen', 'mag', 'Fritz', '?'), (500, 500, 500, 0), 'VROOT')
>>> t.nodes
(PhraseNode(id=500, label='S', function='--', parent=0),)
>>> t.constituents()
[Constituent(label='S', positions=(0, 1, 2))]
"""

from __future__ import annotations

import os
import re
import xml.etree.ElementTree as ET
from pathlib import Path

from ..errors import InputError, where
from ..io.parse import local_name, parse_xml, read_bytes
from .phrase import ROOT, PhraseNode, PhraseTree

#: the categories of a graph root that stands for the virtual root (its children hang from 0)
VIRTUAL_ROOT_CATEGORIES = frozenset({"VROOT", "ROOT"})
#: the function given to a real node hanging from the virtual root (NEGRA's "no edge label")
ROOT_FUNCTION = "--"
FIRST_NODE_ID = 500

_S_TAG = re.compile(rb"<(?:[A-Za-z_][\w.-]*:)?s[\s/>]")
_ID_ATTR = re.compile(rb"""\sid\s*=\s*(["'])(.*?)\1""", re.S)
_ENCODING_DECL = re.compile(r"""^(\ufeff?\s*<\?xml[^>]*?\sencoding\s*=\s*)(["'])[^"']*\2""")


def _sentence_lines(data: bytes) -> list[tuple[str | None, int]]:
    """The id and line of each ``<s ...>`` start tag in the raw bytes, in order, for messages (ElementTree keeps no
    line numbers); empty when the encoding is not ASCII-compatible. One pass, no XML parsing."""
    found: list[tuple[str | None, int]] = []
    line, pos = 1, 0
    for m in _S_TAG.finditer(data):
        end = data.find(b">", m.start())
        if end < 0:
            break
        ident = _ID_ATTR.search(data, m.start(), end + 1)
        line += data.count(b"\n", pos, m.start())
        pos = m.start()
        found.append((ident.group(2).decode("utf-8", "replace") if ident else None, line))
    return found


def _line_of(s: ET.Element, number: int, lines: list[tuple[str | None, int]]) -> int | None:
    """The line of the ``number``-th sentence ``s``: the ``number``-th ``<s`` tag when its id agrees, else the
    first ``<s`` tag with that id."""
    ident = s.get("id")
    if number <= len(lines) and lines[number - 1][0] == ident:
        return lines[number - 1][1]
    return next((ln for i, ln in lines if i is not None and i == ident), None)


def _children(elem: ET.Element, name: str) -> list[ET.Element]:
    return [c for c in elem if local_name(c.tag) == name]


def _child(elem: ET.Element, name: str) -> ET.Element | None:
    for c in elem:
        if local_name(c.tag) == name:
            return c
    return None


def _sentences(container: ET.Element):
    """The ``<s>`` elements under ``container`` in document order (inside ``<subcorpus>`` too), each cleared after
    use so that a large corpus does not keep two copies of every sentence."""
    for child in list(container):
        name = local_name(child.tag)
        if name == "s":
            yield child
            child.clear()
        elif name in ("subcorpus", "body"):
            yield from _sentences(child)


def _node_ids(nt_ids: list[str]) -> dict[str, int]:
    """Integer ids for the non-terminals: the number after the last ``_`` when free, else 500, 501, ... (first free
    ones), in file order."""
    out: dict[str, int] = {}
    taken: set[int] = set()
    for xid in nt_ids:
        suffix = xid.rsplit("_", 1)[-1]
        if suffix.isascii() and suffix.isdigit() and int(suffix) != ROOT and int(suffix) not in taken:
            out[xid] = int(suffix)
            taken.add(int(suffix))
    nxt = FIRST_NODE_ID
    for xid in nt_ids:
        if xid not in out:
            while nxt in taken:
                nxt += 1
            out[xid] = nxt
            taken.add(nxt)
    return out


def _sentence(s: ET.Element, number: int, source: str, line: int | None) -> PhraseTree:
    sent_id = s.get("id") or str(number)
    at = ", ".join(p for p in (where(source, line=line), f"sentence {sent_id}") if p)

    def fail(what: str, todo: str) -> InputError:
        return InputError(f"{at}: {what}; {todo}")

    graph = _child(s, "graph")
    if graph is None:
        raise fail("<s> has no <graph>", "each TIGER-XML sentence is <s id=...><graph root=...>...</graph></s>")
    terminals = _child(graph, "terminals")
    nonterminals = _child(graph, "nonterminals")
    ts = _children(terminals, "t") if terminals is not None else []
    nts = _children(nonterminals, "nt") if nonterminals is not None else []

    words, tags, lemmas, t_index = [], [], [], {}
    has_lemma = False
    for i, t in enumerate(ts):
        tid = t.get("id")
        if not tid:
            raise fail(f"terminal {i + 1} has no id", "give every <t> an id attribute")
        if tid in t_index:
            raise fail(f"the id {tid!r} is used by two terminals", "make the ids of a sentence unique")
        word = t.get("word")
        if word is None:
            raise fail(f"terminal {tid!r} has no word attribute", 'write the token as <t id=... word="...">')
        t_index[tid] = i
        words.append(word)
        tags.append(t.get("pos", ""))
        lemma = t.get("lemma")
        has_lemma = has_lemma or lemma is not None
        lemmas.append(lemma if lemma is not None else "")

    nt_xids = []
    for i, nt in enumerate(nts):
        xid = nt.get("id")
        if not xid:
            raise fail(f"non-terminal {i + 1} has no id", "give every <nt> an id attribute")
        if xid in t_index or xid in nt_xids:
            raise fail(f"the id {xid!r} is used twice", "make the ids of a sentence unique")
        nt_xids.append(xid)

    root = graph.get("root")
    virtual = root is None or root == ""
    if not virtual and root not in t_index and root not in nt_xids:
        known = ", ".join(repr(x) for x in [*nt_xids, *t_index][:8])
        raise fail(f"the graph's root {root!r} is neither a terminal nor a non-terminal of the sentence "
                   f"(ids: {known or 'none'})", "set <graph root=...> to the id of the top node")
    root_label = "VROOT"
    root_elem = nts[nt_xids.index(root)] if not virtual and root in nt_xids else None
    if root_elem is not None and root_elem.get("cat", "") in VIRTUAL_ROOT_CATEGORIES:
        virtual = True
        root_label = root_elem.get("cat")
    else:
        root_elem = None
    ids = _node_ids([x for x in nt_xids if root_elem is None or x != root])

    # parent (XML id) and function of every terminal and non-terminal that an edge points to
    parent_of: dict[str, tuple[str, str]] = {}
    for nt, xid in zip(nts, nt_xids, strict=True):
        for edge in _children(nt, "edge"):  # <secedge> are secondary edges: not part of the tree
            ref = edge.get("idref")
            if not ref:
                raise fail(f"an <edge> of {xid!r} has no idref", "name the child node: <edge label=.. idref=..>")
            if ref not in t_index and ref not in nt_xids:
                raise fail(f"<edge idref={ref!r}> in {xid!r} points to nothing in the sentence",
                           "fix the idref to the id of a <t> or <nt> of the same <s>")
            if ref == root:
                raise fail(f"<edge idref={ref!r}> in {xid!r} points to the graph's root",
                           "the root has no parent: remove the edge or fix <graph root=...>")
            if ref in parent_of:
                raise fail(f"{ref!r} has two parents, {parent_of[ref][0]!r} and {xid!r}",
                           "a tree node has one parent: keep one <edge> (a second parent is a <secedge>)")
            parent_of[ref] = (xid, edge.get("label", ROOT_FUNCTION))

    def parent(ref: str) -> tuple[int, str]:
        if ref not in parent_of:
            return ROOT, ROOT_FUNCTION
        xid, label = parent_of[ref]
        return (ROOT if root_elem is not None and xid == root else ids[xid]), label

    word_parents, word_functions = [], []
    for tid in t_index:
        p, f = parent(tid)
        word_parents.append(p)
        word_functions.append(f)
    nodes = []
    for nt, xid in zip(nts, nt_xids, strict=True):
        if root_elem is not None and xid == root:
            continue
        p, f = parent(xid)
        nodes.append(PhraseNode(ids[xid], nt.get("cat", ""), f, p))
    try:
        return PhraseTree(words=tuple(words), tags=tuple(tags), word_parents=tuple(word_parents),
                          word_functions=tuple(word_functions), nodes=tuple(nodes),
                          lemmas=tuple(lemmas) if has_lemma else (), sent_id=sent_id, source=source, line=line,
                          root_label=root_label)
    except InputError as exc:  # a cycle: PhraseTree says where; add what to do
        raise InputError(f"{exc}; fix the <edge> elements so that every node leads to the graph's root") from None


def parse_tiger(data: str | bytes, source: str = "<string>") -> list[PhraseTree]:
    """Parse TIGER-XML from a string or bytes; ``source`` names it in messages. See the module docstring.

    A ``str`` is taken as already decoded: its XML declaration's ``encoding`` is disregarded.

    >>> [t.words for t in parse_tiger(b'<corpus><body><s id="a"><graph root="a_1"><terminals>'
    ...                                b'<t id="a_1" word="Hallo" pos="ITJ"/></terminals></graph></s></body></corpus>')]
    [('Hallo',)]
    """
    if isinstance(data, str):
        data = _ENCODING_DECL.sub(r'\1"UTF-8"', data, count=1).encode("utf-8")
    root = parse_xml(data=data, source=source)
    if local_name(root.tag) != "corpus":
        raise InputError(f"{source}: the root element is <{local_name(root.tag)}>, not <corpus>: not TIGER-XML; "
                         f"a TIGER-XML file is <corpus><head>...</head><body><s>...</s></body></corpus>")
    lines = _sentence_lines(data)
    body = _child(root, "body")
    trees = []
    for number, s in enumerate(_sentences(body if body is not None else root), 1):
        trees.append(_sentence(s, number, source, _line_of(s, number, lines)))
    return trees


def read_tiger(path: str | os.PathLike) -> list[PhraseTree]:
    """Read a TIGER-XML file (see the module docstring for the format and the errors). A corpus without an
    ``<s>``, or whose sentences hold no terminal, is an :class:`InputError` (nothing to compare)."""
    from .checks import refuse_empty

    p = Path(path)
    trees = parse_tiger(read_bytes(p, what="a TIGER-XML treebank"), source=str(p))
    refuse_empty(trees, str(p), fix="a TIGER-XML corpus holds its sentences as <s> elements in <body>, each "
                                    "with its words as <t word=...> terminals")
    return trees


__all__ = ["VIRTUAL_ROOT_CATEGORIES", "parse_tiger", "read_tiger"]
