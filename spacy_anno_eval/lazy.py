"""Lazy package exports: a package names its public API without importing its modules up front.

spaCy imports every registered factory and scorer module when a pipeline is
created, and those modules live in this package: so ``import
spacy_anno_eval`` (and each family's ``__init__``) must stay light. A package
lists ``{name: module}`` and gets a module-level ``__getattr__`` (PEP 562)
that imports the module on first use, and a ``__dir__`` that lists the names.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Mapping
from importlib import import_module
from typing import Any


def parse_exports(spec: str) -> dict[str, str]:
    r"""``{name: module}`` of lines ``module: name name ...`` (a line that starts with spaces continues the
    previous module's names; the whole text may be indented).

    >>> parse_exports("coefficients: cohen_kappa\n    scott_pi\nreliability: fleiss_kappa")
    {'cohen_kappa': 'coefficients', 'scott_pi': 'coefficients', 'fleiss_kappa': 'reliability'}
    """
    names: dict[str, str] = {}
    module = ""
    for line in textwrap.dedent(spec).splitlines():
        if not line.strip():
            continue
        head, sep, rest = line.partition(":")
        if sep and not line[0].isspace():
            module, line = head.strip(), rest
        for name in line.split():
            names[name] = module
    return names


def lazy_package(package: str, spec: str) -> tuple[Callable[[str], Any], Callable[[], list[str]], list[str]]:
    """``(__getattr__, __dir__, __all__)`` for a family package whose public names are listed in ``spec``
    (see :func:`parse_exports`), each in one of its submodules."""
    names = parse_exports(spec)
    return (*lazy_exports(package, names), sorted(names))


def lazy_exports(package: str, names: Mapping[str, str]) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """``(__getattr__, __dir__)`` for ``package`` whose public ``names`` live in the given submodules
    (relative to the package, e.g. ``{"evaluate": "spans.engine"}``)."""

    def getattr_(name: str) -> Any:
        if name in names:
            return getattr(import_module(f"{package}.{names[name]}"), name)
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    def dir_() -> list[str]:
        return sorted(names)

    return getattr_, dir_


__all__ = ["lazy_exports", "lazy_package", "parse_exports"]
