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
FAMILIES = ("spans", "agreement", "bdm", "gamma", "annalist", "noisy", "trees", "annotations", "io", "resampling",
            "coref", "llm", "workflows")


def readme_api() -> dict[str, list[str]]:
    """Door -> names of the README's "Python API" table."""
    section = README.read_text(encoding="utf8").split("## Python API", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| ") and "---" not in line][1:]
    return {row.split("|")[1].strip(): re.findall(r"`(\w+)`", row.split("|")[2]) for row in rows}


def test_every_name_the_readme_lists_imports_and_nothing_more_is_promised():
    api = readme_api()
    assert len(api) >= 6 and sum(map(len, api.values())) >= 30
    top = [n for door, names in api.items() if "(`spacy_anno_eval." not in door for n in names]
    for name in top:
        assert getattr(spacy_anno_eval, name) is not None, name
    assert sorted(top) == sorted(n for n in spacy_anno_eval.__all__ if n != "__version__")
    for door, names in api.items():
        if "(`spacy_anno_eval." in door:
            family = importlib.import_module(door.split("`")[1])
            for name in names:
                assert getattr(family, name) is not None, (door, name)


def test_gamma_is_the_subpackage_and_its_function_is_inside():
    import spacy_anno_eval.gamma

    assert spacy_anno_eval.gamma.__name__ == "spacy_anno_eval.gamma"
    assert callable(spacy_anno_eval.gamma.gamma)


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


@pytest.mark.parametrize(("call", "message"), [
    (lambda: spacy_anno_eval.agreement_summary(None), "data must be annotators x units"),
    (lambda: spacy_anno_eval.agreement_summary("abc"), "data must be annotators x units"),
    (lambda: spacy_anno_eval.evaluate_files(None, None), "gold_path must be a file path"),
    (lambda: spacy_anno_eval.compare_files(None, "x.conllu"), "key_path must be a file path"),
    (lambda: spacy_anno_eval.evaluate(None, None), "."),
    (lambda: spacy_anno_eval.evaluate("a.jsonl", "b.jsonl", beta="1"), "beta"),
])
def test_a_wrong_argument_is_a_config_error_saying_what_was_given(call, message):
    with pytest.raises(spacy_anno_eval.ConfigError, match=message):
        call()
