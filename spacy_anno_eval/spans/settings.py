"""The span engine's settings: one typed, frozen object that validates every value once, at construction.

Every door builds it — :func:`~spacy_anno_eval.spans.engine.evaluate`, the
``anno-eval score`` / ``qa`` commands, the stream over shards and chunks,
the benchmark, the registered scorer and the ``anno_eval`` component — and
the :class:`~spacy_anno_eval.spans.counts.Evaluation` it makes carries it,
so that :meth:`~spacy_anno_eval.spans.counts.Evaluation.concat` can refuse
to merge evaluations made with different settings, naming the first that
differs. A value that is wrong is a :class:`~spacy_anno_eval.errors.ConfigError`
naming it, before any file is read (DESIGN.md, Contracts, "Values are
checked"):

- ``beta``: a finite number >= 0, or ``inf`` (F = recall, as scikit-learn's
  ``fbeta_score``); NaN refused (:func:`~spacy_anno_eval.figures.check_beta`);
- ``zero_division``: the value of a 0/0 ratio, in [0, 1];
- ``min_overlap``: the least overlap of a partial pair, in percent of the
  key's length, in [0, 100];
- ``pairing``: ``optimal`` or ``gate``; ``fp_per``: ``tokens`` or
  ``sentences``;
- ``key_set`` / ``response_set``: selector strings (the response's defaults to
  the key's); ``types`` / ``features``: names (a string is one name).

The object is also a read-only mapping of what a report records under
``"settings"`` (``settings["beta"]``, ``dict(settings)``), the same keys the
engine always recorded: ``fp_per`` only when it is not the default.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, fields, replace
from typing import Any

from ..annotations.table import name_list
from ..errors import ConfigError
from ..figures import check_beta, check_zero_division

PAIRINGS = ("optimal", "gate")
FP_UNITS = ("tokens", "sentences")


def check_min_overlap(min_overlap: Any) -> float:
    """Validate ``min_overlap``: a percentage in [0, 100] (NaN, booleans and strings refused)."""
    ok = not isinstance(min_overlap, bool) and isinstance(min_overlap, int | float)
    value = float(min_overlap) if ok else float("nan")
    if not 0.0 <= value <= 100.0:
        raise ConfigError(f"min_overlap must be a percentage in [0, 100] (of the key's length), got "
                          f"{min_overlap!r}")
    return value


def _selector(name: str, value: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ConfigError(f"{name} must be a selector string such as 'ents' or 'spans:sc', got {value!r:.60}")
    return value


@dataclass(frozen=True, eq=False)
class SpanSettings(Mapping[str, Any]):
    """The settings of one span comparison (module docstring); ``SpanSettings(**kwargs)`` validates them."""

    key_set: str = "ents"
    response_set: str | None = None
    types: tuple[str, ...] | None = None
    features: tuple[str, ...] | None = None
    beta: float = 1.0
    zero_division: float = 0.0
    pairing: str = "optimal"
    min_overlap: float = 0.0
    fp_per: str = "tokens"

    def __post_init__(self) -> None:
        key_set = _selector("key_set", self.key_set)
        response_set = key_set if self.response_set is None else _selector("response_set", self.response_set)
        types, features = name_list(self.types, "types"), name_list(self.features, "features")
        if self.pairing not in PAIRINGS:
            raise ConfigError(f"pairing must be one of {', '.join(PAIRINGS)}, got {self.pairing!r}")
        if self.fp_per not in FP_UNITS:
            raise ConfigError(f"fp_per (--fp-per) must be one of {', '.join(FP_UNITS)}, got {self.fp_per!r}")
        for name, value in (("key_set", key_set), ("response_set", response_set),
                            ("types", tuple(types) if types else None),
                            ("features", tuple(features) if features else None),
                            ("beta", check_beta(self.beta)),
                            ("zero_division", check_zero_division(self.zero_division)),
                            ("min_overlap", check_min_overlap(self.min_overlap))):
            object.__setattr__(self, name, value)

    @classmethod
    def of(cls, value: SpanSettings | Mapping[str, Any] | None = None, **overrides: Any) -> SpanSettings:
        """``value`` as settings: a :class:`SpanSettings` (with ``overrides`` applied), or a mapping of the
        recorded keys (a report's ``"settings"``, an older evaluation's dict), validated; unknown keys are a
        :class:`ConfigError` naming them."""
        if isinstance(value, SpanSettings):
            return replace(value, **overrides) if overrides else value
        given = {**dict(value or {}), **overrides}
        known = {f.name for f in fields(cls)}
        unknown = sorted(k for k in given if k not in known)
        if unknown:
            raise ConfigError(f"unknown span settings {', '.join(map(repr, unknown))}; the settings are "
                              f"{', '.join(sorted(known))}")
        return cls(**given)

    @classmethod
    def split(cls, options: Mapping[str, Any]) -> dict[str, Any]:
        """``options`` (keyword arguments meant for :func:`~spacy_anno_eval.spans.engine.evaluate`) with the
        settings among them (and a ``settings`` entry) replaced by one validated ``settings`` entry: what a
        door that passes options on (the stream, the benchmark) does first, so that a bad value is refused
        before any work."""
        names = {f.name for f in fields(cls)}
        given = {k: v for k, v in options.items() if k in names}
        rest = {k: v for k, v in options.items() if k not in names}
        rest["settings"] = cls.of(rest.pop("settings", None), **given)
        return rest

    def replace(self, **changes: Any) -> SpanSettings:
        """A copy with ``changes``, validated."""
        return replace(self, **changes)

    def recorded(self) -> dict[str, Any]:
        """What a report records under ``"settings"`` (lists, not tuples; ``fp_per`` only when not ``tokens``)."""
        out = {"beta": self.beta, "zero_division": self.zero_division, "pairing": self.pairing,
               "min_overlap": self.min_overlap, "key_set": self.key_set, "response_set": self.response_set,
               "types": list(self.types) if self.types else None,
               "features": list(self.features) if self.features else None}
        if self.fp_per != "tokens":
            out["fp_per"] = self.fp_per
        return out

    # a read-only mapping of recorded() (settings["beta"], dict(settings), settings == {...})
    def __getitem__(self, key: str) -> Any:
        return self.recorded()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self.recorded())

    def __len__(self) -> int:
        return len(self.recorded())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Mapping):
            return self.recorded() == dict(other.items())
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(sorted((k, repr(v)) for k, v in self.recorded().items())))

    def __repr__(self) -> str:
        return f"SpanSettings({', '.join(f'{k}={v!r}' for k, v in self.recorded().items())})"


__all__ = ["FP_UNITS", "PAIRINGS", "SpanSettings", "check_min_overlap"]
