"""The public Python API is what the README lists, it imports, and importing the package stays light."""

from __future__ import annotations

import importlib
import re
import subprocess
import sys
from pathlib import Path

import pytest

import spacy_anno_eval

README = Path(__file__).resolve().parents[1] / "README.md"
FAMILIES = ("spans", "agreement", "bdm", "gamma", "annalist", "noisy", "trees", "annotations", "io", "workflows")


def readme_api() -> dict[str, list[str]]:
    """Door -> names of the README's "Python API" table."""
    section = README.read_text(encoding="utf8").split("## Python API", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| ") and "---" not in line][1:]
    return {row.split("|")[1].strip(): re.findall(r"`(\w+)`", row.split("|")[2]) for row in rows}


def test_every_name_the_readme_lists_imports_and_nothing_more_is_promised():
    api = readme_api()
    assert len(api) >= 6 and sum(map(len, api.values())) >= 30
    top = [n for door, names in api.items() if "spacy_anno_eval.bdm" not in door for n in names]
    for name in top:
        assert getattr(spacy_anno_eval, name) is not None, name
    assert sorted(top) == sorted(n for n in spacy_anno_eval.__all__ if n != "__version__")
    bdm = importlib.import_module("spacy_anno_eval.bdm")
    for name in api["BDM (`spacy_anno_eval.bdm`)"]:
        assert getattr(bdm, name) is not None, name


@pytest.mark.parametrize("family", FAMILIES)
def test_every_family_export_imports(family):
    module = importlib.import_module(f"spacy_anno_eval.{family}")
    names = getattr(module, "__all__", [])
    assert names, f"spacy_anno_eval.{family} exports nothing"
    for name in names:
        assert getattr(module, name) is not None, f"{family}.{name}"


def test_an_unknown_name_is_an_attribute_error_that_names_it():
    with pytest.raises(AttributeError, match="no attribute 'evaluat'"):
        spacy_anno_eval.evaluat  # noqa: B018


@pytest.mark.parametrize("module", ["spacy_anno_eval", *(f"spacy_anno_eval.{f}" for f in FAMILIES),
                                    "spacy_anno_eval.pipeline", "spacy_anno_eval.report"])
def test_importing_a_package_loads_neither_numpy_nor_spacy(module):
    code = f"import sys, {module}; print(sorted(m for m in ('numpy', 'spacy', 'scipy') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]", f"import {module} loaded {out.strip()}"
