"""What a language model extracted from one corpus, as strings, before any grounding.

An :class:`Extraction` is one labelled string a model gave for one document, in the order the model listed it
(``order``: the grounding keeps that order where a string occurs several times); a :class:`Triple` one relation
between two strings. Offsets a producer claims (langextract's ``char_interval``) are kept as they were given and
checked by the grounding, never trusted. :class:`Extractions` holds a file's extractions by document id, in file
order; the key supplies the texts.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Extraction:
    """One labelled string of one document: ``order`` is its position among that document's extractions,
    ``source`` where it was read (``file:line``), ``start``/``end`` the character offsets its producer claims
    (``None``: none given), ``attrs`` anything else the producer recorded."""

    doc_id: str
    label: str
    text: str
    order: int
    source: str = ""
    start: int | None = None
    end: int | None = None
    attrs: Mapping[str, Any] = field(default_factory=dict, compare=False, hash=False)


@dataclass(frozen=True)
class Triple:
    """One relation given as strings: ``head`` and ``tail`` (their labels where the producer gave them),
    ``relation`` its type, ``order`` its position among the document's triples."""

    doc_id: str
    head: str
    relation: str
    tail: str
    order: int
    source: str = ""
    head_label: str | None = None
    tail_label: str | None = None


@dataclass
class Extractions:
    """A file's extractions and triples by document id (in file order), its path and format."""

    documents: dict[str, list[Extraction]] = field(default_factory=dict)
    triples: dict[str, list[Triple]] = field(default_factory=dict)
    source: str = ""
    format: str = ""

    def __len__(self) -> int:
        return sum(len(v) for v in self.documents.values())

    @property
    def doc_ids(self) -> list[str]:
        """Every document id, in file order (those with extractions or triples)."""
        return list(dict.fromkeys([*self.documents, *self.triples]))


__all__ = ["Extraction", "Extractions", "Triple"]
