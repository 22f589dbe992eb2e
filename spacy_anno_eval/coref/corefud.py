"""CorefUD 1.0 (CoNLL-U with coreference in MISC), read for exact matching.

``# newdoc id = NAME`` starts a document; every word line (an integer id) is
one position of the document, counted across its sentences; ``N-M`` multiword
ranges are skipped. An empty node ``N.M``, which a zero mention may occupy,
sits between words, at the position of word N plus M / 1000 (``0.M``, before
a sentence's first word, at that word's position − 0.5 + M / 1,000,000, apart
from the empty nodes after the last word of the sentence before): the CorefUD
scorer compares the words of key and response and lets their empty nodes
differ (systems predict their own zeros), so a zero matches a zero at the same
``N.M`` of the same sentence, whatever other empty nodes either side has. The ``Entity=`` value of
the MISC column holds the brackets (CorefUD 1.0 guidelines, "Coreference"):
``(e5-person-2-...`` opens a mention of entity ``e5`` whose head is its 2nd
word, ``e5)`` closes it, ``(e5-person-1-)`` is a one-word mention; several are
written together (``(e1-x-1-)(e2-x-1-``, ``e1)e2)``). A discontinuous mention
has numbered parts, ``(e5[1/2]-...`` ... ``e5[1/2])`` ... ``(e5[2/2]-...)``: its
words are the union of the parts.

A mention is the tuple of its words' positions in the document (sorted), so
two mentions match exactly when they cover the same words, as the CorefUD
scorer matches them under ``exact``. Its head is the word the bracket's third
field counts to (``(e5-person-2`` : the 2nd word of the whole mention), its
first word where the field is missing or not a number, as the CorefUD scorer
takes it; partial and head matching
(:mod:`spacy_anno_eval.coref.matching`) read it. A mention written in two entities is kept
in the **last** one, as the CorefUD scorer keeps it, with a
:class:`~spacy_anno_eval.errors.CorefWarning`.
"""

from __future__ import annotations

import os
import re
import warnings
from functools import lru_cache
from itertools import repeat

from ..errors import CorefWarning, InputError
from ..io.parse import read_text
from .conll2012 import CorefDocument

PART = re.compile(r"^(?P<eid>[^\[\]]+)(?:\[(?P<k>\d+)/(?P<n>\d+)\])?$")


#: one bracket of an ``Entity=`` value: ``(content`` (``)`` right after: a one-word mention) or ``eid)``; anything
#: else is not a bracket
BRACKET = re.compile(r"\(([^()]*)(\)?)|([^()]+)\)|(.)", re.S)


def _brackets(value: str, where: str) -> list[tuple[str, str, bool, int]]:
    """``(kind, eid, single, head)`` of an ``Entity=`` value: kind ``open`` or ``close``; ``single`` for
    ``(...)``; ``head`` the 1-based head index of an opening bracket (0: none given)."""
    out = []
    for content, single, closing, other in BRACKET.findall(value):
        if other:
            raise InputError(f"{where}: Entity={value!r} is not a CorefUD entity value ('(eid-...', 'eid)')")
        if closing:
            out.append(("close", closing, False, 0))
            continue
        fields = content.split("-", 3)
        head = int(fields[2]) if len(fields) > 2 and fields[2].isdigit() else 0
        out.append(("open", fields[0], bool(single), head))
    return out


@lru_cache(maxsize=4096)
def _part(eid: str) -> tuple[str, str | None, str | None] | None:
    """An entity id's base and, for a part of a discontinuous mention (``e5[1/2]``), its number and count."""
    part = PART.match(eid)
    return None if part is None else (part.group("eid"), part.group("k"), part.group("n"))


@lru_cache(maxsize=512)
def _numbers(n: int) -> list[str]:
    """``["1", ..., "n"]``: the ids of a sentence of n words without multiword ranges or empty nodes."""
    return [str(i) for i in range(1, n + 1)]


class _Reader:
    """The documents of one file as its sentence blocks come (see :func:`read_corefud`)."""

    def __init__(self, path: str | os.PathLike) -> None:
        self.path = path
        self.docs: list[CorefDocument] = []
        self.state: dict | None = None
        self.moved = 0
        self.sent_id: str | None = ""  # "": a sentence begins at the next word; None: inside one

    def comment(self, line: str, n: int) -> None:
        if line.startswith("# newdoc"):
            self.finish(f"{self.path}:{n}")
            name = line.partition("=")[2].strip() if "=" in line else f"doc{len(self.docs) + 1}"
            self.state = _new(name)
        elif line.startswith("# sent_id"):
            self.sent_id = line.partition("=")[2].strip()

    def begin_sentence(self) -> dict:
        if self.state is None:
            self.state = _new("doc1")
        state = self.state
        if self.sent_id is not None:
            state["start"] = len(state["words"])
            state["sentences"].append((state["start"], self.sent_id or str(len(state["sentences"]) + 1)))
            self.sent_id = None
        return state

    def block(self, block: str, first: int) -> None:
        """One sentence block (the text between blank lines) whose first line is line ``first``: read at once
        when it is plain (comments first, then word lines of ten columns numbered 1..n), else line by line."""
        lead = len(block) - len(block.lstrip("\n"))
        lines = block.strip("\n").split("\n")
        first += lead
        c = 0
        while c < len(lines) and lines[c][:1] == "#":
            c += 1
        words = lines[c:]
        rows = [line.split("\t", 2) for line in words]
        if not (words and list(map(str.count, words, repeat("\t"))).count(9) == len(words)
                and [r[0] for r in rows] == _numbers(len(rows))):
            for i, line in enumerate(lines):
                self.line(line, first + i)
            return
        for i in range(c):
            self.comment(lines[i], first + i)
        state = self.begin_sentence()
        start, index = state["start"], len(state["order"])
        state["words"].extend([r[1] for r in rows])
        state["order"].extend(range(start, start + len(rows)))
        if "Entity=" not in block:
            return
        for k in [k for k, r in enumerate(rows) if "Entity=" in r[2]]:
            self.brackets(rows[k][2].rpartition("\t")[2], start + k, index + k, first + c + k)
    def line(self, line: str, n: int) -> None:
        """One line, read on its own (multiword ranges, empty nodes, anything irregular)."""
        if not line.strip():
            self.sent_id = ""
            return
        if line[0] == "#":
            self.comment(line, n)
            return
        if line.count("\t") != 9:
            raise InputError(f"{self.path}:{n}: a CoNLL-U word line has 10 tab-separated columns, this one "
                             f"{line.count(chr(9)) + 1}")
        cols = line.split("\t")
        if "-" in cols[0]:
            return  # a multiword token's range: its words follow
        state = self.begin_sentence()
        if "." in cols[0]:  # an empty node N.M: after word N of its sentence, by M / 1000 (0.M: see the module)
            word, _, sub = cols[0].partition(".")
            if not (word.isdigit() and sub.isdigit()):
                raise InputError(f"{self.path}:{n}: {cols[0]!r} is not an empty node id (N.M)")
            position: float = (state["start"] + int(word) - 1 + int(sub) / 1000 if int(word) else
                               state["start"] - 0.5 + int(sub) / 1_000_000)
            state["empty"][position] = cols[1]
        else:
            position = len(state["words"])
            state["words"].append(cols[1])
        state["order"].append(position)
        if "Entity=" in cols[9]:
            self.brackets(cols[9], position, len(state["order"]) - 1, n)

    def brackets(self, misc: str, position: float, index: int, n: int) -> None:
        """The ``Entity=`` brackets of the word at ``position`` (the ``index``-th of its document, counting
        empty nodes; line ``n``)."""
        at = misc.find("Entity=")
        if at > 0 and misc[at - 1] != "|":  # e.g. "SplitEntity=...": look for the field itself
            at = next((len(misc) - len(f) for f in [misc.partition("|Entity=")[2]] if f), -1)
            at = at - len("Entity=") if at >= 0 else -1
        if at < 0:
            return
        end = misc.find("|", at)
        entity = misc[at + len("Entity="):end if end >= 0 else len(misc)]
        if not entity:
            return
        state, where = self.state, f"{self.path}:{n}"
        assert state is not None
        for kind, eid, single, head in _brackets(entity, where):
            part = _part(eid)
            if part is None:
                raise InputError(f"{where}: {eid!r} is not an entity id")
            base, k, total = part
            if kind == "open":
                if single:
                    _close(state, base, k, total, [position], head)
                else:
                    state["open"].setdefault(eid, []).append((index, head))
            else:
                stack = state["open"].get(eid)
                if not stack:
                    raise InputError(f"{where}: {eid}) closes a mention that no '({eid}-...' opened")
                start, head = stack.pop()
                _close(state, base, k, total, state["order"][start:index + 1], head)

    def finish(self, where: str) -> None:
        """The document read so far is complete."""
        state = self.state
        if state is None:
            return
        unclosed = [e for e, stack in state["open"].items() if stack]
        if unclosed:
            raise InputError(f"{where}: document {state['name']!r} ends with mentions of {', '.join(unclosed)} "
                             f"still open; close each '(eid-...' with 'eid)'")
        owner: dict[tuple[int, ...], str] = {}
        heads: dict[tuple[int, ...], int] = {}
        for mention, entity, head in state["mentions"]:  # in closing order: a mention in two entities stays in the last
            if mention in owner and owner[mention] != entity:
                self.moved += 1
            owner[mention] = entity
            if 0 < head <= len(mention):
                heads[mention] = mention[head - 1]
            else:
                heads.pop(mention, None)
        by_entity: dict[str, list[tuple[int, ...]]] = {}
        for mention, entity in owner.items():
            by_entity.setdefault(entity, []).append(mention)
        entities = sorted((tuple(sorted(ms)) for ms in by_entity.values()), key=lambda ms: ms[0])
        self.docs.append(CorefDocument(state["name"], tuple(state["words"]), tuple(entities), contiguous=False,
                                       heads=heads, empty=frozenset(state["empty"]),
                                       sentences=tuple(state["sentences"]), empty_forms=state["empty"]))
        self.state = None


def read_corefud(path: str | os.PathLike, encoding: str = "utf-8") -> list[CorefDocument]:
    """The documents of a CorefUD 1.0 file, in file order (see the module); an unclosed or unopened bracket,
    a word line before ``# newdoc`` in a file that has one, and a file without words are
    :class:`~spacy_anno_eval.errors.InputError` naming the file and line. A plain sentence (comments, then
    words numbered 1..n) is read in one pass of regular expressions, the rest line by line: 2,000 documents of
    800,000 words in about half a second."""
    text = read_text(path, encoding)
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    reader = _Reader(path)
    first = 1
    for block in text.split("\n\n"):
        if block.strip():
            reader.block(block, first)
        reader.sent_id = ""  # a blank line ends a sentence
        first += block.count("\n") + 2
    reader.finish(f"{path}")
    docs = reader.docs
    if not docs or not any(d.tokens for d in docs):
        raise InputError(f"{path}: nothing to compare: no word lines in the file")
    if reader.moved:
        warnings.warn(f"{path}: {reader.moved} mention{'s' if reader.moved > 1 else ''} written in two entities "
                      f"kept in the last, as the CorefUD scorer keeps them", CorefWarning, stacklevel=2)
    return docs


def _new(name: str) -> dict:
    """The reading state of a document."""
    return {"name": name, "words": [], "open": {}, "parts": {}, "mentions": [], "empty": {}, "sentences": [],
            "order": [], "start": 0}


def _close(state: dict, base: str, k: str | None, total: str | None, words: list[int], head: int) -> None:
    """A mention (or a part of a discontinuous one) is complete: record it, with its head index (1-based over
    the whole mention's words, 0: none), once all its parts are."""
    if k is None:
        state["mentions"].append((tuple(words), base, head))
        return
    key = (base, int(total))
    parts, first_head = state["parts"].setdefault(key, ({}, [0]))
    parts[int(k)] = words
    if head:  # the last part that names a head wins, as udapi reads it
        first_head[0] = head
    if len(parts) == int(total):
        merged = sorted({w for p in parts.values() for w in p})
        state["mentions"].append((tuple(merged), base, first_head[0]))
        del state["parts"][key]


__all__ = ["read_corefud"]
