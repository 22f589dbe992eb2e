"""The cases issue 26 found, each a test named after what it protects (the contract by construction).

What each protects is now held by one piece of code rather than by each door: the readers' declared inputs
(``io/registry.py``) for the type system, the located loaders' rules (``io/parse.py``: non-finite numbers read
as null, lone surrogates refused when read, nesting beyond 200 levels refused) for the NaN, surrogate and depth
cases, and the one JSON writer (``files.json_text``) behind every output.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.conftest import shared_file

DEMO = Path(__file__).resolve().parents[1] / "assets" / "demo"


def invoke(*args: object):
    from typer.testing import CliRunner

    from spacy_anno_eval.cli.app import app

    return CliRunner().invoke(app, [str(a) for a in args])


def one_error(result, *names: str) -> str:
    """The one error line of a refused command (exit 2), holding each of ``names``."""
    assert result.exit_code == 2, result.output
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("anno-eval: error:"), result.stderr
    for name in names:
        assert name in lines[0], lines[0]
    return lines[0]


def strict_json(path: Path) -> list:
    """Every JSON value of ``path`` (a JSON or JSON-lines file), refusing NaN and Infinity as JSON does."""
    def refuse(constant: str) -> None:
        raise AssertionError(f"{path} holds {constant}, which is not JSON")

    text = path.read_text(encoding="utf-8")
    if path.suffix == ".jsonl":
        return [json.loads(line, parse_constant=refuse) for line in text.splitlines() if line.strip()]
    return [json.loads(text, parse_constant=refuse)]


# -- an output may not be a file an input's reader opens ------------------------------------------------------------


@pytest.fixture
def xmi_with_type_system(tmp_path: Path) -> tuple[Path, Path]:
    """cassis's small CAS and its type system, as an INCEpTION export lays them out (TypeSystem.xml beside)."""
    folder = tmp_path / "export"
    folder.mkdir()
    shutil.copy(shared_file("formats", "uima_cas_xmi", "cassis_small_cas.xmi"), folder / "doc.xmi")
    shutil.copy(shared_file("formats", "uima_cas_xmi", "cassis_small_typesystem.xml"), folder / "TypeSystem.xml")
    return folder / "doc.xmi", folder / "TypeSystem.xml"


@pytest.mark.parametrize("command", [["sets", "{xmi}", "--json", "{ts}"],
                                     ["qa", "{xmi}", "{xmi}", "--html", "{ts}"],
                                     ["score", "{xmi}", "{xmi}", "--json", "{ts}"],
                                     ["convert", "{xmi}", "{ts}"]])
def test_an_output_may_not_be_the_type_system_the_xmi_reader_reads(xmi_with_type_system, command):
    xmi, ts = xmi_with_type_system
    before = ts.read_bytes()
    args = [a.format(xmi=xmi, ts=ts) for a in command]
    one_error(invoke(*args), str(ts), f"which the reader of {xmi} opens")
    assert ts.read_bytes() == before


def test_an_output_may_not_be_the_text_of_a_brat_ann(tmp_path):
    (tmp_path / "d.txt").write_text("Ada wrote.", encoding="utf-8")
    (tmp_path / "d.ann").write_text("T1\tPER 0 3\tAda\n", encoding="utf-8")
    one_error(invoke("sets", tmp_path / "d.ann", "--json", tmp_path / "d.txt"), "d.txt")
    assert (tmp_path / "d.txt").read_text(encoding="utf-8") == "Ada wrote."


# -- convert writes null, never a bare NaN ---------------------------------------------------------------------------


def test_convert_writes_null_for_a_label_studio_nan_score(tmp_path):
    export = tmp_path / "ls.json"
    export.write_text('[{"id": 1, "data": {"text": "Ada wrote."}, "annotations": [], "predictions": [{'
                      '"model_version": "v1", "score": NaN, "result": [{"id": "r1", "from_name": "ner", '
                      '"to_name": "text", "type": "labels", "value": {"start": 0, "end": 3, "text": "Ada", '
                      '"labels": ["PER"]}}]}]}]', encoding="utf-8")
    out = tmp_path / "out.jsonl"
    result = invoke("convert", export, out)
    assert result.exit_code == 0, result.output
    (record,) = strict_json(out)
    spans = [s for s in record["spans"]]
    assert spans and all(s.get("features", {}).get("score", None) is None for s in spans)
    assert "not finite" in result.stderr  # NonFiniteNumberWarning: read as null, and said so


def test_convert_writes_null_for_an_xmi_double_nan(tmp_path):
    from spacy_anno_eval.io.registry import Sample, reader

    path = reader("xmi").write_sample(Sample(number=float("nan")), tmp_path)
    out = tmp_path / "out.jsonl"
    result = invoke("convert", path, out)
    assert result.exit_code == 0, result.output
    (record,) = strict_json(out)
    features = [s["features"] for s in record["spans"] if "features" in s]
    assert features and all(f["confidence"] is None for f in features)


def test_convert_writes_null_for_a_nif_nan_confidence(tmp_path):
    from spacy_anno_eval.io.registry import Sample, reader

    path = reader("nif").write_sample(Sample(number=float("nan")), tmp_path)
    out = tmp_path / "out.jsonl"
    result = invoke("convert", path, out)
    assert result.exit_code == 0, result.output
    (record,) = strict_json(out)
    features = [s["features"] for s in record["spans"] if "features" in s]
    assert features and all(f["taConfidence"] is None for f in features)


# -- a lone surrogate is refused when read, before any writer meets it ----------------------------------------------


def _demo_with(tmp_path: Path, field: str, value: str) -> Path:
    docs = [json.loads(line) for line in (DEMO / "key.jsonl").read_text(encoding="utf-8").splitlines()]
    if field == "label":
        docs[0]["spans"][0]["label"] = value
    else:
        docs[0]["text"] = value + docs[0]["text"][len(value):]
    path = tmp_path / "key.jsonl"
    path.write_text("".join(json.dumps(d) + "\n" for d in docs), encoding="utf-8")  # \ud800 as an escape
    return path


@pytest.mark.parametrize("field, value", [("label", "P\ud800ER"), ("text", "bad \ud800 x")])
@pytest.mark.parametrize("command", [["score", "{key}", "{key}"], ["qa", "{key}", "{key}", "--html", "{out}.html"],
                                     ["convert", "{key}", "{out}.spacy"], ["sets", "{key}"],
                                     ["adjudicate", "{key}", "{key}", "--out", "{out}.spacy"]])
def test_a_lone_surrogate_is_refused_when_read_before_any_writer(tmp_path, field, value, command):
    """The terminal table, the HTML writers, convert to DocBin and adjudicate crashed on these (exit 3)."""
    key = _demo_with(tmp_path, field, value)
    args = [a.format(key=key, out=tmp_path / "out") for a in command]
    one_error(invoke(*args), f"{key}, line 1", "lone surrogate")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["key.jsonl"]  # nothing written, no temporary file


# -- nesting 1,000 deep is refused with its place, never a RecursionError -------------------------------------------


def test_a_bdoc_1000_deep_is_refused_not_crashed(tmp_path):
    path = tmp_path / "doc.bdocjs"
    path.write_text('{"text": "Ada", "features": {"x": ' + "[" * 1000 + "]" * 1000 + '}, "annotation_sets": {}}',
                    encoding="utf-8")
    one_error(invoke("sets", path), str(path), "nesting deeper than 200 levels")


def test_a_gamma_fixture_1000_deep_is_refused_not_crashed(tmp_path):
    path = tmp_path / "fixture.json"
    path.write_text('{"continuum": ' + "[" * 1000 + "]" * 1000 + "}", encoding="utf-8")
    one_error(invoke("gamma", path), str(path), "nesting deeper than 200 levels")


def test_a_discbracket_tree_1000_deep_is_refused_not_crashed(tmp_path):
    path = tmp_path / "t.discbracket"
    path.write_text("(S " * 1000 + "(N 0=Ada)" + ")" * 1000 + "\n", encoding="utf-8")
    one_error(invoke("trees", path, path), str(path), "nesting deeper than 200 levels")


# -- gamma --format names gamma's own formats too ---------------------------------------------------------------------


@pytest.mark.parametrize("fmt", ["csv", "auto"])
def test_gamma_format_takes_gammas_own_formats(tmp_path, fmt):
    """The shared --format option knew only the span readers, so 'gamma units.csv --format csv' was refused."""
    units = tmp_path / "u.csv"
    units.write_text("a,X,0,10\nb,X,0,9\na,Y,20,30\nb,Y,21,30\n", encoding="utf-8")
    result = invoke("gamma", units, "--format", fmt, "--samples", "5", "--json", tmp_path / "g.json", "-q")
    assert result.exit_code == 0, result.output
    assert strict_json(tmp_path / "g.json")[0]["gamma"] is not None


def test_gamma_format_refuses_a_name_listing_both_kinds(tmp_path):
    line = one_error(invoke("gamma", tmp_path / "u.csv", "--format", "nope"), "--format 'nope'")
    assert "textgrid" in line and "labelstudio" in line


# -- warnings come in a fixed order ----------------------------------------------------------------------------------


def test_the_key_and_response_warnings_come_in_a_fixed_order():
    """Key and response were read in two threads for every format, so two readers' warnings (TSV3's relations
    left out) printed in an order that changed from run to run; only DocBins are read side by side now."""
    key = shared_file("formats", "webanno_tsv3", "relationLabelTest__user1.tsv")
    response = shared_file("formats", "webanno_tsv3", "relationLabelTest__user2.tsv")
    runs = set()
    for _ in range(5):
        result = invoke("score", key, response, "-q")
        assert result.exit_code == 0, result.output
        runs.add(result.stderr)
    (stderr,) = runs
    lines = [line for line in stderr.splitlines() if "left out" in line]
    assert len(lines) == 2 and "user1" in lines[0] and "user2" in lines[1]
