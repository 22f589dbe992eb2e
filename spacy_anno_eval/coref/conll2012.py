"""The CoNLL-2011/2012 coreference format: documents of tokens whose last column holds the mentions.

A document runs from ``#begin document (NAME); part NNN`` to ``#end document``;
one token per line, tab- or space-separated columns, a blank line between
sentences. The **last** column holds the coreference brackets (Pradhan et al.
2012, §4): ``(12`` opens a mention of entity 12 at this token, ``12)`` closes
the last open mention of entity 12, ``(12)`` is a one-token mention, several
are joined by ``|`` or written together (``(1(3``), ``-`` is none.

A mention is ``(start, end)``, the indices of its first and last token in the
document (inclusive, counted across sentences). An entity is the set of its
mentions. A mention written twice, in one entity or in two (the official
scorer's test case A9), is kept once, in the entity whose bracket opened first,
and :class:`~spacy_anno_eval.errors.CorefWarning` counts the repeats per file,
as the official scorer v8.01 reports them. That scorer refuses to go on past 10
repeats in one run (its count runs on across the metrics of ``scorer.pl all``);
here every metric is scored with each repeat kept once, the values the Perl
scorer gives one metric at a time, and the warning says so.
"""

from __future__ import annotations

import os
import re
import warnings
from collections.abc import Mapping
from dataclasses import dataclass, field

from ..errors import CorefWarning, InputError
from ..io.parse import read_text

BRACKET = re.compile(r"\((\d+)\)|\((\d+)|(\d+)\)")
BEGIN = re.compile(r"#begin document\s*(.*)$")
#: the official scorer's limit: more than this many repeated mentions in one run and it refuses to score
PERL_REPEATS = 10


@dataclass(frozen=True)
class CorefDocument:
    """One document: its name (what follows ``#begin document``, or CorefUD's ``newdoc id``), its tokens, and its
    entities, each a tuple of mentions sorted by position, the entities in the order their first mention opens.

    A mention is ``(start, end)``, its first and last token (inclusive), when ``contiguous`` (CoNLL-2012); or the
    sorted positions of its words otherwise (CorefUD, whose mentions may be discontinuous): :meth:`words` gives
    the positions either way. ``heads`` maps a mention to the position of its head word (CorefUD; where a format
    has none, a mention has no entry), ``empty`` holds the positions of empty nodes (CorefUD's ``8.1``, between
    tokens at word 8's position + 0.001, their forms in ``empty_forms``: a mention whose head is one is a
    zero), and ``sentences`` the ``(first position, sentence id)`` of each
    sentence, for naming the first difference between a key and a response. ``same_forms``: a response must
    repeat the key's word forms (CorefUD, as its scorer checks them); not for CoNLL-2012 files, whose official
    scorer compares only the lines (its own test responses write other words, ``x`` for ``jnk``)."""

    name: str
    tokens: tuple[str, ...]
    entities: tuple[tuple[tuple[int, ...], ...], ...]
    contiguous: bool = True
    heads: Mapping[tuple[int, ...], int] = field(default_factory=dict, compare=False, hash=False, repr=False)
    empty: frozenset[float] = frozenset()
    sentences: tuple[tuple[int, str], ...] = field(default=(), compare=False, repr=False)
    same_forms: bool = field(default=True, compare=False, repr=False)
    empty_forms: Mapping[float, str] = field(default_factory=dict, compare=False, hash=False, repr=False)

    @property
    def mentions(self) -> list[tuple[int, ...]]:
        """Every mention of the document, sorted."""
        return sorted(m for e in self.entities for m in e)

    def words(self, mention: tuple[int, ...]) -> tuple[int, ...]:
        """The positions of a mention's words: ``range(start, end + 1)`` of a contiguous ``(start, end)``, the
        mention itself otherwise."""
        return tuple(range(mention[0], mention[1] + 1)) if self.contiguous else tuple(mention)

    def head(self, mention: tuple[int, ...]) -> int:
        """The position of a mention's head: its own where the format gives one, else its first word (the
        CorefUD scorer's default)."""
        return self.heads.get(mention, mention[0])

    def form(self, position: float) -> str:
        """The form at a position: a token's, or an empty node's (CorefUD, at a fractional position)."""
        return self.tokens[position] if isinstance(position, int) else self.empty_forms.get(position, "_")

    def is_zero(self, mention: tuple[int, ...]) -> bool:
        """Whether the mention is a zero: its head is an empty node (CorefUD)."""
        return self.head(mention) in self.empty


class _Builder:
    """The mentions of one document as its lines come."""

    def __init__(self, name: str, line: int) -> None:
        self.name, self.line = name, line
        self.tokens: list[str] = []
        self.open: dict[str, list[tuple[int, int]]] = {}  # entity -> stack of (start, opening order)
        self.mentions: list[tuple[int, int, int, str]] = []  # (start, end, opening order, entity)
        self.order = 0
        self.sentences: list[tuple[int, str]] = []
        self.in_sentence = False

    def add(self, columns: list[str], where: str) -> None:
        i = len(self.tokens)
        if not self.in_sentence:
            self.sentences.append((i, str(len(self.sentences) + 1)))
            self.in_sentence = True
        self.tokens.append(columns[3] if len(columns) > 3 else columns[0])
        field = columns[-1]
        if field in ("-", "_"):
            return
        parsed = 0
        for whole, opening, closing in BRACKET.findall(field):
            parsed += len(whole or opening or closing) + (2 if whole else 1)
            if whole:
                self.mentions.append((i, i, self.order, whole))
                self.order += 1
            elif opening:
                self.open.setdefault(opening, []).append((i, self.order))
                self.order += 1
            else:
                stack = self.open.get(closing)
                if not stack:
                    raise InputError(f"{where}: {closing}) closes a mention of entity {closing} that no open bracket "
                                     f"began; each mention is '(N' ... 'N)' or '(N)'")
                start, order = stack.pop()
                self.mentions.append((start, i, order, closing))
        if parsed != len(field.replace("|", "")):
            raise InputError(f"{where}: {field!r} is not a coreference field ('-', '(N', 'N)', '(N)', joined by "
                             f"'|')")

    def build(self, where: str) -> tuple[CorefDocument, int]:
        unclosed = [e for e, stack in self.open.items() if stack]
        if unclosed:
            raise InputError(f"{where}: document {self.name!r} ends with the mentions of entity "
                             f"{', '.join(sorted(unclosed))} still open (begun at line {self.line}); close each '(N' "
                             f"with 'N)'")
        kept: dict[tuple[int, int], str] = {}
        for start, end, _, entity in sorted(self.mentions, key=lambda m: m[2]):
            kept.setdefault((start, end), entity)  # a repeated mention stays where it opened first
        repeats = len(self.mentions) - len(kept)
        by_entity: dict[str, list[tuple[int, int]]] = {}
        for mention, entity in sorted(kept.items()):
            by_entity.setdefault(entity, []).append(mention)
        entities = sorted((tuple(ms) for ms in by_entity.values()), key=lambda ms: ms[0])
        return CorefDocument(self.name, tuple(self.tokens), tuple(entities), sentences=tuple(self.sentences),
                             same_forms=False), repeats


def read_conll2012(path: str | os.PathLike, encoding: str = "utf-8") -> list[CorefDocument]:
    """The documents of a CoNLL-2011/2012 coreference file, in file order (see the module). A bracket that
    does not close, a close without an open, a line outside a document and an empty file are
    :class:`~spacy_anno_eval.errors.InputError` naming the file and line."""
    text = read_text(path, encoding)
    docs: list[CorefDocument] = []
    current: _Builder | None = None
    repeats = 0
    for n, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        where = f"{path}:{n}"
        begin = BEGIN.match(line)
        if begin:
            if current is not None:
                raise InputError(f"{where}: a document begins inside document {current.name!r} (begun at line "
                                 f"{current.line}); end it with '#end document'")
            current = _Builder(begin.group(1).strip(), n)
        elif line.startswith("#end document"):
            if current is None:
                raise InputError(f"{where}: '#end document' without '#begin document'")
            doc, repeated = current.build(where)
            docs.append(doc)
            repeats += repeated
            current = None
        elif not line or line.startswith("#"):
            if not line and current is not None:
                current.in_sentence = False
            continue
        elif current is None:
            raise InputError(f"{where}: a token line outside any document; documents run from '#begin document' "
                             f"to '#end document'")
        else:
            current.add(line.split(), where)
    if current is not None:
        raise InputError(f"{path}: document {current.name!r} (line {current.line}) has no '#end document'")
    if not docs:
        raise InputError(f"{path}: nothing to compare: no '#begin document' in the file")
    if repeats:
        refused = (f"; the official scorer v8.01 refuses a response with more than {PERL_REPEATS} repeated "
                   f"mentions (counted across its metrics, so 'scorer.pl all' stops on this file), and scores "
                   f"one metric at a time as here" if repeats >= PERL_REPEATS else "")
        warnings.warn(f"{path}: {repeats} repeated mention{'s' if repeats > 1 else ''} (the same tokens marked "
                      f"again) kept once, in the entity that opened first{refused}", CorefWarning, stacklevel=2)
    return docs


__all__ = ["CorefDocument", "read_conll2012"]
