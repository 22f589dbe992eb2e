"""Published examples, as their authors lay them out, through ``anno-eval agreement`` with no option: a leading
column of unit ids is not an annotator (:func:`~spacy_anno_eval.agreement.summary.read_table`).

- irrCAC (Gwet 2014, *Handbook of Inter-Rater Reliability*, 4th ed.; afergadis/irrCAC@2b71b15
  ``test/unit/irrCAC/raw/test_*.py``): its raw datasets, read unmodified from
  ``../shared/data/chance_agreement/irrcac/``, begin with the index columns ``Units`` or ``Group,Units``
  (``../shared/data/REFERENCE-2.md`` C1). Before the id column was recognised, ``raw_4raters.csv --level ordinal``
  read "12 units, 5 annotators" and gave Brennan-Prediger 0.2707 and Conger's kappa -0.2716 (exit 0); irrCAC
  publishes 0.886 and 0.844 (ordinal weights), 0.773 and 0.763 (unweighted).
- Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability", the 4 observers x 12 units example, which
  is irrCAC's ``raw_4raters`` (``REFERENCE.md`` 1.1): alpha nominal 0.743 (Do 0.200, De 0.779), ordinal 0.815,
  interval 0.849 (Do 0.433, De 2.872), ratio 0.797, as DKPro Statistics' ``Krippendorff2004Test.createExample3``
  asserts them.
- DKPro Statistics' Gwet fixtures (``dkpro_gwet_fixtures/``, Apache-2.0; values of R irrCAC 1.4's
  ``gwet.ac1.raw``, ``REFERENCE-2.md`` C2): the fixtures hold two raters' contingency tables, which
  ``gwet.ac1.raw`` read as one row per item; each table is written out here as that items x raters CSV with an
  ``item`` id column.
- ``krippendorff`` (PyPI, pln-fing-udelar/fast-krippendorff ``sample.py``, the README's "reliability data
  matrix"; the Wikipedia example, ``REFERENCE.md`` 1.2): 3 coders x 15 units; nominal 0.691358, interval 0.810845.
  There is no file of theirs: the matrix is written inline, one row per unit with its number, as a units x
  coders CSV.

Each run must also say, once, that the id column was not read as an annotator.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from spacy_anno_eval.cli.app import app
from tests.conftest import shared_file

runner = CliRunner()
NOTE = "read as unit ids"


def agreement(table: Path, tmp_path: Path, *options: str) -> dict:
    """Run ``anno-eval agreement TABLE`` (no id option) and return its JSON; the note is printed exactly once."""
    out = tmp_path / "agreement.json"
    result = runner.invoke(app, ["agreement", str(table), *options, "--json", str(out)])
    assert result.exit_code == 0, result.output
    assert result.output.count(NOTE) == 1, result.output
    return json.loads(out.read_text(encoding="utf8"))


def irrcac(name: str) -> Path:
    return shared_file("chance_agreement", "irrcac", f"{name}.csv")


# irrCAC raw/test_*.py: dataset, --level (irrCAC weights), gwet, bp, conger, fleiss (3 decimals, REFERENCE-2.md C1)
IRRCAC = [
    ("raw_4raters", "nominal", 0.775, 0.773, 0.763, 0.761),  # unweighted: gwet.py:16 bp.py:16 conger.py:16 fleiss.py:16
    ("raw_4raters", "ordinal", 0.899, 0.886, 0.844, 0.850),  # ordinal: gwet.py:64 bp.py:72 conger.py:71 fleiss.py:71
    ("raw_4raters", "interval", 0.914, 0.902, 0.858, 0.865),  # quadratic: gwet.py:76 bp.py:84 conger.py:83 fleiss.py:83
    ("raw_4raters", "ratio", 0.857, 0.840, 0.812, 0.821),  # ratio: gwet.py:100 bp.py:108 conger.py:107 fleiss.py:107
    ("raw_5observers", "nominal", 0.497, 0.487, 0.469, 0.458),  # gwet.py:133 bp.py:141 conger.py:140 fleiss.py:140
    ("raw_gender", "nominal", 0.208, 0.183, 0.166, 0.129),  # gwet.py:157 bp.py:165 conger.py:164 fleiss.py:164
    ("raw_ben_gerry", "nominal", 0.661, 0.659, 0.657, 0.649),  # gwet.py:169 bp.py:177 conger.py:176 fleiss.py:176
]
# irrCAC raw/test_krippendorff.py (unweighted): units, raters, alpha
IRRCAC_SHAPE = {"raw_4raters": (12, 4, 0.743), "raw_5observers": (15, 5, 0.481), "raw_gender": (15, 4, 0.143),
                "raw_ben_gerry": (12, 2, 0.665)}


@pytest.mark.parametrize(("dataset", "level", "gwet", "bp", "conger", "fleiss"), IRRCAC,
                         ids=[f"{c[0]}-{c[1]}" for c in IRRCAC])
def test_irrcac_raw_files_give_irrcac_figures_without_an_option(tmp_path, dataset, level, gwet, bp, conger, fleiss):
    summary = agreement(irrcac(dataset), tmp_path, "--level", level)
    n_units, n_raters, _ = IRRCAC_SHAPE[dataset]
    assert (summary["n_units"], summary["n_annotators"]) == (n_units, n_raters)
    assert not {"Units", "Group"} & set(summary["annotators"])
    family = summary["chance_corrected"]
    got = {k: round(family[k]["value"], 3) for k in ("gwet_ac", "brennan_prediger", "conger_kappa",
                                                     "fleiss_kappa_averaged")}
    assert got == {"gwet_ac": gwet, "brennan_prediger": bp, "conger_kappa": conger, "fleiss_kappa_averaged": fleiss}


@pytest.mark.parametrize("dataset", list(IRRCAC_SHAPE))
def test_irrcac_raw_files_give_irrcac_krippendorff_alpha_and_their_unit_ids(tmp_path, dataset):
    summary = agreement(irrcac(dataset), tmp_path)
    n_units, _, alpha = IRRCAC_SHAPE[dataset]
    assert round(summary["krippendorff_alpha"]["value"], 3) == alpha
    units = summary["units"]
    assert units["id_column"] == "Units"
    assert units["ids"] == [str(k) for k in range(1, n_units + 1)]
    assert units["set_aside"] == (["Group", "Units"] if dataset in ("raw_gender", "raw_ben_gerry") else ["Units"])


@pytest.mark.parametrize(("level", "alpha", "do", "de"), [("nominal", 0.743, 0.200, 0.779),
                                                          ("ordinal", 0.815, None, None),
                                                          ("interval", 0.849, 0.433, 2.872),
                                                          ("ratio", 0.797, None, None)])
def test_krippendorff_2011_example_as_irrcac_writes_it(tmp_path, level, alpha, do, de):
    """Krippendorff (2011) / DKPro Krippendorff2004Test.createExample3: the same matrix as raw_4raters."""
    result = agreement(irrcac("raw_4raters"), tmp_path, "--level", level)["krippendorff_alpha"]
    assert round(result["value"], 3) == alpha
    assert result["n_pairable_values"] == 40
    if do is not None:
        assert (round(result["observed_disagreement"], 3), round(result["expected_disagreement"], 3)) == (do, de)


def test_the_id_column_read_as_an_annotator_gave_other_figures(tmp_path):
    """What the command printed before: the unit numbers as a fifth annotator (the regression this guards)."""
    out = tmp_path / "a.json"
    result = runner.invoke(app, ["agreement", str(irrcac("raw_4raters")), "--level", "ordinal", "--id-column", "none",
                                 "--json", str(out)])
    assert result.exit_code == 0, result.output
    assert NOTE not in result.output
    summary = json.loads(out.read_text(encoding="utf8"))
    assert summary["n_annotators"] == 5 and "units" not in summary
    family = summary["chance_corrected"]
    assert (round(family["brennan_prediger"]["value"], 4), round(family["conger_kappa"]["value"], 4)) == \
        (0.2707, -0.2716)


# DKPro dkpro_gwet_fixtures (R irrCAC 1.4 gwet.ac1.raw): fixture, AC1 (nominal), AC2 quadratic (--level interval)
DKPRO = [("fixture_01_paradox_2x2", 0.808, 0.808), ("fixture_02_cohen_ex1", -0.04797, 0.1831),
         ("fixture_03_cohen_ex2", 0.57597, 0.63855)]


def _digits(value: float) -> int:
    return len(repr(value).split(".")[1])


@pytest.mark.parametrize(("fixture", "ac1", "ac2"), DKPRO, ids=[c[0] for c in DKPRO])
def test_dkpro_gwet_fixtures_as_items_x_raters_with_an_item_column(tmp_path, fixture, ac1, ac2):
    spec = json.loads(shared_file("chance_agreement", "dkpro_gwet_fixtures", f"{fixture}.json")
                      .read_text(encoding="utf8"))
    categories, table = spec["categories"], spec["table"]
    rows = [(a, b) for i, a in enumerate(categories) for j, b in enumerate(categories) for _ in range(table[i][j])]
    assert len(rows) == spec["n"]
    csv = tmp_path / f"{fixture}.csv"
    csv.write_text("item,rater1,rater2\n" + "".join(f"{k},{a},{b}\n" for k, (a, b) in enumerate(rows, 1)),
                   encoding="utf8")
    nominal = agreement(csv, tmp_path, "--level", "nominal")
    assert nominal["n_annotators"] == 2 and nominal["units"]["id_column"] == "item"
    assert round(nominal["chance_corrected"]["gwet_ac"]["value"], _digits(ac1)) == ac1
    quadratic = agreement(csv, tmp_path, "--level", "interval")
    assert quadratic["chance_corrected"]["weights"] == "quadratic"
    assert round(quadratic["chance_corrected"]["gwet_ac"]["value"], _digits(ac2)) == ac2


# krippendorff's sample.py / docstring (the Wikipedia example): coders A, B, C (rows there) x units 1..15
WIKIPEDIA = {"A": "*    *    *    *    *    3    4    1    2    1    1    3    3    *    3",
             "B": "1    *    2    1    3    3    4    3    *    *    *    *    *    *    *",
             "C": "*    *    2    1    3    4    4    *    2    1    1    3    3    *    4"}


def _wikipedia_csv(path: Path, id_header: str) -> Path:
    coders = {name: ["" if v == "*" else v for v in values.split()] for name, values in WIKIPEDIA.items()}
    lines = [f"{id_header},{','.join(coders)}"]
    lines += [f"{unit},{','.join(values)}" for unit, values in enumerate(zip(*coders.values(), strict=True), 1)]
    path.write_text("\n".join(lines) + "\n", encoding="utf8")
    return path


@pytest.mark.parametrize("id_header", ["unit", "Unit ID", "n"])  # by its header, and by its values alone ("n")
@pytest.mark.parametrize(("level", "alpha"), [("nominal", 0.691358), ("interval", 0.810845)])
def test_krippendorff_package_example_as_a_units_x_coders_table(tmp_path, id_header, level, alpha):
    summary = agreement(_wikipedia_csv(tmp_path / "wikipedia.csv", id_header), tmp_path, "--level", level)
    assert summary["annotators"] == ["A", "B", "C"] and summary["n_units"] == 15
    assert summary["units"]["ids"] == [str(k) for k in range(1, 16)]
    assert round(summary["krippendorff_alpha"]["value"], 6) == alpha
    krippendorff = pytest.importorskip("krippendorff")  # the package itself, on its own matrix (coders x units)
    matrix = [[float("nan") if v == "*" else int(v) for v in values.split()] for values in WIKIPEDIA.values()]
    assert summary["krippendorff_alpha"]["value"] == pytest.approx(
        krippendorff.alpha(reliability_data=matrix, level_of_measurement=level), abs=1e-12)
