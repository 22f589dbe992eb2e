"""Both unitizing alphas as one result (issue 27): the extent they compare, the 2016 form undefined on overlapping
units while the 2004 form stands, and the JSON keys ``anno-eval gamma`` writes."""

from __future__ import annotations

from types import SimpleNamespace

from spacy_anno_eval.gamma.continuum import Continuum
from spacy_anno_eval.gamma.unitizing import (
    UnitizingAlphas,
    gamma_report,
    unitizing_alpha,
    unitizing_alpha_2016,
    unitizing_alphas,
    unitizing_extent,
)

UNITS = [("0", 2, 6, "A"), ("1", 3, 6, "A")]
CLASH = [("0", 1, 9, "A"), ("0", 2, 4, "B"), ("1", 2, 3, "A")]


def _from_documents(units, extent):
    continuum = Continuum.from_units(units)
    continuum.documents = {"extent": extent}
    return continuum


def test_the_extent_is_the_given_one_else_the_documents_else_none():
    assert unitizing_extent(Continuum.from_units(UNITS)) is None
    assert unitizing_extent(_from_documents(UNITS, [0, 20])) == (0, 20)
    assert unitizing_extent(_from_documents(UNITS, [0, 20]), (1, 8)) == (1, 8)
    assert unitizing_extent(_from_documents([], [0, 20])) is None  # no units: nothing to span


def test_both_alphas_over_the_documents_extent():
    continuum = _from_documents(UNITS, [0, 20])
    both = unitizing_alphas(continuum)
    assert both.alpha_2004.extent == (0.0, 20.0) and both.alpha_2016.extent == (0.0, 20.0)
    assert both.alpha_2004.value == unitizing_alpha(continuum, extent=(0, 20)).value
    assert both.alpha_2016.value == unitizing_alpha_2016(continuum, extent=(0, 20)).value
    # the smallest start to the largest end gives another figure: the documents' extent was used
    assert both.alpha_2004.value != unitizing_alpha(continuum).value


def test_overlapping_units_leave_the_2016_form_undefined_not_an_error():
    both = unitizing_alphas(Continuum.from_units(CLASH), extent=(0, 10))
    assert both.alpha_2004.value is not None
    assert both.alpha_2016.value is None and both.alpha_2016.undefined_because == "overlap"


def test_to_dict_and_the_gamma_report_keys():
    both = unitizing_alphas(Continuum.from_units(UNITS), extent=(0, 10))
    assert isinstance(both, UnitizingAlphas)
    assert both.to_dict() == {"unitizing_alpha": both.alpha_2004.to_dict(),
                              "unitizing_alpha_2016": both.alpha_2016.to_dict()}
    result = SimpleNamespace(to_dict=lambda: {"gamma": 0.5, "warnings": []})
    assert gamma_report(result) == {"gamma": 0.5, "warnings": []}
    assert list(gamma_report(result, both)) == ["gamma", "warnings", "unitizing_alpha", "unitizing_alpha_2016"]
