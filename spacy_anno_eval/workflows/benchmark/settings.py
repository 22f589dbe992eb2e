"""Benchmark settings: a ``[benchmark]`` section in spaCy's config format, overridable per run.

Every setting of ``configs/benchmark.cfg`` (GATE's ``corpus_tool.properties``,
user guide 10.4.2, with spaCy config syntax) has a command-line twin; a value
given on the command line wins over the file, the file over the defaults::

    [benchmark]
    threshold = 0.7            # verbose: list annotations of per-type figures below this
    key_set = "ents"           # GATE annotSetName
    response_set = "ents"      # GATE outputSetName
    types = null               # GATE annotTypes (null: all)
    features = null            # GATE annotFeatures
    measures = ["strict", "lenient", "average"]
    beta = 1.0
    max_drop = 0.0             # a regression must drop more than this (fraction, 0.01 = 1 point)
    gate = ["f"]               # the figures that gate: any of p, r, f
    n_samples = 1000           # bootstrap and randomization samples
    confidence = 0.95
    seed = 0
    pairing = "optimal"
"""

from __future__ import annotations

import os
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

from ...errors import InputError
from ...spans.measures import MODES

SECTION = "benchmark"
FIGURES = ("p", "r", "f")


@dataclass
class BenchmarkSettings:
    """What a benchmark run compares and how it decides (see the module docstring)."""

    threshold: float = 0.7
    key_set: str = "ents"
    response_set: str = "ents"
    types: list[str] | None = None
    features: list[str] | None = None
    measures: list[str] = field(default_factory=lambda: list(MODES))
    beta: float = 1.0
    max_drop: float = 0.0
    gate: list[str] = field(default_factory=lambda: ["f"])
    n_samples: int = 1000
    confidence: float = 0.95
    seed: int = 0
    pairing: str = "optimal"

    def __post_init__(self) -> None:
        self.validate()

    def validate(self) -> None:
        """Raise :class:`InputError` naming the setting that is out of range."""
        def bad(name: str, why: str) -> InputError:
            return InputError(f"benchmark setting {name}={getattr(self, name)!r}: {why}")

        if not 0.0 <= float(self.threshold) <= 1.0:
            raise bad("threshold", "must be in [0, 1]")
        if float(self.beta) < 0:
            raise bad("beta", "must be >= 0")
        if not 0.0 <= float(self.max_drop) <= 1.0:
            raise bad("max_drop", "must be in [0, 1] (a fraction: 0.01 is one point of F)")
        if not 0.0 < float(self.confidence) < 1.0:
            raise bad("confidence", "must be in (0, 1), e.g. 0.95")
        if int(self.n_samples) < 1:
            raise bad("n_samples", "must be >= 1")
        if not self.measures or any(m not in MODES for m in self.measures):
            raise bad("measures", f"must be a non-empty list of {', '.join(MODES)}")
        if not self.gate or any(g not in FIGURES for g in self.gate):
            raise bad("gate", f"must be a non-empty list of {', '.join(FIGURES)}")
        if self.pairing not in ("optimal", "gate"):
            raise bad("pairing", "must be optimal or gate")
        for name in ("key_set", "response_set"):
            if not isinstance(getattr(self, name), str) or not getattr(self, name):
                raise bad(name, "must be a selector such as ents or spans:NAME")

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def replace(self, **overrides: Any) -> BenchmarkSettings:
        """A copy with the overrides that are not ``None`` applied (command-line values win)."""
        data = self.to_dict()
        data.update({k: v for k, v in overrides.items() if v is not None})
        return BenchmarkSettings(**data)


def load_settings(path: str | os.PathLike | None = None, **overrides: Any) -> BenchmarkSettings:
    """Settings from ``path`` (its ``[benchmark]`` section; none: the defaults), then ``overrides``.

    Unknown keys are refused (a misspelt ``treshold`` would otherwise be
    silently ignored), naming the file and the known keys.
    """
    values: dict[str, Any] = {}
    if path is not None:
        p = Path(path)
        if not p.is_file():
            raise InputError(f"{p}: no such settings file")
        from thinc.api import Config

        try:
            config = Config().from_disk(p, interpolate=True)
        except Exception as err:  # thinc raises several config error types
            raise InputError(f"{p}: not a valid config file: {str(err).splitlines()[0]}") from err
        if SECTION not in config:
            raise InputError(f"{p}: no [{SECTION}] section")
        values = dict(config[SECTION])
        known = {f.name for f in fields(BenchmarkSettings)}
        unknown = sorted(set(values) - known)
        if unknown:
            raise InputError(f"{p}: unknown setting(s) {', '.join(unknown)} in [{SECTION}]; "
                                     f"known: {', '.join(sorted(known))}")
    values.update({k: v for k, v in overrides.items() if v is not None})
    try:
        return BenchmarkSettings(**values)
    except TypeError as err:
        raise InputError(f"benchmark settings: {err}") from err
