"""The docstring examples run: each published value written in a measure's docstring is checked here."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import spacy_anno_eval

MODULES = sorted(m.name for m in pkgutil.walk_packages(spacy_anno_eval.__path__, "spacy_anno_eval.")
                 if not m.name.endswith("__main__"))
# the measures whose published values are written as doctests (source named beside each)
WITH_PUBLISHED_VALUES = ("spacy_anno_eval.agreement.coefficients", "spacy_anno_eval.agreement.reliability",
                         "spacy_anno_eval.annalist.relations", "spacy_anno_eval.agreement.chance",
                         "spacy_anno_eval.gamma.unitizing")


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS, verbose=False)
    assert result.failed == 0
    if name in WITH_PUBLISHED_VALUES:
        assert result.attempted >= 2
