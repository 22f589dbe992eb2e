"""disco-dop's *discbracket* format: discontinuous trees in bracket notation, read into :class:`~.phrase.PhraseTree` s.

The format of the disco-dop parser (van Cranenburgh, Scha & Bod 2016, JLM
4(1); documented at https://discodop.readthedocs.io/en/latest/fileformats.html,
"discbracket"): one tree per line, in Penn Treebank bracket notation, except
that each leaf is written ``index=word``, the index (0-based) being the word's
position in the sentence. Leaves appear in tree order, not sentence order, so
a bracket may cover words that are not adjacent::

    (ROOT (S (VMFIN 1=muss) (VP (VP (PROAV 0=Darüber) (VVPP 2=nachgedacht)) (VAINF 3=werden))) ($. 4=.))

is the sentence *Darüber muss nachgedacht werden .* with the inner VP over
words 0 and 2 (:meth:`~.phrase.PhraseTree.constituents` gives its yield
``(0, 2)``). The indices must be ``0 .. n-1``, each exactly once.

How it is read (decisions where the format leaves room):

- a bracket that holds exactly one leaf is a **preterminal**: its label is
  the word's tag, as in disco-dop (whose own example ``(NP 1=John)`` is the
  word *John* tagged ``NP``, NEGRA's ``John NP -- -- 0``); every other
  bracket is a phrase (a :class:`~.phrase.PhraseNode`, ids 500, 501, ... in
  preorder, function ``""``: the format has no edge labels);
- a single top-level bracket labelled ``ROOT`` or ``VROOT`` (disco-dop writes
  ``ROOT``), or without a label (``( (S ...))``, the Penn Treebank's outer
  bracket), stands for the virtual root: its children hang from ``0`` and its
  label becomes :attr:`~.phrase.PhraseTree.root_label`. Otherwise the
  top-level brackets themselves hang from ``0`` (root label ``""``);
- words are unescaped as disco-dop writes them: ``#LRB#`` -> ``(`` and
  ``#RRB#`` -> ``)``; PTB escapes such as ``-LRB-`` are kept as written, as
  disco-dop's reader keeps them. A word may contain ``=`` (the index ends at
  the first one);
- labels are kept as written (``NP-SB``; disco-dop writes the STTS tag
  ``$(`` as ``$[``), unless ``functions="split"``: then, as disco-dop does,
  ``NP-SB`` is label ``NP`` with function ``SB`` (``NP-2`` and ``NP=2`` are
  ``NP`` without one; ``-NONE-`` is left alone), for tags too;
- a TAB after a complete tree starts a comment (disco-dop's convention), which
  is skipped; blank lines are skipped; ``sent_id`` is the line number (as
  disco-dop numbers the trees of a file);
- a bracket without words, ``(NP )``, is kept with an empty yield and is not
  a constituent, as in :mod:`~.brackets`.

Errors (:class:`~spacy_anno_eval.errors.InputError`, naming the file and
line, and what to do): an unbalanced bracket, a leaf without ``index=``, an
empty word (disco-dop's tree fragments ``2=`` are not treebank trees), a
bracket holding several leaves or a leaf beside brackets, a leaf outside any
bracket, indices that are not ``0 .. n-1`` each once, brackets nested deeper
than 200 levels (checked line by line before parsing,
:func:`~spacy_anno_eval.io.parse.check_brackets`), a file that is not UTF-8.

>>> t = parse_discbracket("(ROOT (S (VP (VB 0=is) (JJ 2=rich)) (NP 1=John)) (? 3=?))")[0]
>>> t.words, t.tags, t.root_label
(('is', 'John', 'rich', '?'), ('VB', 'NP', 'JJ', '?'), 'ROOT')
>>> t.constituents()
[Constituent(label='S', positions=(0, 1, 2)), Constituent(label='VP', positions=(0, 2))]
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import ConfigError, InputError, where
from ..io.parse import check_brackets
from .brackets import read_text_file
from .phrase import ROOT, PhraseNode, PhraseTree

#: top-level labels that stand for the virtual root ("" is the Penn Treebank's empty outer bracket)
ROOT_LABELS = frozenset({"ROOT", "VROOT", ""})
#: ``functions=`` choices
FUNCTIONS = ("keep", "split")
FIRST_NODE_ID = 500

_TOKEN = re.compile(r"\(|\)|[^\s()]+")
_LEAF = re.compile(r"(\d+)=(.*)", re.S)


@dataclass
class _Bracket:
    label: str
    col: int
    children: list = field(default_factory=list)  # _Bracket or _Leaf


@dataclass
class _Leaf:
    index: int
    word: str
    col: int


def _unescape(word: str) -> str:
    return word.replace("#LRB#", "(").replace("#RRB#", ")")


def _split_function(label: str) -> tuple[str, str]:
    """``NP-SB`` -> (``NP``, ``SB``); ``NP-2``/``NP=2`` -> (``NP``, ``""``); ``-NONE-`` unchanged (disco-dop's rule)."""
    function = ""
    for char in "-=":
        x = label.find(char)
        if x > 0:
            rest = label[x + 1:]
            if char == "-" and not rest.isdigit():
                function = rest.rstrip("=0123456789")
            label = label[:x]
    return label, function


def _tree_part(text: str) -> str:
    """The tree of a line without a TAB-separated comment: the text before the first TAB when it is a complete,
    balanced tree, else the whole line (a TAB inside the tree is then whitespace)."""
    if "\t" not in text:
        return text
    head = text.split("\t", 1)[0]
    depth, closed = 0, False
    for ch in head:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth < 0:
                return text
            closed = closed or depth == 0
    return head if depth == 0 and closed else text


def _parse_line(text: str, at: str) -> list[_Bracket]:
    """The top-level brackets of one line."""
    top: list[_Bracket] = []
    stack: list[_Bracket] = []
    tokens = [(m.group(), m.start()) for m in _TOKEN.finditer(text)]
    i, n = 0, len(tokens)
    while i < n:
        tok, col = tokens[i]
        if tok == "(":
            label = ""
            if i + 1 < n and tokens[i + 1][0] not in "()" and tokens[i + 1][1] == col + 1 \
                    and not _LEAF.fullmatch(tokens[i + 1][0]):
                label = tokens[i + 1][0]
                i += 1
            b = _Bracket(label, col + 1)
            (stack[-1].children if stack else top).append(b)
            stack.append(b)
        elif tok == ")":
            if not stack:
                raise InputError(f"{at}, column {col + 1}: a closing bracket ')' without an opening one; "
                                 f"balance the brackets of the tree (one tree per line)")
            stack.pop()
        else:
            m = _LEAF.fullmatch(tok)
            if not m:
                raise InputError(f"{at}, column {col + 1}: leaf {tok!r} has no index; discbracket leaves are "
                                 f"written index=word (0=The), the index being the word's position from 0 (for "
                                 f"Penn Treebank brackets use read_brackets)")
            if not m.group(2):
                raise InputError(f"{at}, column {col + 1}: leaf {tok!r} has no word (a tree fragment); write "
                                 f"every leaf as index=word")
            if not stack:
                raise InputError(f"{at}, column {col + 1}: leaf {tok!r} outside any bracket; put it in a "
                                 f"preterminal (TAG {tok})")
            stack[-1].children.append(_Leaf(int(m.group(1)), _unescape(m.group(2)), col + 1))
        i += 1
    if stack:
        raise InputError(f"{at}: {len(stack)} bracket(s) never closed, the innermost '({stack[-1].label}' at column "
                         f"{stack[-1].col}; balance the brackets (one tree per line)")
    return top


def _tree(text: str, source: str, line: int, functions: str) -> PhraseTree:
    at = where(source, line=line)
    top = _parse_line(text, at)
    if not top:
        raise InputError(f"{at}: no bracket on the line; write one tree per line, (S (NN 0=word) ...)")
    leaves: dict[int, tuple[str, str, str, int, int]] = {}  # index -> word, tag, function, parent, column
    nodes: list[PhraseNode] = []

    def is_preterminal(b: _Bracket) -> bool:
        return len(b.children) == 1 and isinstance(b.children[0], _Leaf)

    def name(label: str) -> tuple[str, str]:
        return _split_function(label) if functions == "split" else (label, "")

    def visit(top_bracket: _Bracket, top_parent: int) -> None:
        """Walk the brackets under ``top_bracket`` in preorder (an explicit stack: no recursion)."""
        stack = [(top_bracket, top_parent)]
        while stack:
            b, parent = stack.pop()
            if is_preterminal(b):
                leaf = b.children[0]
                if leaf.index in leaves:
                    first = leaves[leaf.index][0]
                    raise InputError(f"{at}, column {leaf.col}: index {leaf.index} is used twice ({first!r} and "
                                     f"{leaf.word!r}); give each word its own index, its position 0 .. n-1")
                tag, function = name(b.label)
                leaves[leaf.index] = (leaf.word, tag, function, parent, leaf.col)
                continue
            if any(isinstance(c, _Leaf) for c in b.children):
                leaf = next(c for c in b.children if isinstance(c, _Leaf))
                raise InputError(f"{at}, column {leaf.col}: the bracket '({b.label}' holds the leaf "
                                 f"'{leaf.index}={leaf.word}' beside other children; a word stands alone in its "
                                 f"preterminal: (TAG {leaf.index}={leaf.word})")
            label, function = name(b.label)
            node_id = FIRST_NODE_ID + len(nodes)
            nodes.append(PhraseNode(node_id, label, function, parent))
            stack.extend((c, node_id) for c in reversed(b.children))

    root_label = ""
    if len(top) == 1 and top[0].label in ROOT_LABELS and not is_preterminal(top[0]):
        root_label = top[0].label
        top = top[0].children
        if any(isinstance(c, _Leaf) for c in top):
            leaf = next(c for c in top if isinstance(c, _Leaf))
            raise InputError(f"{at}, column {leaf.col}: the leaf '{leaf.index}={leaf.word}' sits directly under "
                             f"the root bracket; put it in a preterminal: (TAG {leaf.index}={leaf.word})")
    for b in top:
        visit(b, ROOT)
    n = len(leaves)
    if set(leaves) != set(range(n)):
        missing = sorted(set(range(n)) - set(leaves))
        extra = sorted(i for i in leaves if i >= n)
        raise InputError(f"{at}: the {n} word indices must be 0 .. {n - 1}, each once: "
                         f"{', '.join(map(str, missing[:5]))}{' ...' if len(missing) > 5 else ''} missing, "
                         f"{', '.join(map(str, extra[:5]))}{' ...' if len(extra) > 5 else ''} beyond; renumber the "
                         f"leaves by their position in the sentence")
    words, tags, funcs, parents = zip(*(leaves[i][:4] for i in range(n)), strict=True) if n else ((),) * 4
    return PhraseTree(words=tuple(words), tags=tuple(tags), word_parents=tuple(parents), word_functions=tuple(funcs),
                      nodes=tuple(nodes), sent_id=str(line), source=source, line=line, root_label=root_label)


def parse_discbracket(text: str | Iterable[str], source: str = "<string>", functions: str = "keep") -> list[PhraseTree]:
    """Parse discbracket trees, one per line, from ``text`` (a string or an iterable of lines); ``source`` names
    them in messages, ``functions`` is ``"keep"`` (labels as written) or ``"split"`` (``NP-SB`` -> ``NP`` with
    function ``SB``). See the module docstring.

    >>> t = parse_discbracket("(ROOT (NP-SB (ART 0=Die) (NN-HD 1=Katze)))", functions="split")[0]
    >>> t.nodes, t.tags, t.word_functions
    ((PhraseNode(id=500, label='NP', function='SB', parent=0),), ('ART', 'NN'), ('', 'HD'))
    """
    if functions not in FUNCTIONS:
        raise ConfigError(f"functions must be one of {', '.join(FUNCTIONS)}, got {functions!r}")
    lines = text.splitlines() if isinstance(text, str) else [ln.rstrip("\r\n") for ln in text]
    if lines:
        lines[0] = lines[0].removeprefix("\ufeff")
    trees = []
    for n, ln in enumerate(lines, 1):
        if ln.strip():
            tree = _tree_part(ln)
            check_brackets(tree, source, first_line=n)  # one tree per line: its depth is the line's
            trees.append(_tree(tree, source, n, functions))
    return trees


def read_discbracket(path: str | os.PathLike, functions: str = "keep") -> list[PhraseTree]:
    """Read a discbracket file (UTF-8; see the module docstring for the format and the errors). A file without
    a tree is an :class:`InputError` (nothing to compare)."""
    from .checks import refuse_empty

    text = read_text_file(path, "discbracket files are read as UTF-8")
    trees = parse_discbracket(text, source=str(Path(path)), functions=functions)
    refuse_empty(trees, str(Path(path)), fix="a discbracket file holds one tree per line, such as "
                                             "(ROOT (S (NN 0=word) ...))")
    return trees


__all__ = ["FUNCTIONS", "ROOT_LABELS", "parse_discbracket", "read_discbracket"]
