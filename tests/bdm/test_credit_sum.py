"""BDM credit as a mergeable sum (spacy_anno_eval.bdm.credit.BdmCredit / BdmCreditSum).

The figures of a whole corpus (``evaluate(..., credit=...)``), of its shards
merged (``score_shards``, in-process and on Dask) and of the QA report
(``run_qa``) are identical, and identical to ``bdm_prf`` on the whole
alignment (the ``score --bdm`` path); each sum is exact, so every figure equals
the correctly rounded quotient of exact sums (``math.fsum``).
"""

from __future__ import annotations

import json
import math
import pickle
import warnings

import numpy as np
import pytest
import spacy
from spacy.tokens import Span

from spacy_anno_eval.bdm.credit import BdmCredit, BdmCreditSum, bdm_prf, pair_credit
from spacy_anno_eval.bdm.distance import compute_bdm
from spacy_anno_eval.bdm.taxonomy import Taxonomy
from spacy_anno_eval.errors import ConfigError, InputError, UnknownConceptWarning
from spacy_anno_eval.spans.credit import CreditRule, CreditSum
from spacy_anno_eval.spans.engine import evaluate
from spacy_anno_eval.workflows.qa import run_qa
from spacy_anno_eval.workflows.stream import score_shards
from tests.bdm.conftest import N_SHARDS, TREE


def whole(corpus, credit=None):
    return evaluate(str(corpus / "all_key.spacy"), str(corpus / "all_resp.spacy"), credit=credit)


def quiet_report(ev, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UnknownConceptWarning)
        return ev.report(**kw)


def test_the_rule_and_its_sum_follow_the_span_engine_protocol(scores):
    rule = BdmCredit(scores)
    assert isinstance(rule, CreditRule)
    assert rule.settings == {"scores": "tree", "feature": None}
    assert isinstance(rule.accumulate(whole_pairs_of_one_doc()), CreditSum)


def whole_pairs_of_one_doc():
    nlp = spacy.blank("en")
    k, r = nlp("Ada met Bob"), nlp("Ada met Bob")
    k.ents = [Span(k, 0, 1, "Politician")]
    r.ents = [Span(r, 0, 1, "Artist")]
    return evaluate([k], [r]).alignment


def test_whole_corpus_equals_bdm_prf_and_exact_sums(corpus, scores):
    """(a) evaluate(..., credit=) reports what bdm_prf gives on the whole alignment (the score --bdm path), and
    each figure is the quotient of exactly summed credit (math.fsum), for β = 1 and β = 2, zero_division 0 and 1."""
    for beta, zd in ((1.0, 0.0), (2.0, 1.0)):
        ev = evaluate(str(corpus / "all_key.spacy"), str(corpus / "all_resp.spacy"), beta=beta, zero_division=zd,
                      credit=BdmCredit(scores))
        with pytest.warns(UnknownConceptWarning, match="Dancer"):
            report = ev.report(per_doc=False)
        with pytest.warns(UnknownConceptWarning):
            expected = bdm_prf(ev.alignment, scores, beta=beta, zero_division=zd)
        assert report["bdm"] == expected
        assert list(report)[-1] == "bdm"  # after the per-document rows, as score --bdm wrote it
        strict, lenient, unknown = pair_credit(ev.alignment, scores)
        assert unknown and expected["unknown_concepts"] == [{"key": a, "response": b, "count": n}
                                                            for (a, b), n in unknown.items()]
        kl, rl = ev.alignment.key_label(), ev.alignment.response_label()
        for mode, credit in (("strict", strict), ("lenient", lenient)):
            assert expected["counts"][f"bdm_{mode}"] == math.fsum(credit)
            assert expected["micro"][mode]["p"] == math.fsum(credit) / (rl >= 0).sum()
            assert expected["micro"][mode]["r"] == math.fsum(credit) / (kl >= 0).sum()
            for t, name in enumerate(ev.alignment.labels):
                n_resp, n_key = (rl == t).sum(), (kl == t).sum()
                row = expected["per_type"][name][mode]
                assert row["p"] == (math.fsum(credit[rl == t]) / n_resp if n_resp else zd)
                assert row["r"] == (math.fsum(credit[kl == t]) / n_key if n_key else zd)
                # the sequential float sums of the former code agree to the last bits
                old = np.bincount(rl[rl >= 0], weights=credit[rl >= 0], minlength=len(ev.alignment.labels))
                assert row["p"] == pytest.approx(old[t] / n_resp if n_resp else zd, rel=1e-12)


def test_credit_differs_from_the_plain_figures_only_through_near_misses(corpus, scores):
    ev = whole(corpus, BdmCredit(scores))
    report = quiet_report(ev, per_doc=False)
    assert report["bdm"]["micro"]["strict"]["p"] > report["micro"]["strict"]["p"]
    assert report["bdm"]["micro"]["lenient"]["r"] > report["micro"]["lenient"]["r"]
    assert set(report["bdm"]["per_type"]) == set(ev.labels)


@pytest.mark.parametrize("scheduler", [None, "local:2"])
def test_shards_merge_into_the_figures_of_the_whole(corpus, scores, scheduler):
    """(b) score_shards over 4 shards (in-process, and on Dask with the rule sent as its path) gives the BDM
    figures of the whole corpus, float for float."""
    rule = BdmCredit.from_file(corpus / "tree.bdm")
    merged = score_shards(corpus / "key", corpus / "resp", scheduler=scheduler, credit=rule)
    assert isinstance(merged.credit, BdmCreditSum)
    expected = quiet_report(whole(corpus, rule), per_doc=False)["bdm"]
    assert quiet_report(merged, per_doc=False)["bdm"] == expected
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UnknownConceptWarning)
        from_file_scores = rule.scores
        assert bdm_prf(whole(corpus).alignment, from_file_scores) == expected


def test_shards_in_any_grouping_merge_exactly(corpus, scores):
    """Merging is associative: one by one, all at once, or in two halves."""
    rule = BdmCredit(scores)
    parts = [evaluate(str(corpus / "key" / f"{s:02d}.spacy"), str(corpus / "resp" / f"{s:02d}.spacy"), credit=rule)
             for s in range(N_SHARDS)]
    one_by_one = parts[0]
    for p in parts[1:]:
        one_by_one = one_by_one.merge(p)
    halves = parts[0].merge(parts[1]).merge(parts[2].merge(parts[3]))
    at_once = type(parts[0]).concat(parts)
    assert one_by_one.credit == halves.credit == at_once.credit
    assert quiet_report(at_once, per_doc=False)["bdm"] == quiet_report(whole(corpus, rule), per_doc=False)["bdm"]


def test_qa_report_carries_the_figures_of_the_whole(corpus, scores, tmp_path):
    """(c) run_qa's JSON report has the whole corpus's BDM figures (and the Markdown and HTML reports are
    written as without credit)."""
    paths = {f: tmp_path / f"qa.{f}" for f in ("json", "md", "html")}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UnknownConceptWarning)
        report, _, written = run_qa(corpus / "key", corpus / "resp", paths=paths, measures=["strict"],
                                    sharded=True, credit=BdmCredit.from_file(corpus / "tree.bdm"))
    assert set(written) == {"json", "md", "html"}
    expected = quiet_report(whole(corpus, BdmCredit.from_file(corpus / "tree.bdm")), per_doc=False)["bdm"]
    assert json.loads(paths["json"].read_text(encoding="utf8"))["bdm"] == json.loads(json.dumps(expected))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UnknownConceptWarning)
        plain, _, _ = run_qa(corpus / "key", corpus / "resp", paths={"json": tmp_path / "plain.json"},
                             measures=["strict"], sharded=True)
    assert "bdm" not in plain
    assert report["micro"] == plain["micro"]


def test_a_rule_from_a_file_pickles_as_its_path(corpus, scores):
    rule = BdmCredit.from_file(corpus / "tree.bdm")
    data = pickle.dumps(rule)
    assert str(corpus / "tree.bdm").encode() in data and len(data) < 500
    back = pickle.loads(data)
    al = whole(corpus).alignment
    assert back.settings == rule.settings
    assert back.accumulate(al) == rule.accumulate(al)
    in_memory = pickle.loads(pickle.dumps(BdmCredit(scores, feature="kb_id")))
    assert in_memory.settings == {"scores": "tree", "feature": "kb_id"}


def test_sums_made_with_other_scores_or_another_feature_do_not_merge(corpus, scores, tmp_path):
    al_key, al_resp = str(corpus / "key" / "00.spacy"), str(corpus / "resp" / "00.spacy")
    a = evaluate(al_key, al_resp, credit=BdmCredit(scores))
    other = compute_bdm(Taxonomy.from_edges(TREE[:-1], name="smaller"))
    with pytest.raises(ConfigError, match="bdm scores is 'tree' in evaluation 0 but 'smaller'"):
        a.merge(evaluate(al_key, al_resp, credit=BdmCredit(other)))
    with pytest.raises(ConfigError, match="bdm feature"):
        a.merge(evaluate(al_key, al_resp, credit=BdmCredit(scores, feature="kb_id")))
    with pytest.raises(ConfigError, match="credit is 'bdm' in evaluation 0 but None"):
        a.merge(evaluate(al_key, al_resp))


def test_bad_rules_and_files_are_refused(tmp_path):
    with pytest.raises(ConfigError, match="get"):
        BdmCredit(object())
    with pytest.raises(ConfigError, match="accumulate"):
        evaluate([spacy.blank("en")("a")], [spacy.blank("en")("a")], credit="tree.bdm")
    with pytest.raises(InputError, match="no such file"):
        BdmCredit.from_file(tmp_path / "missing.bdm")
    (tmp_path / "latin1.tsv").write_bytes("Caf\xe9\tThing\n".encode("latin-1"))
    with pytest.raises(InputError, match="UTF-8"):
        BdmCredit.from_file(tmp_path / "latin1.tsv")
