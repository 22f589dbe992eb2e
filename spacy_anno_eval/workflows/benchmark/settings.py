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
    encoding = null            # text encoding of marked/ and --predictions (null: UTF-8)
    sep = null                 # column delimiter of CoNLL files there (null: any whitespace)

Numbers must be finite: ``NaN`` (or ``Infinity`` where a bound is needed) is
refused naming the setting, as is a file that is not a config file (naming
the line).
"""

from __future__ import annotations

import ast
import codecs
import configparser
import math
import numbers
import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from ...errors import ConfigError, InputError, where
from ...figures import FIGURES, MEASURES, check_beta
from ...spans.settings import SpanSettings

SECTION = "benchmark"
PAIRINGS = ("optimal", "gate")


def _bad(name: str, value: Any, why: str) -> ConfigError:
    return ConfigError(f"benchmark setting {name}={value!r}: {why}")


def _real(name: str, value: Any, low: float, high: float, why: str, *, open_ends: bool = False) -> float:
    """``value`` as a float in [low, high] (or (low, high)); NaN, booleans and strings are refused."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise _bad(name, value, why)
    v = float(value)
    inside = low < v < high if open_ends else low <= v <= high
    if math.isnan(v) or not inside:
        raise _bad(name, value, why)
    return v


def _whole(name: str, value: Any, low: int, why: str) -> int:
    """``value`` as an int >= low (a float such as ``1e3`` counts when it is whole)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise _bad(name, value, why)
    if isinstance(value, numbers.Integral):
        v = int(value)
    elif math.isfinite(float(value)) and float(value).is_integer():
        v = int(float(value))
    else:
        raise _bad(name, value, why)
    if v < low:
        raise _bad(name, value, why)
    return v


def _choices(name: str, value: Any, allowed: tuple[str, ...]) -> list[str]:
    """A non-empty list of names among ``allowed`` (one name alone counts as a list of one)."""
    why = f'must be a non-empty list of {", ".join(allowed)}, e.g. ["{allowed[0]}"]'
    items = [value] if isinstance(value, str) else value
    if not isinstance(items, list | tuple) or not items or any(v not in allowed for v in items):
        raise _bad(name, value, why)
    return list(items)


def _labels(name: str, value: Any) -> list[str] | None:
    """``None`` (all) or a list of non-empty names."""
    if value is None:
        return None
    if isinstance(value, str) and value.lstrip().startswith(("[", "{")):  # a list the config parser could not read
        raise _bad(name, value, 'is not a valid list (a missing "]" or quote?); write e.g. ["PER", "LOC"]')
    items = [value] if isinstance(value, str) else value
    if not isinstance(items, list | tuple) or not all(isinstance(v, str) and v for v in items):
        raise _bad(name, value, 'must be null (all) or a list of names, e.g. ["PER", "LOC"]')
    return list(items)


def _selector(name: str, value: Any) -> str:
    if not isinstance(value, str) or not value:
        raise _bad(name, value, "must be an annotation set selector such as ents or spans:NAME")
    return value


def _beta(name: str, value: Any) -> float:
    if isinstance(value, str) and value.strip().lower() in ("inf", "+inf", "infinity"):
        value = math.inf  # a config file has no float literal for infinity other than Infinity
    try:
        return check_beta(value)
    except ConfigError:
        raise _bad(name, value, "must be a number >= 0, or inf (F = recall), e.g. 1.0") from None


def _pairing(name: str, value: Any) -> str:
    if value not in PAIRINGS:
        raise _bad(name, value, f"must be one of {', '.join(PAIRINGS)}")
    return value


def _encoding(name: str, value: Any) -> str | None:
    """``None`` (UTF-8) or a codec Python knows (the one rule, :func:`spacy_anno_eval.io.parse.check_encoding`)."""
    from ...io.parse import check_encoding

    try:
        return check_encoding(value, what=name)
    except ConfigError:
        raise _bad(name, value, 'must be null (UTF-8) or a Python codec name, e.g. "latin-1"') from None


def _sep(name: str, value: Any) -> str | None:
    """``None`` (any whitespace) or a column delimiter (the one rule,
    :func:`spacy_anno_eval.io.parse.check_separator`; ``tab`` is a tab)."""
    from ...io.parse import check_separator

    try:
        return check_separator(value, what=name)
    except ConfigError:
        raise _bad(name, value, 'must be null (any whitespace) or a column delimiter, e.g. "\\t"') from None


#: setting -> its check, which returns the value normalised (or raises ConfigError naming the setting)
CHECKS: dict[str, Callable[[str, Any], Any]] = {
    "threshold": lambda n, v: _real(n, v, 0.0, 1.0, "must be a number in [0, 1], e.g. 0.7"),
    "key_set": _selector,
    "response_set": _selector,
    "types": _labels,
    "features": _labels,
    "measures": lambda n, v: _choices(n, v, MEASURES),
    "beta": _beta,
    "max_drop": lambda n, v: _real(n, v, 0.0, 1.0, "must be a number in [0, 1] (a fraction of F: 0.01 is one "
                                                   "point), e.g. 0.0"),
    "gate": lambda n, v: _choices(n, v, FIGURES),
    "n_samples": lambda n, v: _whole(n, v, 1, "must be a whole number >= 1, e.g. 1000"),
    "confidence": lambda n, v: _real(n, v, 0.0, 1.0, "must be a number in (0, 1), e.g. 0.95", open_ends=True),
    "seed": lambda n, v: _whole(n, v, 0, "must be a whole number >= 0, e.g. 0"),
    "pairing": _pairing,
    "encoding": _encoding,
    "sep": _sep,
}


def _check_names(names: Any, where: str) -> None:
    unknown = sorted(set(names) - set(CHECKS))
    if unknown:
        raise ConfigError(f"{where}: unknown setting(s) {', '.join(unknown)}; known: {', '.join(sorted(CHECKS))}")


@dataclass(frozen=True)
class BenchmarkSettings:
    """What a benchmark run compares and how it decides (see the module docstring).

    Every value is checked (and normalised: ``n_samples=1e3`` becomes 1000)
    when the settings are made, once: the object is frozen, and a bad value
    raises :class:`ConfigError` naming the setting and what it may be. The
    span engine's share of them is :attr:`span` (a
    :class:`~spacy_anno_eval.spans.settings.SpanSettings`), and
    :meth:`evaluate` scores a version with them.
    """

    threshold: float = 0.7
    key_set: str = "ents"
    response_set: str = "ents"
    types: list[str] | None = None
    features: list[str] | None = None
    measures: list[str] = field(default_factory=lambda: list(MEASURES))
    beta: float = 1.0
    max_drop: float = 0.0
    gate: list[str] = field(default_factory=lambda: ["f"])
    n_samples: int = 1000
    confidence: float = 0.95
    seed: int = 0
    pairing: str = "optimal"
    encoding: str | None = None
    sep: str | None = None

    def __post_init__(self) -> None:
        self.validate()

    @property
    def reader_options(self) -> dict[str, str]:
        """The reader options of ``encoding`` and ``sep``, those that are set."""
        return {k: v for k, v in (("encoding", self.encoding), ("sep", self.sep)) if v is not None}

    def validate(self) -> None:
        """Check every setting, normalising it; raise :class:`ConfigError` naming a bad one (called once, when
        the settings are made)."""
        for f in fields(self):
            object.__setattr__(self, f.name, CHECKS[f.name](f.name, getattr(self, f.name)))
        object.__setattr__(self, "_span", SpanSettings(key_set=self.key_set, response_set=self.response_set,
                                                       types=self.types, features=self.features, beta=self.beta,
                                                       pairing=self.pairing))

    @property
    def span(self) -> SpanSettings:
        """The span engine's settings of a benchmark comparison (key and response sets, types, features, β,
        pairing)."""
        return self._span  # type: ignore[attr-defined]

    def evaluate(self, marked: Any, response: Any) -> Any:
        """The :class:`~spacy_anno_eval.spans.counts.Evaluation` of ``response`` against ``marked`` (corpora,
        or whatever :func:`~spacy_anno_eval.spans.engine.evaluate` reads) under these settings."""
        from ...spans.engine import evaluate

        return evaluate(marked, response, settings=self.span)

    def to_dict(self) -> dict[str, Any]:
        return {f.name: _copy(getattr(self, f.name)) for f in fields(self)}

    def replace(self, **overrides: Any) -> BenchmarkSettings:
        """A copy with the overrides that are not ``None`` applied (command-line values win)."""
        _check_names(overrides, "benchmark settings")
        data = self.to_dict()
        data.update({k: v for k, v in overrides.items() if v is not None})
        return BenchmarkSettings(**data)


def _copy(value: Any) -> Any:
    return list(value) if isinstance(value, list) else value


def _config_error(err: BaseException) -> str:
    """The useful lines of a config parser's error, on one line (thinc's start with blank lines and a title)."""
    boiler = {"Config validation error", "Make sure the sections and values are formatted correctly."}
    lines = [line.strip() for line in str(err).replace("file: '<string>', ", "").splitlines()]
    text = "; ".join(line for line in lines if line and line not in boiler)
    return text.replace("While reading from '<string>' ", "").replace("'<string>'", "the file") or type(err).__name__


def _config_problem(err: BaseException, path: Path) -> tuple[int | None, str]:
    """The line of ``path`` a config parser's error is about (None when it names none), and what is wrong
    there, in words (thinc wraps configparser's errors and drops their line numbers)."""
    cause = err if isinstance(err, configparser.Error) else err.__context__
    if isinstance(cause, configparser.MissingSectionHeaderError):
        return cause.lineno, f"{cause.line.strip()!r} comes before any [section] header"
    if isinstance(cause, configparser.ParsingError) and cause.errors:
        lineno, text = cause.errors[0]  # the line as repr() writes it
        try:
            text = repr(ast.literal_eval(text).strip())
        except (ValueError, SyntaxError, AttributeError):
            pass
        return lineno, f"{text} is neither 'name = value' nor a [section] header"
    if isinstance(cause, configparser.DuplicateOptionError):
        return cause.lineno, f"{cause.option} is set twice in [{cause.section}]"
    if isinstance(cause, configparser.DuplicateSectionError):
        return cause.lineno, f"a second [{cause.section}] section"
    if isinstance(cause, configparser.InterpolationError):
        return (_line_of(path, cause.section, cause.option),
                f"{cause.option} in [{cause.section}] refers to a value that does not exist ({cause.message})")
    return None, _config_error(err) or type(err).__name__


def _line_of(path: Path, section: str, name: str) -> int | None:
    """The line of ``path`` that sets ``name`` in ``[section]`` (None when none does, or it cannot be read)."""
    setting = re.compile(rf"\s*{re.escape(name)}\s*[=:]")
    current = None
    from ...io.parse import read_text

    try:
        lines = read_text(path).splitlines()
    except (InputError, OSError):  # unreadable: no line (the message that asks for one names the file)
        return None
    for k, text in enumerate(lines, 1):
        header = re.match(r"\s*\[([^\]]*)\]", text)
        if header:
            current = header.group(1).strip()
        elif current == section and setting.match(text):
            return k
    return None


def load_settings(path: str | os.PathLike | None = None, **overrides: Any) -> BenchmarkSettings:
    """Settings from ``path`` (its ``[benchmark]`` section; none: the defaults), then ``overrides``.

    Every value is checked before any work, those of the file naming the
    file. Unknown keys are refused (a misspelt ``treshold`` would otherwise
    be silently ignored), naming the file and the known keys.
    """
    values: dict[str, Any] = {}
    _check_names(overrides, "benchmark settings")
    if path is not None:
        p = Path(path)
        if not p.is_file():
            raise ConfigError(f"{p}: no such settings file; give a file with a [{SECTION}] section "
                              f"(see configs/benchmark.cfg)")
        from thinc.api import Config

        from ...io.parse import decode, read_bytes

        try:
            data = read_bytes(p, what="the benchmark settings")
        except InputError as exc:  # a setting, not the data: the file is named all the same
            raise ConfigError(str(exc)) from None
        # the text as thinc's Config.from_disk reads it: a byte-order mark kept as a character, line ends as a text
        # stream reads them
        text = decode(data, p, fix="save the settings file as UTF-8")
        if data.startswith(codecs.BOM_UTF8):
            text = "\ufeff" + text
        try:
            config = Config().from_str(text.replace("\r\n", "\n").replace("\r", "\n"), interpolate=True)
        except (ValueError, OSError, configparser.Error) as err:  # thinc wraps some parser errors, not all
            line, problem = _config_problem(err, p)
            raise ConfigError(f"{where(str(p), line=line)}: not a valid config file: {problem}; write a "
                              f"[{SECTION}] section of 'name = value' lines, as in configs/benchmark.cfg") from None
        if SECTION not in config:
            found = ", ".join(f"[{s}]" for s in config) or "none"
            raise ConfigError(f"{p}: no [{SECTION}] section (sections: {found})")
        values = dict(config[SECTION])
        _check_names(values, f"{p}, [{SECTION}]")
        for name, value in values.items():
            try:
                values[name] = CHECKS[name](name, value)
            except ConfigError as err:
                raise ConfigError(f"{where(str(p), line=_line_of(p, SECTION, name))}, [{SECTION}]: {err}") from None
    values.update({k: v for k, v in overrides.items() if v is not None})
    return BenchmarkSettings(**values)
