"""CoNLL-U dependency trees (Universal Dependencies v2 format), and the same trees from spaCy Docs.

The format (https://universaldependencies.org/format.html): one word per line
with ten tab-separated fields ``ID FORM LEMMA UPOS XPOS FEATS HEAD DEPREL DEPS
MISC``; a blank line ends a sentence; lines starting with ``#`` before the
first word of a sentence are comments, ``# sent_id = X`` and ``# text = ...``
among them.

What is read: the *basic* tree of each sentence, i.e. the syntactic words
(integer IDs ``1..n``) with their ``HEAD`` and ``DEPREL``.

- multiword-token lines (ID ``1-2``, e.g. English "don't" over the words
  "do" and "n't") carry no HEAD; they are checked for a well-formed range,
  kept in :attr:`Sentence.multiword` for reference and otherwise skipped:
  the tree is over the words, as in the CoNLL 2018 evaluation;
- empty nodes (ID ``1.1``) belong to the enhanced graph (DEPS) only and are
  skipped; ``DEPS`` is kept as a raw string.

Errors (:class:`~spacy_anno_eval.errors.InputError`, naming
``path, line N``) -- the basic tree cannot be compared without these:

- a line without exactly 10 tab-separated fields, or with an empty field;
- an ID that is not an integer, a range ``a-b`` (integers, ``a <= b``) or a
  decimal ``a.b``; word IDs that do not run ``1, 2, ..., n`` (the hint points
  at a missing blank line when a ``1`` appears inside a sentence);
- a HEAD that is not a non-negative integer (``_`` included: the file has no
  basic tree), a HEAD greater than the number of words, a word that is its
  own head;
- a DEPREL that is ``_``;
- a cycle (which is also the only way a sentence can have no root): the
  message lists the words of the cycle;
- a comment line inside a sentence (after its first word line), and
  comments not followed by any word: both usually mean a missing or extra
  blank line;
- a file that is not UTF-8 (a byte order mark is accepted).

Warnings (:class:`ConlluWarning`; the sentence is read and compared):

- more than one root word (HEAD 0): UD requires exactly one, but CoNLL-X
  style treebanks and parser output may have several, and a forest is still
  scored word by word and node by node;
- a ``sent_id`` used twice (sentences are compared by position, not by id).

A sentence without ``# sent_id`` gets its 1-based position as id (``"1"``,
``"2"``...); without ``# text`` its text is ``None`` (and
:attr:`Sentence.display_text` joins the forms, honouring ``SpaceAfter=No``).

From spaCy (:func:`treebank_from_docs`): one sentence per ``doc.sents``
(spaCy derives sentence boundaries from the parse, so a Doc with two roots
has two sentences); the word IDs are the token positions in the sentence
plus 1; ``HEAD`` is ``token.head.i - sent.start + 1``, or 0 when the token is
its own head (spaCy's root); ``DEPREL`` is ``token.dep_``. Every token is a
word, whitespace tokens included. :func:`treebank_to_docs` goes the other
way (one Doc per sentence).
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import ConlluWarning, InputError, where
from ..io.parse import read_text

FIELDS = ("ID", "FORM", "LEMMA", "UPOS", "XPOS", "FEATS", "HEAD", "DEPREL", "DEPS", "MISC")


@dataclass(frozen=True, slots=True)
class Word:
    """One syntactic word of a basic dependency tree (``id`` 1-based; ``head`` 0 for the root)."""

    id: int
    form: str
    head: int
    deprel: str
    lemma: str = "_"
    upos: str = "_"
    xpos: str = "_"
    feats: str = "_"
    deps: str = "_"
    misc: str = "_"
    line: int | None = None

    @property
    def space_after(self) -> bool:
        """False when MISC holds ``SpaceAfter=No``."""
        return "SpaceAfter=No" not in self.misc.split("|")


@dataclass(frozen=True)
class Sentence:
    """A sentence: its words in order (``words[i].id == i + 1``) and its metadata."""

    sent_id: str
    words: tuple[Word, ...]
    text: str | None = None
    comments: tuple[str, ...] = ()
    multiword: tuple[tuple[int, int, str], ...] = ()
    line: int | None = None  # the first line of the sentence (its first comment or word)

    def __len__(self) -> int:
        return len(self.words)

    @property
    def forms(self) -> list[str]:
        return [w.form for w in self.words]

    @property
    def heads(self) -> list[int]:
        """HEAD of every word (1-based, 0 = root)."""
        return [w.head for w in self.words]

    @property
    def deprels(self) -> list[str]:
        return [w.deprel for w in self.words]

    @property
    def display_text(self) -> str:
        """``# text`` when given, else the forms joined by the spaces MISC implies."""
        if self.text is not None:
            return self.text
        return "".join(w.form + (" " if w.space_after else "") for w in self.words).rstrip()


@dataclass(frozen=True)
class Treebank:
    """The sentences of one file (or one list of Docs); ``source`` names it in messages.

    ``metadata["checked"]`` is True when every tree went through :func:`check_tree`
    (the readers set it); :func:`~spacy_anno_eval.trees.dependencies.compare_treebanks` checks the others.
    """

    sentences: tuple[Sentence, ...]
    source: str = "<string>"
    metadata: dict[str, Any] = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.sentences)

    def __iter__(self) -> Iterator[Sentence]:
        return iter(self.sentences)

    def __getitem__(self, i: int) -> Sentence:
        return self.sentences[i]

    @property
    def n_words(self) -> int:
        return sum(len(s) for s in self.sentences)


# ---------------------------------------------------------------------------
# reading


def read_conllu(path: str | os.PathLike) -> Treebank:
    """Read the basic trees of a CoNLL-U file (see the module docstring for errors and warnings). A file
    without a sentence is an :class:`InputError` (nothing to compare)."""
    from .checks import refuse_empty

    p = Path(path)
    text = read_text(p, "utf-8", fix="CoNLL-U files are UTF-8 (Universal Dependencies format): save it as UTF-8")
    treebank = parse_conllu(text.splitlines(), source=str(p))
    refuse_empty(treebank, str(p), fix="a CoNLL-U file holds one word per line (10 tab-separated fields), "
                                       "sentences separated by a blank line")
    return treebank


def parse_conllu(lines: str | Iterable[str], source: str = "<string>") -> Treebank:
    """Parse CoNLL-U ``lines`` (a string or an iterable of lines); ``source`` names them in messages."""
    if isinstance(lines, str):
        lines = lines.splitlines()
    sentences: list[Sentence] = []
    block: list[tuple[int, str]] = []
    n = 0
    for n, raw in enumerate(lines, 1):
        line = raw.rstrip("\r\n")
        if n == 1:
            line = line.removeprefix("\ufeff")
        if line.strip():
            block.append((n, line))
        elif block:
            sentences.append(_parse_block(block, len(sentences) + 1, source))
            block = []
    if block:
        sentences.append(_parse_block(block, len(sentences) + 1, source))
    seen: dict[str, int] = {}
    for s in sentences:
        if s.sent_id in seen:
            warnings.warn(f"{where(source, line=s.line)}: sent_id {s.sent_id!r} is also used on line "
                          f"{seen[s.sent_id]}; sentences are compared by position", ConlluWarning, stacklevel=2)
        else:
            seen[s.sent_id] = s.line or 0
    return Treebank(tuple(sentences), source=source, metadata={"checked": True})


def _is_int(text: str) -> bool:
    """A non-negative integer in ASCII digits."""
    return text.isascii() and text.isdigit()


def _parse_block(block: list[tuple[int, str]], number: int, source: str) -> Sentence:
    comments: list[str] = []
    meta: dict[str, str] = {}
    words: list[Word] = []
    multiword: list[tuple[int, int, str]] = []
    for n, line in block:
        if line.startswith("#"):
            if words or multiword:
                raise InputError(f"{where(source, line=n)}: a comment line inside a sentence (after its "
                                         f"first word); is a blank line missing before it?")
            comments.append(line)
            body = line[1:].strip()
            key, eq, value = body.partition("=")
            if eq:
                meta.setdefault(key.strip(), value.strip())
            continue
        cols = line.split("\t")
        if len(cols) != 10:
            hint = " (the fields must be separated by tabs, not spaces)" if len(cols) == 1 and " " in line else ""
            raise InputError(f"{where(source, line=n)}: expected 10 tab-separated fields "
                                     f"({' '.join(FIELDS)}), found {len(cols)}{hint}")
        for name, value in zip(FIELDS, cols, strict=True):
            if value == "":
                raise InputError(f"{where(source, line=n)}: the {name} field is empty (write _ for "
                                         f"an unspecified value)")
        wid = cols[0]
        if "-" in wid:
            first, _, last = wid.partition("-")
            if not (_is_int(first) and _is_int(last) and 0 < int(first) <= int(last)):
                raise InputError(f"{where(source, line=n)}: ID {wid!r} is not a multiword-token range "
                                         f"such as 1-2")
            multiword.append((int(first), int(last), cols[1]))
            continue
        if "." in wid:
            major, _, minor = wid.partition(".")
            if not (_is_int(major) and _is_int(minor)):
                raise InputError(f"{where(source, line=n)}: ID {wid!r} is not an empty-node ID such as 1.1")
            continue  # an empty node: enhanced graph only
        if not _is_int(wid):
            raise InputError(f"{where(source, line=n)}: ID {wid!r} is not an integer, a range (1-2) or a "
                                     f"decimal (1.1)")
        expected = len(words) + 1
        if int(wid) != expected:
            hint = "; is a blank line missing before it?" if int(wid) == 1 else ""
            raise InputError(f"{where(source, line=n)}: expected word ID {expected}, found {wid}{hint}")
        head = cols[6]
        if not _is_int(head):
            raise InputError(f"{where(source, line=n)}: HEAD {head!r} is not a non-negative integer; "
                                     f"the basic tree is needed for a comparison")
        if cols[7] == "_":
            raise InputError(f"{where(source, line=n)}: DEPREL is _; every word of the basic tree "
                                     f"needs a relation")
        words.append(Word(id=expected, form=cols[1], lemma=cols[2], upos=cols[3], xpos=cols[4], feats=cols[5],
                          head=int(head), deprel=cols[7], deps=cols[8], misc=cols[9], line=n))
    if not words:
        raise InputError(f"{where(source, line=block[0][0])}: comment lines with no words after them; "
                                 f"is there an extra blank line?")
    sent_id = meta.get("sent_id", str(number))
    sentence = Sentence(sent_id=sent_id, words=tuple(words), text=meta.get("text"), comments=tuple(comments),
                        multiword=tuple(multiword), line=block[0][0])
    check_tree(sentence, source)
    return sentence


# ---------------------------------------------------------------------------
# validation


def _locate(sentence: Sentence, source: str, word: Word | None = None) -> str:
    line = word.line if word is not None and word.line is not None else sentence.line
    return f"{where(source, line=line)}: sentence {sentence.sent_id!r}"


def check_tree(sentence: Sentence, source: str = "<string>") -> int:
    """Check that ``sentence``'s HEADs form a tree (or a forest); return the number of roots.

    Errors: a HEAD out of ``0..n``, a word that is its own head, a cycle
    (hence also no root). Warning: more than one root.
    """
    words = sentence.words
    n = len(words)
    for i, w in enumerate(words):
        if w.id != i + 1:
            raise InputError(f"{_locate(sentence, source, w)}: word {i + 1} has ID {w.id}; IDs must run "
                                     f"1..n")
        if w.head < 0 or w.head > n:
            raise InputError(f"{_locate(sentence, source, w)}: word {w.id} {w.form!r} has HEAD {w.head}, "
                                     f"outside 0..{n} (the sentence has {n} words)")
        if w.head == w.id:
            raise InputError(f"{_locate(sentence, source, w)}: word {w.id} {w.form!r} is its own head")
    # 0 = unvisited, 1 = on the current path, 2 = reaches a root
    state = [0] * (n + 1)
    state[0] = 2
    for start in range(1, n + 1):
        path = []
        node = start
        while state[node] == 0:
            state[node] = 1
            path.append(node)
            node = words[node - 1].head
        if state[node] == 1:  # back on the current path: a cycle
            cycle = path[path.index(node):]
            chain = " -> ".join(f"{i} {words[i - 1].form!r}" for i in [*cycle, cycle[0]])
            raise InputError(f"{_locate(sentence, source, words[cycle[0] - 1])}: the heads form a cycle "
                                     f"({chain}, each arrow pointing to the head), so this is not a tree")
        for i in path:
            state[i] = 2
    roots = sum(1 for w in words if w.head == 0)
    if roots > 1:
        warnings.warn(f"{_locate(sentence, source)}: {roots} root words (HEAD 0); UD allows one. The forest "
                      f"is compared as it is", ConlluWarning, stacklevel=3)
    return roots


# ---------------------------------------------------------------------------
# spaCy


def treebank_from_docs(docs: Iterable[Any], source: str = "docs") -> Treebank:
    """The basic trees of spaCy ``docs``, one sentence per ``doc.sents``.

    ``sent_id`` is ``"<doc>.<sentence>"``: the document's id by the one rule
    (:func:`~spacy_anno_eval.annotations.docs.doc_id`; its 0-based position
    when its ``user_data`` gives none), which also names it in errors, and
    the sentence's 0-based position in it. The text is ``sent.text``; UPOS,
    XPOS, LEMMA come from ``pos_``, ``tag_``, ``lemma_`` (``_`` when empty).
    A Doc without a dependency parse is an error, as is a token without a
    label or a head outside its sentence.
    """
    from ..annotations.docs import doc_id, doc_sentences

    sentences: list[Sentence] = []
    for position, doc in enumerate(docs):
        d = doc_id(doc, position)
        sents = doc_sentences(doc)
        if sents is None:
            raise InputError(f"{source}, document {d}: the Doc has no dependency parse (no token has a "
                                     f"head and a dep label)")
        for s, sent in enumerate(sents):
            start, end = sent.start, sent.end
            words = []
            for k, (form, head, dep, lemma, upos, xpos, space) in enumerate(zip(
                    sent.forms, sent.heads, sent.deps, sent.lemmas, sent.pos, sent.tags, sent.space_after,
                    strict=True)):
                i = start + k
                if not start <= head < end:
                    raise InputError(f"{source}, document {d}, sentence {s}: token {i} {form!r} "
                                             f"has its head {head} outside the sentence [{start}, {end})")
                if not dep:
                    raise InputError(f"{source}, document {d}, sentence {s}: token {i} {form!r} "
                                             f"has no dependency label")
                words.append(Word(id=k + 1, form=form, head=0 if head == i else head - start + 1,
                                  deprel=dep, lemma=lemma or "_", upos=upos or "_",
                                  xpos=xpos or "_", misc="_" if space else "SpaceAfter=No"))
            sentence = Sentence(sent_id=f"{d}.{s}", words=tuple(words), text=sent.text)
            check_tree(sentence, f"{source}, document {d}")
            sentences.append(sentence)
    return Treebank(tuple(sentences), source=source, metadata={"checked": True})


def treebank_to_docs(treebank: Treebank | Sequence[Sentence], vocab: Any = None) -> list[Any]:
    """One spaCy Doc per sentence with words, spaces (``SpaceAfter=No``), heads, deps, POS, tags, lemmas.

    The root's head is itself, as spaCy stores it. UPOS values spaCy does not
    know (and ``_``) are left unset.
    """
    from spacy.parts_of_speech import IDS as POS_IDS
    from spacy.tokens import Doc
    from spacy.vocab import Vocab

    vocab = vocab if vocab is not None else Vocab()
    docs = []
    for sentence in treebank:
        words = sentence.words
        pos = [w.upos if w.upos in POS_IDS else "" for w in words]
        docs.append(Doc(vocab, words=[w.form for w in words], spaces=[w.space_after for w in words],
                        heads=[(w.head if w.head else w.id) - 1 for w in words], deps=[w.deprel for w in words],
                        pos=pos if all(pos) else None, tags=[w.xpos for w in words],
                        lemmas=[w.lemma for w in words]))
    return docs


__all__ = ["FIELDS", "ConlluWarning", "Sentence", "Treebank", "Word", "check_tree", "parse_conllu", "read_conllu",
           "treebank_from_docs", "treebank_to_docs"]
