"""Paired significance between coreference systems (issue 29): the vectorised figures equal the scorer's, the tests
are those of the span compare on per-document counts, and the command prints and writes them."""

from __future__ import annotations

import glob
import json
import warnings

import numpy as np
import pytest
from typer.testing import CliRunner

from spacy_anno_eval.cli.app import app
from spacy_anno_eval.coref.conll2012 import CorefDocument, read_conll2012
from spacy_anno_eval.coref.metrics import FIGURE_NAMES, counts_vector, figures_array, score_documents
from spacy_anno_eval.errors import ConfigError
from spacy_anno_eval.resampling.paired import paired_test
from spacy_anno_eval.workflows.coref_compare import compare_coref
from tests.conftest import shared_file


def corpus(n_docs: int, errors: int, seed: int = 0) -> tuple[list[CorefDocument], list[CorefDocument]]:
    """``n_docs`` documents of three entities of three mentions; the response moves a mention to the next entity
    in ``errors`` of them (chosen by ``seed``)."""
    rng = np.random.default_rng(seed)
    wrong = set(rng.choice(n_docs, size=errors, replace=False).tolist())
    key, response = [], []
    for d in range(n_docs):
        entities = [[(3 * e + 9 * m, 3 * e + 9 * m) for m in range(3)] for e in range(3)]
        key.append(CorefDocument(f"d{d}", ("w",) * 27, tuple(tuple(e) for e in entities)))
        if d in wrong:
            entities = [list(e) for e in entities]
            entities[1].append(entities[0].pop())
        response.append(CorefDocument(f"d{d}", ("w",) * 27, tuple(tuple(e) for e in entities)))
    return key, response


def test_the_vectorised_figures_equal_the_scorer_on_every_official_case():
    folder = shared_file("coreference", "conll2012", "DataFiles")
    worst = 0.0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # A9's repeated mentions: tested by the reader
        for response in sorted(glob.glob(str(folder / "TC-*-*.response"))):
            key = response.rsplit("-", 1)[0] + ".key"
            for rule in ("conll", "corefud"):
                scores = score_documents(read_conll2012(key), read_conll2012(response), blanc=rule)
                figures = scores.figures()
                row = figures_array(counts_vector(scores.counts)[None, :], rule)[0]
                for value, name in zip(row, FIGURE_NAMES, strict=True):
                    metric, k = name.rsplit("_", 1)
                    worst = max(worst, abs(value - figures[metric][k]))
    assert worst < 1e-12


def test_a_better_system_on_many_documents_is_significant_and_equal_systems_are_not():
    key, perfect = corpus(40, 0)
    _, worse = corpus(40, 30)
    result = compare_coref(key, [worse, perfect, perfect], names=["worse", "good", "same"], n_samples=999)
    by_pair = {(p["old"], p["new"]): p["figures"] for p in result.pairs}
    better = by_pair[("worse", "good")]["conll_f"]
    assert better["delta"] > 0 and result.significant(better)
    assert better["p_randomization_holm"] >= better["p_randomization"]
    same = by_pair[("good", "same")]["conll_f"]
    assert same["delta"] == 0 and same["p_randomization"] == 1.0 and not result.significant(same)
    assert result.notes == [] and result.corrected


def test_each_pair_is_the_paired_test_of_the_per_document_counts():
    key, a = corpus(12, 3, seed=1)
    _, b = corpus(12, 6, seed=2)
    result = compare_coref(key, [a, b], names=["a", "b"], n_samples=300, seed=7)
    counts = [np.stack([counts_vector(c) for _, c in score_documents(key, s).per_doc]) for s in (a, b)]
    direct = paired_test(counts[0], counts[1], figures_array, n_samples=300, seed=7)
    k = FIGURE_NAMES.index("muc_f")
    entry = result.pairs[0]["figures"]["muc_f"]
    assert (entry["delta"], entry["p_bootstrap"], entry["p_randomization"]) == pytest.approx(
        (direct.delta[k], direct.p_bootstrap[k], direct.p_randomization[k]))


def test_too_few_documents_are_said_and_bad_settings_refused():
    key, a = corpus(3, 1)
    result = compare_coref(key, [a, key], names=["a", "key"], n_samples=50)
    assert result.notes and "with 3 documents no difference can reach p <= 0.05" in result.notes[0]
    with pytest.raises(ConfigError, match="two or more responses"):
        compare_coref(key, [a], names=["a"])
    with pytest.raises(ConfigError, match="one distinct name per system"):
        compare_coref(key, [a, a], names=["a", "a"])


def test_the_command_compares_several_responses(tmp_path):
    folder = shared_file("coreference", "conll2012", "DataFiles")
    out = tmp_path / "c.json"
    args = ["coref", str(folder / "TC-M.key"), *(str(folder / f"TC-M-{i}.response") for i in (1, 2, 3)),
            "--samples", "200", "--json", str(out)]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert max(map(len, lines)) <= 80
    assert lines[0].startswith("3 systems, 1 document") and "TC-M-2 against TC-M-1 (F, new - old)" in lines
    assert any(line.startswith("note: with 1 document no difference") for line in lines)
    data = json.loads(out.read_text(encoding="utf8"))
    assert list(data["systems"]) == ["TC-M-1", "TC-M-2", "TC-M-3"] and data["correction"] == "holm"
    assert data["systems"]["TC-M-3"]["muc"]["f"] == pytest.approx(0.75)
    assert set(data["pairs"][0]["figures"]) == set(FIGURE_NAMES)
    named = CliRunner().invoke(app, [*args[:5], "--names", "x", "--samples", "10"])
    assert named.exit_code == 2 and "1 names for 3 systems" in named.stderr
