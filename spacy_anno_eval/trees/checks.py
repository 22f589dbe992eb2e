"""What every treebank comparison checks first: that each side has something to compare.

A treebank without a sentence, or whose sentences hold no word (an empty file,
a TIGER-XML ``<corpus>`` without ``<s>``, a bracketed file of blank lines, NEGRA
blocks ``#BOS 1`` / ``#EOS 1`` with nothing between), would score 0.00 (or
``zero_division``) for every figure: a silent zero, which the package never
gives (DESIGN.md, Contracts: "Names are checked ... never a silent zero").
It is an :class:`~spacy_anno_eval.errors.InputError` instead, raised twice
over, so that it holds by construction:

- by every file reader (:func:`~.brackets.read_brackets`,
  :func:`~.discbracket.read_discbracket`, :func:`~.negra.read_negra`,
  :func:`~.tiger.read_tiger`, :func:`~.conllu.read_conllu`), naming the file;
- by every comparison (:func:`~.evalb.evaluate`, :func:`~.disco.evaluate`,
  :func:`~.phrase_compare.compare_phrase_treebanks`,
  :func:`~.dependencies.compare_treebanks`), for the key and for the response,
  whatever built them (``parse_*`` of a string, spaCy Docs, a list).

Some empty sentences among others are fine: EVALB skips a test sentence
without words and counts it, as it should.

>>> refuse_empty([], "e.mrg", fix="write one tree per line")
Traceback (most recent call last):
...
spacy_anno_eval.errors.InputError: e.mrg: nothing to compare (no sentences); write one tree per line
"""

from __future__ import annotations

from collections.abc import Iterable, Sized

from ..errors import InputError

#: what to do, when no reader gives a better hint
FIX = "give a treebank that holds at least one sentence with words (is it the right file, complete, in that format?)"


def refuse_empty(sentences: Iterable[Sized], source: str, side: str = "", *, fix: str = FIX) -> None:
    """Raise :class:`InputError` when ``sentences`` (trees whose ``len()`` is their number of words) hold no
    sentence, or no sentence with a word: ``"<source>: nothing to compare (no sentences in the <side>); <fix>"``.
    ``side`` (``"key"``, ``"test"``, ...) says which input, when ``source`` names both."""
    in_side = f" in the {side}" if side else ""
    n = 0
    for sentence in sentences:
        if len(sentence):
            return
        n += 1
    if not n:
        raise InputError(f"{source}: nothing to compare (no sentences{in_side}); {fix}")
    raise InputError(f"{source}: nothing to compare (no sentences with words{in_side}: "
                     f"{'the one sentence is' if n == 1 else f'all {n} sentences are'} empty); {fix}")


def refuse_empty_pair(key: Iterable[Sized], response: Iterable[Sized], source: str, *,
                      sides: tuple[str, str] = ("key", "response")) -> None:
    """:func:`refuse_empty` for both sides of a comparison (the key first)."""
    refuse_empty(key, source, sides[0])
    refuse_empty(response, source, sides[1])


__all__ = ["FIX", "refuse_empty", "refuse_empty_pair"]
