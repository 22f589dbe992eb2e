"""The NEGRA export format (versions 3 and 4), read into :class:`~.phrase.PhraseTree` s.

Brants (1997), "The NEGRA Export Format for Annotated Corpora (Version 3)",
Saarland University CLAUS report 98; version 4 (TIGER, TüBa-D/Z, Alpino via
disco-dop) adds a lemma column. One sentence is a block::

    #BOS 1
    Who         PWS     --      OA      500
    did         VVFIN   --      HD      502
    ...
    #500        VP      --      OC      502
    #502        S       --      --      0
    #EOS 1

Each line is a word (in order) or a non-terminal node (``#500``, ids 500 and
up); the columns are, in version 3, ``word tag morph edge parent
[secedge-label secedge-parent]...`` and in version 4 ``word lemma tag morph
edge parent [...]``. For a node, the tag column holds its category (and the
lemma column ``--``). ``edge`` is the function the word or node has in its
parent, and ``parent`` the parent node's id; ``0`` is the virtual root
(``VROOT``). Crossing branches need nothing special: a node's words need not
be adjacent. Secondary edges are read past (not part of the tree).

The version comes from a ``#FORMAT 3|4`` line, else a ``%% word lemma ...``
header, else from the first word line (in version 3 the fifth column is the
numeric parent, in version 4 the sixth). Columns are separated by tabs (or,
without tabs, by runs of spaces). ``%%`` lines are comments (a ``%%`` inside a
line starts a comment too, as in ``#BOS 1 %% note``); ``#BOT``/``#EOT``
tables (origin, editor, word tags) are skipped.

Errors (:class:`~spacy_anno_eval.errors.InputError`, naming the file and
line): a line with too few columns, a parent that is not a number or not a
node of the sentence, a ``#BOS`` without ``#EOS`` (or the reverse), a node
line before the words, a file that is not UTF-8 (pass ``encoding=`` for
Latin-1 files such as the original NEGRA corpus).

>>> trees = parse_negra('''#BOS 1
... Who\\tPWS\\t--\\tOA\\t500
... likes\\tVVFIN\\t--\\tHD\\t501
... Fritz\\tNE\\t--\\tSB\\t501
... #500\\tVP\\t--\\tOC\\t501
... #501\\tS\\t--\\t--\\t0
... #EOS 1''')
>>> [(c.label, c.positions) for c in trees[0].constituents()]
[('VP', (0,)), ('S', (0, 1, 2))]
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from pathlib import Path

from ..errors import InputError, where
from .brackets import read_text_file
from .phrase import PhraseNode, PhraseTree

VERSIONS = (3, 4)
_SPACES = re.compile(r" {2,}| *\t+ *")


def _columns(line: str) -> list[str]:
    """The fields of a line: tab-separated, else separated by runs of spaces (single spaces when there are
    none), without a trailing ``%%`` comment."""
    cut = line.find("%%")
    if cut > 0:
        line = line[:cut]
    line = line.strip()
    if "\t" in line:
        return [c.strip() for c in line.split("\t") if c.strip() != ""]
    parts = _SPACES.split(line)
    return parts if len(parts) > 1 else line.split()


def _version_of(cols: list[str]) -> int | None:
    """3 or 4 from a word line's columns: the parent is the 5th column in version 3, the 6th in version 4."""
    if len(cols) >= 5 and cols[4].isdigit():
        return 3
    if len(cols) >= 6 and cols[5].isdigit():
        return 4
    return None


def parse_negra(text: str | Iterable[str], source: str = "<string>", version: int | None = None
                ) -> list[PhraseTree]:
    """Parse NEGRA export text (a string or lines); ``version`` 3 or 4 overrides the detection."""
    if version is not None and version not in VERSIONS:
        from ..errors import ConfigError

        raise ConfigError(f"NEGRA export version must be 3 or 4, got {version!r}")
    lines = text.splitlines() if isinstance(text, str) else [ln.rstrip("\r\n") for ln in text]
    if lines:
        lines[0] = lines[0].removeprefix("\ufeff")
    trees: list[PhraseTree] = []
    in_table = False
    block: list[tuple[int, str]] | None = None
    bos: tuple[int, str] | None = None
    for n, raw in enumerate(lines, 1):
        line = raw.rstrip()
        if not line.strip():
            continue
        if line.startswith("%%"):
            if version is None and block is None:
                head = line[2:].split()
                if head[:2] == ["word", "lemma"]:
                    version = 4
                elif head[:2] == ["word", "tag"]:
                    version = 3
            continue
        if in_table:
            in_table = not line.startswith("#EOT")
            continue
        if line.startswith("#BOT"):
            in_table = True
            continue
        if line.startswith("#FORMAT"):
            value = line.split()[1:2]
            if not value or not value[0].isdigit() or int(value[0]) not in VERSIONS:
                raise InputError(f"{where(source, line=n)}: '#FORMAT' must name version 3 or 4, got {line!r}")
            version = version or int(value[0])
            continue
        if line.startswith("#BOS"):
            if block is not None:
                raise InputError(f"{where(source, line=n)}: '#BOS' before the '#EOS' of the sentence opened at "
                                 f"line {bos[0]}; every sentence ends with '#EOS <id>'")
            parts = line.split()
            bos = (n, parts[1] if len(parts) > 1 else str(len(trees) + 1))
            block = []
            continue
        if line.startswith("#EOS"):
            if block is None:
                raise InputError(f"{where(source, line=n)}: '#EOS' without a '#BOS' before it")
            trees.append(_sentence(block, bos, source, version))
            block = None
            continue
        if block is None:
            raise InputError(f"{where(source, line=n)}: a line outside a sentence ({line[:40]!r}); sentences "
                             f"are blocks from '#BOS <id>' to '#EOS <id>'")
        block.append((n, line))
    if block is not None:
        raise InputError(f"{where(source, line=bos[0])}: sentence {bos[1]} has no '#EOS'; the file may be cut off")
    return trees


def _sentence(block: list[tuple[int, str]], bos: tuple[int, str], source: str, version: int | None
              ) -> PhraseTree:
    words, lemmas, tags, parents, functions = [], [], [], [], []
    nodes: list[PhraseNode] = []
    for n, line in block:
        cols = _columns(line)
        at = where(source, line=n)
        if version is None and not line.startswith("#"):
            version = _version_of(cols)
            if version is None:
                raise InputError(f"{at}: cannot tell NEGRA export version 3 (word tag morph edge parent) from "
                                 f"4 (word lemma tag morph edge parent) by this line; add '#FORMAT 3' or "
                                 f"'#FORMAT 4' at the top of the file")
        lemma_col = 1 if (version or 3) == 4 else None
        need = 6 if lemma_col else 5
        if len(cols) < need:
            raise InputError(f"{at}: {len(cols)} column(s); export format {version or 3} has {need}: word "
                             f"{'lemma ' if lemma_col else ''}tag morph edge parent")
        tag_col = 2 if lemma_col else 1
        edge, parent = cols[need - 2], cols[need - 1]
        if not parent.isdigit():
            raise InputError(f"{at}: the parent column holds {parent!r}, not a node number (0 = the root)")
        if line.startswith("#") and cols[0][1:].isdigit():
            node_id = int(cols[0][1:])
            if node_id == 0:
                raise InputError(f"{at}: node #0 is the root; non-terminal nodes are numbered 500 and up")
            nodes.append(PhraseNode(node_id, cols[tag_col], edge, int(parent)))
            continue
        if nodes:
            raise InputError(f"{at}: a word after the node lines; in a sentence block the words come first, "
                             f"then the '#5xx' nodes")
        words.append(cols[0])
        tags.append(cols[tag_col])
        if lemma_col:
            lemmas.append(cols[lemma_col])
        functions.append(edge)
        parents.append(int(parent))
    return PhraseTree(words=tuple(words), tags=tuple(tags), word_parents=tuple(parents),
                      word_functions=tuple(functions), nodes=tuple(nodes), lemmas=tuple(lemmas), sent_id=bos[1],
                      source=source, line=bos[0])


def read_negra(path: str | os.PathLike, version: int | None = None, encoding: str = "utf-8") -> list[PhraseTree]:
    """Read a NEGRA export file (``.export``); see the module docstring. A file without a sentence, or whose
    sentences hold no word, is an :class:`InputError` (nothing to compare)."""
    from .checks import refuse_empty

    text = read_text_file(path, "the original NEGRA and TIGER export files are Latin-1: pass encoding='latin-1'",
                          encoding)
    trees = parse_negra(text, source=str(Path(path)), version=version)
    refuse_empty(trees, str(Path(path)), fix="a NEGRA export file holds sentence blocks from '#BOS <id>' to "
                                             "'#EOS <id>', one word per line")
    return trees


__all__ = ["VERSIONS", "parse_negra", "read_negra"]
