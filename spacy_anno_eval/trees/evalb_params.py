"""EVALB's parameters: :class:`EvalbParams`, frozen and validated once, read from a parameter file.

The keywords of EVALB 2006 (Sekine & Collins; ``README`` and ``evalb.c`` of
the 2006 release): ``DEBUG``, ``MAX_ERROR``, ``CUTOFF_LEN``, ``LABELED``,
``DELETE_LABEL``, ``DELETE_LABEL_FOR_LENGTH``, ``EQ_LABEL``, ``EQ_WORD``,
``QUOTE_LABEL``; and disco-dop's ``DELETE_WORD``, ``DISC_ONLY``,
``DELETE_ROOT_PRETERMS`` (its ``LA``, ``TED``, ``DEP`` accepted only as 0).
What each does to the scoring: :mod:`~spacy_anno_eval.trees.evalb`.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from ..errors import ConfigError, InputError, where
from ..io.parse import read_text

_INT_KEYS = {"DEBUG": "debug", "MAX_ERROR": "max_error", "CUTOFF_LEN": "cutoff_len", "LABELED": "labeled",
             "DISC_ONLY": "disc_only", "DELETE_ROOT_PRETERMS": "delete_root_preterms"}
_LIST_KEYS = {"DELETE_LABEL": "delete_labels", "DELETE_LABEL_FOR_LENGTH": "delete_labels_for_length",
              "QUOTE_LABEL": "quote_labels", "DELETE_WORD": "delete_words"}
#: disco-dop's switches for further measures (leaf-ancestor, tree distance, dependencies): only 0 is accepted
_OFF_KEYS = {"LA": "leaf-ancestor", "TED": "tree-edit distance", "DEP": "unlabeled dependency"}
_PAIR_KEYS = {"EQ_LABEL": "eq_labels", "EQ_WORD": "eq_words"}


@dataclass(frozen=True)
class EvalbParams:
    """EVALB's settings; the defaults are EVALB's without a parameter file (no deletions, no equivalences, no
    quote labels). Frozen, and validated once here: whole numbers >= 0, switches 0/1, lists of labels, pairs
    of two (:class:`ConfigError` otherwise)."""

    debug: int = 0
    max_error: int = 10
    cutoff_len: int = 40
    labeled: bool = True
    delete_labels: tuple[str, ...] = ()
    delete_labels_for_length: tuple[str, ...] = ()
    quote_labels: tuple[str, ...] = ()
    eq_labels: tuple[tuple[str, str], ...] = ()
    eq_words: tuple[tuple[str, str], ...] = ()
    delete_words: tuple[str, ...] = ()
    disc_only: bool = False
    delete_root_preterms: bool = False

    def __post_init__(self):
        for name in ("debug", "max_error", "cutoff_len"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ConfigError(f"{name} must be a whole number >= 0, got {value!r}")
        if not isinstance(self.labeled, bool | int) or self.labeled not in (0, 1):
            raise ConfigError(f"labeled must be True/False (LABELED 1/0), got {self.labeled!r}")
        object.__setattr__(self, "labeled", bool(self.labeled))
        for name in ("disc_only", "delete_root_preterms"):
            value = getattr(self, name)
            if not isinstance(value, bool | int) or value not in (0, 1):
                raise ConfigError(f"{name} must be True/False ({name.upper()} 1/0), got {value!r}")
            object.__setattr__(self, name, bool(value))
        for name in ("delete_labels", "delete_labels_for_length", "quote_labels", "delete_words"):
            value = getattr(self, name)
            if isinstance(value, str) or not isinstance(value, Iterable):
                raise ConfigError(f"{name} must be a list of labels, got {value!r}")
            object.__setattr__(self, name, tuple(str(x) for x in value))
        for name in ("eq_labels", "eq_words"):
            pairs = tuple(tuple(p) for p in getattr(self, name))
            if any(len(p) != 2 for p in pairs):
                raise ConfigError(f"{name} must hold pairs (a, b), got {getattr(self, name)!r}")
            object.__setattr__(self, name, pairs)

    @classmethod
    def parse(cls, text: str, source: str = "<string>") -> EvalbParams:
        """Parse the text of an EVALB parameter file: every keyword of EVALB 2006 (``DEBUG``, ``MAX_ERROR``,
        ``CUTOFF_LEN``, ``LABELED``, ``DELETE_LABEL``, ``DELETE_LABEL_FOR_LENGTH``, ``QUOTE_LABEL``,
        ``EQ_LABEL``, ``EQ_WORD``) and disco-dop's (see the module docstring). Unknown keywords, values that are
        not whole numbers, ``EQ_*`` lines without exactly two values and keywords without a value are refused
        (:class:`ConfigError`, naming the line); EVALB itself warns and goes on.

        >>> EvalbParams.parse("LABELED 0\\nDELETE_LABEL TOP\\nEQ_LABEL ADVP PRT").eq_labels
        (('ADVP', 'PRT'),)
        >>> EvalbParams.parse("QUOTE_LABEL ``\\nQUOTE_LABEL POS").quote_labels
        ('``', 'POS')
        """
        values: dict[str, Any] = {}
        lists: dict[str, list] = {name: [] for name in (*_LIST_KEYS.values(), *_PAIR_KEYS.values())}
        for n, raw in enumerate(text.splitlines(), 1):
            line = raw.rstrip()
            if line.startswith("#") or len(line) < 3:  # EVALB: comments and lines shorter than 3 characters
                continue
            parts = line.split(None, 1)
            key, value = parts[0], (parts[1].strip() if len(parts) > 1 else "")
            at = where(source, line=n)
            known = (*_INT_KEYS, *_LIST_KEYS, *_PAIR_KEYS, *_OFF_KEYS)
            if key in _OFF_KEYS:
                if value.strip() != "0":
                    raise ConfigError(f"{at}: {key} {value} asks for disco-dop's {_OFF_KEYS[key]} evaluation, "
                                      f"which is not implemented; set {key} 0 or remove the line")
                continue
            if key not in known:
                raise ConfigError(f"{at}: unknown keyword {key!r} in an EVALB parameter file; "
                                  f"known: {', '.join(known)}")
            if not value:
                raise ConfigError(f"{at}: {key} has no value")
            if key in _INT_KEYS:
                try:
                    values[_INT_KEYS[key]] = int(value)
                except ValueError:
                    raise ConfigError(f"{at}: {key} must be a whole number, got {value!r}") from None
            elif key in _LIST_KEYS:
                lists[_LIST_KEYS[key]].append(value)
            else:
                pair = value.split()
                if len(pair) != 2:
                    raise ConfigError(f"{at}: {key} requires two values, got {value!r}")
                lists[_PAIR_KEYS[key]].append(tuple(pair))
        try:
            return cls(**values, **{k: tuple(v) for k, v in lists.items()})
        except ConfigError as exc:
            raise ConfigError(f"{source}: {exc}") from None

    @classmethod
    def read(cls, path: str | os.PathLike) -> EvalbParams:
        """Read an EVALB parameter file (``sample.prm``, ``COLLINS.prm``, ...)."""
        p = Path(path)
        try:
            text = read_text(p, "utf-8", what="an EVALB parameter file",
                             fix="EVALB parameter files are read as UTF-8 (ASCII is UTF-8): save it as UTF-8")
        except InputError as exc:  # a setting, not the data: the file is named all the same
            raise ConfigError(str(exc)) from None
        return cls.parse(text, source=str(p))

    def label_eq(self, a: str, b: str) -> bool:
        """Labels equal, or paired by ``EQ_LABEL`` (either way round)."""
        return a == b or (a, b) in self.eq_labels or (b, a) in self.eq_labels

    def word_eq(self, a: str, b: str) -> bool:
        """Words equal, or paired by ``EQ_WORD`` (either way round)."""
        return a == b or (a, b) in self.eq_words or (b, a) in self.eq_words

    def to_dict(self) -> dict[str, Any]:
        return {k: [list(p) for p in v] if k.startswith("eq_") else list(v) if isinstance(v, tuple) else v
                for k, v in asdict(self).items()}


#: the parameter file keyword of each :class:`EvalbParams` field, for messages
KEYWORDS = {field_name: key for key, field_name in (*_INT_KEYS.items(), *_LIST_KEYS.items(), *_PAIR_KEYS.items())}

__all__ = ["KEYWORDS", "EvalbParams"]
