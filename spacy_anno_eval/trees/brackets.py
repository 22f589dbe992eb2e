"""Penn Treebank bracketed trees, read into words, tags and constituents.

A tree is written ``(S (NP (DT The) (NN cat)) (VP (VBD sat)))``: a bracket
holds a label and either one word (a *preterminal*: tag and word) or further
brackets (a *phrase*). The words are the terminals, numbered 0, 1, ... in
reading order. A **constituent** is a phrase label with its *yield*, the
sorted tuple of the terminal positions it covers (:class:`Constituent`), so
that a discontinuous constituent is as ordinary as a contiguous one.

>>> tree = parse_brackets("( (S (NP (DT The) (NN cat)) (VP (VBD sat))))")[0]
>>> tree.words, tree.tags
(('The', 'cat', 'sat'), ('DT', 'NN', 'VBD'))
>>> tree.constituents()
[Constituent(label='S', positions=(0, 1, 2)), Constituent(label='NP', positions=(0, 1)), \
Constituent(label='VP', positions=(2,))]

Layouts (``layout=``):

- ``"line"``: one sentence per line, as EVALB reads its files (Sekine &
  Collins 1997): a line may hold several top-level brackets (a forest), and
  an empty line is an empty sentence (EVALB skips a test sentence without
  words);
- ``"tree"``: one tree per balanced top-level bracket, across lines; blank
  lines are ignored (the ``.mrg`` layout of the Penn Treebank);
- ``"auto"`` (default): ``"line"`` when every non-blank line is balanced on
  its own, else ``"tree"``.

The empty outer bracket of the Penn Treebank, ``( (S ...))``, is kept in
:attr:`BracketTree.brackets` (EVALB counts it as a bracket with an empty
label) and left out of :meth:`BracketTree.constituents`. A bracket without
words, ``(NP )``, has an empty yield and is not a constituent either.

Errors (:class:`~spacy_anno_eval.errors.InputError`, naming the file, line
and tree number): an unbalanced bracket, a bracket holding more than one
word or a word beside brackets ``(NP a (NN b))``, a word outside any
bracket, brackets nested deeper than 200 levels (checked before parsing,
:func:`~spacy_anno_eval.io.parse.check_brackets`; no treebank nests this
deep), a file that is not UTF-8 text.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

from ..errors import InputError, where
from ..io.parse import check_brackets, read_text

LAYOUTS = ("auto", "line", "tree")

_TOKEN = re.compile(r"\(|\)|[^\s()]+")


class Constituent(NamedTuple):
    """A phrase: its label and its yield, the sorted terminal positions (0-based) it covers."""

    label: str
    positions: tuple[int, ...]


class Bracket(NamedTuple):
    """A phrase bracket as written: label and the terminals ``[start, end)`` it spans (``start == end``: none)."""

    label: str
    start: int
    end: int


@dataclass(frozen=True)
class BracketTree:
    """One sentence of a bracketed file.

    ``number`` is its 1-based position in the file (in the ``"line"`` layout,
    its line number); ``line`` the line where it starts. ``words`` and
    ``tags`` come from the preterminals in reading order; ``brackets`` are
    the phrase brackets in preorder (outer first), the empty outer bracket
    included; ``outer`` the indices of the top-level ones. A sentence may be empty (a blank line in the ``"line"``
    layout).
    """

    number: int
    line: int
    words: tuple[str, ...]
    tags: tuple[str, ...]
    brackets: tuple[Bracket, ...]
    outer: frozenset[int] = frozenset()

    def __len__(self) -> int:
        return len(self.words)

    def constituents(self) -> list[Constituent]:
        """The phrases as :class:`Constituent` s in preorder, without empty-label top-level brackets
        (``( (S ...))``) and without brackets that cover no word."""
        return [Constituent(b.label, tuple(range(b.start, b.end))) for i, b in enumerate(self.brackets)
                if b.start < b.end and not (b.label == "" and i in self.outer)]


class _Builder:
    """Collects the words, tags and brackets of one sentence while its tokens are read."""

    def __init__(self, number: int, line: int):
        self.number, self.line = number, line
        self.words: list[str] = []
        self.tags: list[str] = []
        self.brackets: list[list] = []
        self.open: list[tuple[int, int]] = []  # (bracket index, line)
        self.outer: set[int] = set()

    def tree(self) -> BracketTree:
        return BracketTree(self.number, self.line, tuple(self.words), tuple(self.tags),
                           tuple(Bracket(label, start, end) for label, start, end in self.brackets),
                           frozenset(self.outer))


def _tokens(lines: Iterable[tuple[int, str]]) -> list[tuple[str, int, int]]:
    return [(m.group(), n, m.start()) for n, text in lines for m in _TOKEN.finditer(text)]


def _balanced(text: str) -> bool:
    depth = 0
    for ch in text:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth < 0:
                return False
    return depth == 0


def _parse(tokens: list[tuple[str, int, int]], source: str, *, number: int | None, first_line: int,
           single_tree: bool) -> list[BracketTree]:
    """Read ``tokens`` into sentences: one forest (``number`` given, the ``"line"`` layout) or one tree per
    top-level bracket (``single_tree``)."""
    trees: list[BracketTree] = []
    count = 0
    b: _Builder | None = None if single_tree else _Builder(number or 1, first_line)

    def fail(line: int, what: str) -> InputError:
        tree_no = b.number if b is not None else count + 1
        return InputError(f"{where(source, line=line)}, tree {tree_no}: {what}")

    i, n = 0, len(tokens)
    while i < n:
        tok, line, col = tokens[i]
        if tok == "(":
            if b is None:
                count += 1
                b = _Builder(count, line)
            i += 1
            label = ""
            if i < n and tokens[i][0] not in "()" and tokens[i][1] == line and tokens[i][2] == col + 1:
                label = tokens[i][0]
                i += 1
            if i >= n:
                raise fail(line, f"bracket '({label}' is never closed")
            if tokens[i][0] not in "()":  # a preterminal: (tag word)
                word = tokens[i][0]
                if i + 1 >= n or tokens[i + 1][0] != ")":
                    more = "end of input" if i + 1 >= n else repr(tokens[i + 1][0])
                    raise fail(line, f"bracket '({label} {word}' holds more than one word (next: {more}); "
                                     "a preterminal is (TAG word)")
                b.tags.append(label)
                b.words.append(word)
                i += 2
                if single_tree and not b.open:
                    trees.append(b.tree())
                    b = None
                continue
            if not b.open:
                b.outer.add(len(b.brackets))
            b.open.append((len(b.brackets), line))
            b.brackets.append([label, len(b.words), len(b.words)])
            continue
        if tok == ")":
            if b is None or not b.open:
                raise fail(line, "a closing bracket ')' without an opening one")
            idx, _ = b.open.pop()
            b.brackets[idx][2] = len(b.words)
            i += 1
            if single_tree and not b.open:
                trees.append(b.tree())
                b = None
            continue
        raise fail(line, f"word {tok!r} outside a preterminal bracket (TAG word)")
    if b is not None and b.open:
        idx, line = b.open[-1]
        raise fail(line, f"{len(b.open)} bracket(s) never closed, the innermost '({b.brackets[idx][0]}'")
    if b is not None and not single_tree:
        trees.append(b.tree())
    return trees


def parse_brackets(text: str | Iterable[str], source: str = "<string>", layout: str = "auto") -> list[BracketTree]:
    """Parse bracketed trees from ``text`` (a string or an iterable of lines); ``source`` names them in messages.

    See the module docstring for the layouts and errors.

    >>> [len(t) for t in parse_brackets("(S (P this) (Q is))\\n\\n(P this) (Q is)", layout="line")]
    [2, 0, 2]
    """
    if layout not in LAYOUTS:
        from ..errors import ConfigError

        raise ConfigError(f"layout must be one of {', '.join(LAYOUTS)}, got {layout!r}")
    lines = text.splitlines() if isinstance(text, str) else [ln.rstrip("\r\n") for ln in text]
    if lines:
        lines[0] = lines[0].removeprefix("\ufeff")
    if layout == "auto":
        layout = "line" if all(_balanced(ln) for ln in lines if ln.strip()) else "tree"
    if layout == "tree":
        check_brackets("\n".join(lines), source)
        return _parse(_tokens(enumerate(lines, 1)), source, number=None, first_line=1, single_tree=True)
    trees = []
    for n, ln in enumerate(lines, 1):
        check_brackets(ln, source, first_line=n)
        trees.extend(_parse(_tokens([(n, ln)]), source, number=n, first_line=n, single_tree=False))
    return trees


def read_text_file(path: str | os.PathLike, hint: str, encoding: str = "utf-8") -> str:
    """The text of a treebank file, read by the located loader (:func:`~spacy_anno_eval.io.parse.read_text`):
    every failure an :class:`InputError` naming the file: missing, a folder, unreadable, an unknown
    ``encoding``, or bytes that are not text in it (the line and byte, then ``hint``: what to do). A byte-order
    mark is dropped. The one file reader of the treebank readers."""
    return read_text(path, encoding, fix=hint)


def read_brackets(path: str | os.PathLike, layout: str = "auto") -> list[BracketTree]:
    """Read a Penn Treebank bracketed file (UTF-8; see the module docstring for layouts and errors). A file
    without a tree, or whose sentences are all empty, is an :class:`InputError` (nothing to compare)."""
    from .checks import refuse_empty

    text = read_text_file(path, "bracketed trees are read as UTF-8")
    trees = parse_brackets(text, source=str(Path(path)), layout=layout)
    refuse_empty(trees, str(Path(path)), fix="a bracketed treebank holds trees such as (S (NP (DT The) (NN cat)) "
                                             "(VP (VBD sat)))")
    return trees


__all__ = ["LAYOUTS", "Bracket", "BracketTree", "Constituent", "parse_brackets", "read_brackets", "read_text_file"]
