"""The treebank ``--resolve`` suggests: each sentence as annotated in A or in B, copied from its file as written.

For every sentence, the version the perplexity test suggests (:func:`spacy_anno_eval.trees.resolution.resolve`:
the lower perplexity); A's where A and B are identical or no suggestion was made (a tie) -- listed in the
summary so that a person decides those. The sentences are copied as their files hold them, byte for byte, so
that nothing the models do not read (comments, lemmas, features, secondary edges) is lost; two formats are
written, those whose sentences are self-contained blocks:

- **CoNLL-U** (dependency trees): the blocks between blank lines, in A's order, each from A or B;
- **NEGRA export** (``#BOS n`` ... ``#EOS n``): A's header (format line and ``#BOT`` tables) first, then
  each sentence's block from A or B (B's blocks keep their own origin and editor numbers).

Other formats (TIGER-XML, brackets, discbracket) are refused with what to do: convert them, or apply the
``--suggestions`` rows by hand. The blocks of a file are matched to its trees in order: a count that differs
is an :class:`~spacy_anno_eval.errors.InputError`.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import ConfigError, InputError
from ..io.parse import read_text

_BOS = re.compile(r"^#BOS\b", re.M)


@dataclass(frozen=True)
class Adjudicated:
    """The text of the suggested treebank and which version each sentence took: ``from_b`` (ids taken from B),
    ``ties`` (ids that differ with no suggestion: A's kept, to decide by hand), ``n_sentences``."""

    text: str
    n_sentences: int
    from_b: list[str] = field(default_factory=list)
    ties: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"sentences": self.n_sentences, "from_b": self.from_b, "ties": self.ties}


def _blocks(path: str | os.PathLike, kind: str) -> tuple[str, list[str]]:
    """A file's header and its sentence blocks, in file order, as written."""
    text = read_text(path)
    if kind == "conllu":
        blocks = [b.strip("\n") + "\n" for b in re.split(r"\n[ \t]*\n", text.replace("\r\n", "\n")) if b.strip()]
        return "", blocks
    starts = [m.start() for m in _BOS.finditer(text)]
    if not starts:
        raise InputError(f"{path}: no '#BOS' line: not a NEGRA export file with sentences")
    header = text[:starts[0]]
    blocks = [text[s:e] for s, e in zip(starts, [*starts[1:], len(text)], strict=True)]
    last = blocks[-1]
    end = re.search(r"^#EOS\b[^\n]*\n?", last, re.M)
    if end is not None:
        blocks[-1] = last[:end.end()]
    return header, blocks


def _kind(path: str | os.PathLike, trees: Sequence[Any], tree_format: str) -> str:
    from .conllu import Sentence
    from .readers import sniff

    if trees and isinstance(trees[0], Sentence):
        return "conllu"
    found = tree_format if tree_format != "auto" else sniff(path)
    if found == "export":
        return "export"
    raise ConfigError(f"{path}: the suggested treebank is written for CoNLL-U and NEGRA export files, whose "
                      f"sentences are blocks copied as written; this is {found or 'another format'}: convert it, or "
                      f"apply the --suggestions rows by hand")


def adjudicated_treebank(a_path: str | os.PathLike, b_path: str | os.PathLike, a_trees: Sequence[Any],
                         b_trees: Sequence[Any], resolution: Any, tree_format: str = "auto") -> Adjudicated:
    """The treebank of the suggested versions (see the module); ``a_trees``/``b_trees`` the files' trees (their
    ``sent_id`` names the blocks), ``resolution`` a :class:`~spacy_anno_eval.trees.resolution.Resolution`."""
    kind = _kind(a_path, a_trees, tree_format)
    if _kind(b_path, b_trees, tree_format) != kind:
        raise ConfigError(f"{a_path} and {b_path} are of different formats; the suggested treebank copies "
                          f"sentences between files of one format")
    header, a_blocks = _blocks(a_path, kind)
    _, b_blocks = _blocks(b_path, kind)
    for path, blocks, trees in ((a_path, a_blocks, a_trees), (b_path, b_blocks, b_trees)):
        if len(blocks) != len(trees):
            raise InputError(f"{path}: {len(blocks)} sentence blocks for {len(trees)} trees read; the file's "
                             f"sentences must be separate blocks")
    b_by_id = {t.sent_id: block for t, block in zip(b_trees, b_blocks, strict=True)}
    decided = resolution.by_id()
    out, from_b, ties = [header] if header else [], [], []
    for tree, block in zip(a_trees, a_blocks, strict=True):
        resolved = decided.get(tree.sent_id)
        if resolved is not None and resolved.suggestion == "B":
            block = b_by_id[tree.sent_id]
            from_b.append(tree.sent_id)
        elif resolved is not None and resolved.suggestion is None:
            ties.append(tree.sent_id)
        out.append(block if kind == "export" else block + "\n")
    return Adjudicated("".join(out), len(a_trees), from_b, ties)


def write_adjudicated(path: str | os.PathLike, adjudicated: Adjudicated) -> Path:
    """Write the suggested treebank atomically (:mod:`spacy_anno_eval.files`)."""
    from ..files import write_text

    return write_text(path, adjudicated.text)


__all__ = ["Adjudicated", "adjudicated_treebank", "write_adjudicated"]
