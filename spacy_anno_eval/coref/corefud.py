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

from ..errors import CorefWarning, InputError
from ..io.parse import read_text
from .conll2012 import CorefDocument

PART = re.compile(r"^(?P<eid>[^\[\]]+)(?:\[(?P<k>\d+)/(?P<n>\d+)\])?$")


def _brackets(value: str, where: str) -> list[tuple[str, str, bool, int]]:
    """``(kind, eid, single, head)`` of an ``Entity=`` value: kind ``open`` or ``close``; ``single`` for
    ``(...)``; ``head`` the 1-based head index of an opening bracket (0: none given)."""
    out, i = [], 0
    while i < len(value):
        if value[i] == "(":
            j = i + 1
            while j < len(value) and value[j] not in "()":
                j += 1
            content = value[i + 1:j]
            single = j < len(value) and value[j] == ")"
            fields = content.split("-", 3)
            head = int(fields[2]) if len(fields) > 2 and fields[2].isdigit() else 0
            out.append(("open", fields[0], single, head))
            i = j + 1 if single else j
        else:
            j = value.find(")", i)
            if j < 0:
                raise InputError(f"{where}: Entity={value!r} is not a CorefUD entity value ('(eid-...', 'eid)')")
            out.append(("close", value[i:j], False, 0))
            i = j + 1
    return out


def read_corefud(path: str | os.PathLike, encoding: str = "utf-8") -> list[CorefDocument]:
    """The documents of a CorefUD 1.0 file, in file order (see the module); an unclosed or unopened bracket,
    a word line before ``# newdoc`` in a file that has one, and a file without words are
    :class:`~spacy_anno_eval.errors.InputError` naming the file and line."""
    text = read_text(path, encoding)
    docs: list[CorefDocument] = []
    state: dict | None = None
    moved = 0
    sent_id: str | None = ""  # "": a sentence begins at the next word; None: inside one

    def finish(where: str) -> None:
        nonlocal moved
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
                moved += 1
            owner[mention] = entity
            if 0 < head <= len(mention):
                heads[mention] = mention[head - 1]
            else:
                heads.pop(mention, None)
        by_entity: dict[str, list[tuple[int, ...]]] = {}
        for mention, entity in owner.items():
            by_entity.setdefault(entity, []).append(mention)
        entities = sorted((tuple(sorted(ms)) for ms in by_entity.values()), key=lambda ms: ms[0])
        docs.append(CorefDocument(state["name"], tuple(state["words"]), tuple(entities), contiguous=False,
                                  heads=heads, empty=frozenset(state["empty"]), sentences=tuple(state["sentences"]),
                                  empty_forms=state["empty"]))

    for n, raw in enumerate(text.splitlines(), start=1):
        line = raw.rstrip("\n")
        where = f"{path}:{n}"
        if line.startswith("#"):
            if line.startswith("# newdoc"):
                finish(where)
                name = line.partition("=")[2].strip() if "=" in line else f"doc{len(docs) + 1}"
                state = _new(name)
            elif line.startswith("# sent_id"):
                sent_id = line.partition("=")[2].strip()
            continue
        if not line.strip():
            sent_id = ""
            continue
        cols = line.split("\t")
        if len(cols) != 10:
            raise InputError(f"{where}: a CoNLL-U word line has 10 tab-separated columns, this one {len(cols)}")
        if "-" in cols[0]:
            continue  # a multiword token's range: its words follow
        if state is None:
            state = _new("doc1")
        if sent_id is not None:
            state["start"] = len(state["words"])
            state["sentences"].append((state["start"], sent_id or str(len(state["sentences"]) + 1)))
            sent_id = None
        if "." in cols[0]:  # an empty node N.M: after word N of its sentence, by M / 1000 (0.M: see the module)
            word, _, sub = cols[0].partition(".")
            if not (word.isdigit() and sub.isdigit()):
                raise InputError(f"{where}: {cols[0]!r} is not an empty node id (N.M)")
            position: float = (state["start"] + int(word) - 1 + int(sub) / 1000 if int(word) else
                               state["start"] - 0.5 + int(sub) / 1_000_000)
            state["empty"][position] = cols[1]
        else:
            position = len(state["words"])
            state["words"].append(cols[1])
        state["order"].append(position)
        entity = next((f[len("Entity="):] for f in cols[9].split("|") if f.startswith("Entity=")), None)
        if not entity:
            continue
        for kind, eid, single, head in _brackets(entity, where):
            part = PART.match(eid)
            if part is None:
                raise InputError(f"{where}: {eid!r} is not an entity id")
            base, k, total = part.group("eid"), part.group("k"), part.group("n")
            if kind == "open":
                if single:
                    _close(state, base, k, total, [position], head)
                else:
                    state["open"].setdefault(eid, []).append((len(state["order"]) - 1, head))
            else:
                stack = state["open"].get(eid)
                if not stack:
                    raise InputError(f"{where}: {eid}) closes a mention that no '({eid}-...' opened")
                start, head = stack.pop()
                _close(state, base, k, total, state["order"][start:], head)
    finish(f"{path}")
    if not docs or not any(d.tokens for d in docs):
        raise InputError(f"{path}: nothing to compare: no word lines in the file")
    if moved:
        warnings.warn(f"{path}: {moved} mention{'s' if moved > 1 else ''} written in two entities kept in the "
                      f"last, as the CorefUD scorer keeps them", CorefWarning, stacklevel=2)
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
    if head and not first_head[0]:
        first_head[0] = head
    if len(parts) == int(total):
        merged = sorted({w for p in parts.values() for w in p})
        state["mentions"].append((tuple(merged), base, first_head[0]))
        del state["parts"][key]


__all__ = ["read_corefud"]
