"""The 2016 uα as a result object: why it is undefined is a field, the CLI only asks it, its JSON is unchanged."""

from __future__ import annotations

import json
import warnings

import pytest
from typer.testing import CliRunner

from spacy_anno_eval.cli.app import app
from spacy_anno_eval.errors import ConfigError, InputError, UndefinedFigureWarning
from spacy_anno_eval.gamma.continuum import Continuum
from spacy_anno_eval.gamma.unitizing import UnitizingAlpha2016Result, unitizing_alpha, unitizing_alpha_2016
from spacy_anno_eval.report.gamma_terminal import unitizing_lines

# coder 0's A[1, 9) and B[2, 4) overlap: the 2016 form needs one value per position; the 2004 form is fine
CLASH = [("0", 1, 9, "A"), ("0", 2, 4, "B"), ("1", 2, 3, "A")]


def test_overlap_is_a_result_with_its_reason_when_asked_and_an_error_by_default():
    with pytest.raises(InputError) as raised:
        unitizing_alpha_2016(Continuum.from_units(CLASH), extent=(0, 10))
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # asked for: no warning, the reason is the result's
        r = unitizing_alpha_2016(Continuum.from_units(CLASH), extent=(0, 10), on_overlap="undefined")
    assert r.value is None and r.undefined_because == "overlap"
    assert r.warnings == [str(raised.value)] and "overlaps another unit" in r.warnings[0]
    # the JSON the CLI wrote before the result object existed, key for key
    assert r.to_dict() == {"measure": "krippendorff2016_u_alpha", "value": None, "warnings": [str(raised.value)]}


def test_other_undefined_values_name_their_reason_and_keep_the_full_json():
    with pytest.warns(UndefinedFigureWarning, match="fewer than two annotators"):
        one = unitizing_alpha_2016(Continuum.from_units([("0", 1, 3, "A")]), extent=(0, 10))
    assert one.value is None and one.undefined_because == "annotators"
    assert {"observed_disagreement", "coincidences", "total"} <= one.to_dict().keys()
    assert "undefined_because" not in one.to_dict()
    defined = unitizing_alpha_2016(Continuum.from_units([("0", 1, 9, "A"), ("1", 2, 3, "A")]), extent=(0, 10))
    assert defined.value is not None and defined.undefined_because is None


def test_on_overlap_takes_raise_or_undefined_only():
    with pytest.raises(ConfigError, match="on_overlap"):
        unitizing_alpha_2016(Continuum.from_units(CLASH), extent=(0, 10), on_overlap="ignore")


def test_the_u_alpha_16_line_reads_the_reason_not_the_message():
    continuum = Continuum.from_units(CLASH)
    r2004 = unitizing_alpha(continuum, extent=(0, 10))
    overlap = UnitizingAlpha2016Result.overlapping("a message without the word", (0, 10), ["0", "1"])
    assert unitizing_lines(r2004, overlap)[-1] == \
        "u-alpha-16 NA  (Krippendorff et al. 2016)  (units of one annotator overlap)"
    other = UnitizingAlpha2016Result(None, 0.0, 0.0, {}, {}, 0.0, (0, 10), ["0"], ["units overlaps text"],
                                     undefined_because="annotators")
    assert unitizing_lines(r2004, other)[-1] == "u-alpha-16 NA  (Krippendorff et al. 2016)  (undefined)"


def test_cli_gamma_ualpha_on_overlapping_units_prints_and_writes_as_before(tmp_path):
    units = tmp_path / "clash.csv"
    units.write_text("".join(f"{a},{c},{s},{e}\n" for a, s, e, c in CLASH), encoding="utf8")
    out = tmp_path / "r.json"
    result = CliRunner().invoke(app, ["gamma", str(units), "--ualpha", "--extent", "0,10", "--samples", "10",
                                      "--json", str(out)])
    assert result.exit_code == 0, result.output
    assert "u-alpha-16 NA  (Krippendorff et al. 2016)  (units of one annotator overlap)\n" in result.stdout
    data = json.loads(out.read_text(encoding="utf8"))["unitizing_alpha_2016"]
    assert list(data) == ["measure", "value", "warnings"] and data["value"] is None
    assert "overlaps another unit of its annotator" in data["warnings"][0]
