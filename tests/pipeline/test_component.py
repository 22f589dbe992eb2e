"""The ``anno_eval`` pipeline component: per-document results, the corpus-end QA
stage (nlp.pipe with one or two processes, finalize, report), and spaCy's
scoring doors (nlp.evaluate, ``spacy evaluate``)."""

from __future__ import annotations

import gc
import itertools
import json
import pickle
import random
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
import spacy
from spacy.tokens import Doc, DocBin
from spacy.training import Example

from spacy_anno_eval.errors import EmptyKeyWarning
from spacy_anno_eval.pipeline.component import AnnoEval, PipeHook
from spacy_anno_eval.spans.counts import Evaluation, doc_results
from spacy_anno_eval.spans.engine import evaluate

PATTERNS = [
    {"label": "PER", "pattern": "Ada"},
    {"label": "PER", "pattern": "Bob"},
    {"label": "LOC", "pattern": "Paris"},
    {"label": "ORG", "pattern": [{"LOWER": "acme"}]},
    {"label": "GPE", "pattern": [{"TEXT": "New"}, {"TEXT": "York"}]},
]

# (text, gold label or None); with PATTERNS: correct, spurious, missing, incorrect,
# partial, partial, missing, partial, overlap
FRAGMENTS = [("Ada", "PER"), ("Bob", None), ("Carl", "PER"), ("Paris", "GPE"), ("Acme Corp", "ORG"),
             ("New York City", "GPE"), ("London", "LOC"), ("Ada Lovelace", "PER"), ("Acme Corp", "LOC")]
FILLERS = ["met", "visited", "and", "in", "near", "the", "with"]


def make_nlp(**config: Any) -> spacy.language.Language:
    nlp = spacy.blank("en")
    nlp.add_pipe("entity_ruler").add_patterns(PATTERNS)
    nlp.add_pipe("anno_eval", config=config)
    return nlp


def make_doc(nlp: spacy.language.Language, parts: list[tuple[str, str | None]]) -> Doc:
    """A Doc whose gold (``doc.spans["gold"]``) labels the fragments of ``parts``."""
    text, gold = "", []
    for fragment, label in parts:
        if text:
            text += " "
        if label is not None:
            gold.append((len(text), len(text) + len(fragment), label))
        text += fragment
    doc = nlp.make_doc(text + " .")
    doc.spans["gold"] = [doc.char_span(s, e, label=lab) for s, e, lab in gold]
    return doc


def make_docs(nlp: spacy.language.Language, n: int = 200, seed: int = 7) -> list[Doc]:
    rng = random.Random(seed)
    docs = []
    for i in range(n):
        parts: list[tuple[str, str | None]] = []
        for _ in range(rng.randint(0, 6)):
            parts.append(rng.choice(FRAGMENTS))
            parts.append((rng.choice(FILLERS), None))
        doc = make_doc(nlp, parts or [("Nothing", None), ("here", None)])
        if i % 3 == 0:
            doc.user_data["doc_id"] = f"doc-{i:03d}"
        docs.append(doc)
    return docs


def engine_evaluation(docs: list[Doc], **kwargs: Any) -> Evaluation:
    return evaluate(docs, docs, key_set="spans:gold", response_set="ents", **kwargs)


def dumps(data: Any) -> str:
    return json.dumps(data, sort_keys=True)


# ---------------------------------------------------------------------------
# registration


def test_add_pipe_in_a_fresh_interpreter_without_importing_the_package() -> None:
    code = textwrap.dedent(
        """
        import json, sys
        import spacy
        from spacy.tokens import Span
        heavy = ("scipy", "sklearn", "rich", "pandas")
        out = {"before": "spacy_anno_eval" in sys.modules}
        nlp = spacy.blank("en")
        loaded_before = {m for m in heavy if m in sys.modules}
        nlp.add_pipe("entity_ruler").add_patterns([{"label": "PER", "pattern": "Ada"}])
        qa = nlp.add_pipe("anno_eval")
        out["factory_module"] = spacy.registry.factories.get("anno_eval").__module__
        out["class"] = type(qa).__module__ + "." + type(qa).__name__
        out["heavy"] = [m for m in heavy if m in sys.modules and m not in loaded_before]
        doc = nlp.make_doc("Ada met Ada .")
        doc.spans["gold"] = [Span(doc, 0, 1, "PER")]
        list(nlp.pipe([doc]))
        out["f"] = qa.last_report["micro"]["strict"]["f"]
        print(json.dumps(out))
        """
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-3000:]
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    assert out["before"] is False
    assert out["factory_module"] == "spacy_anno_eval.pipeline.component"
    assert out["class"] == "spacy_anno_eval.pipeline.component.AnnoEval"
    assert out["heavy"] == [], f"adding the component imported {out['heavy']}"
    assert out["f"] == pytest.approx(2 / 3)  # one correct, one spurious


# ---------------------------------------------------------------------------
# per document


def test_per_doc_result_holds_counts_spans_and_pairs() -> None:
    nlp = make_nlp()
    doc = make_doc(nlp, [("Ada", "PER"), ("met", None), ("Bob", None), ("in", None), ("Paris", "GPE"),
                         ("and", None), ("Acme Corp", "ORG"), ("with", None), ("Carl", "PER")])
    # text: "Ada met Bob in Paris and Acme Corp with Carl ."
    doc = nlp(doc)
    result = doc._.anno_eval["anno_eval"]
    assert result["labels"] == ["GPE", "LOC", "ORG", "PER"]
    assert result["key"] == [[0, 3, 3], [15, 20, 0], [25, 34, 2], [40, 44, 3]]
    assert result["response"] == [[0, 3, 3], [8, 11, 3], [15, 20, 1], [25, 29, 2]]
    # correct Ada, spurious Bob, incorrect Paris, partial Acme, missing Carl (statuses: STATUS_NAMES)
    assert result["pairs"] == [[0, 0, 0], [-1, 1, 5], [1, 2, 2], [2, 3, 1], [3, -1, 4]]
    #                  correct partial incorrect overlap missing spurious incorrect_r overlap_r
    assert result["counts"] == [[0, 0, 1, 0, 0, 0, 0, 0],   # GPE: the key side of the incorrect pair
                                [0, 0, 0, 0, 0, 0, 1, 0],   # LOC: its response side
                                [0, 1, 0, 0, 0, 0, 0, 0],   # ORG: partial
                                [1, 0, 0, 0, 1, 1, 0, 0]]   # PER: correct, missing, spurious
    # plain Python data: survives Doc.to_bytes (msgpack of user_data) unchanged
    again = Doc(nlp.vocab).from_bytes(doc.to_bytes())
    assert again._.anno_eval == doc._.anno_eval
    assert json.loads(json.dumps(result)) == result


def test_doc_results_round_trip_through_from_doc_results() -> None:
    nlp = make_nlp()
    docs = list(nlp.pipe(make_docs(nlp, 60)))
    ev = engine_evaluation(docs)
    results = doc_results(ev.alignment, len(docs))
    assert results == [d._.anno_eval["anno_eval"] for d in docs]
    rebuilt = Evaluation.from_doc_results(results, ev.doc_ids, ev.settings, ev.texts)
    assert rebuilt.report() == ev.report()
    assert rebuilt.diff_rows() == ev.diff_rows()
    assert rebuilt.by_doc.tolist() == ev.by_doc.tolist()
    with pytest.raises(ValueError, match="document ids"):
        Evaluation.from_doc_results(results, ev.doc_ids[:-1])


# ---------------------------------------------------------------------------
# corpus end: nlp.pipe


@pytest.mark.parametrize("n_process", [1, 2])
def test_pipe_report_equals_engine(n_process: int) -> None:
    nlp = make_nlp()
    qa = nlp.get_pipe("anno_eval")
    assert isinstance(nlp.pipe, PipeHook)
    docs = list(nlp.pipe(make_docs(nlp), batch_size=16, n_process=n_process))
    assert len(docs) == 200 and qa.n_reports == 1
    ev = engine_evaluation(docs)
    assert qa.last_report == ev.report()
    assert qa.last_evaluation.diff_rows() == ev.diff_rows()
    counts = qa.last_report["counts"]
    assert min(counts.values()) > 0, counts  # the corpus has every kind of pair
    assert qa.last_report["per_doc"][0]["id"] == "doc-000"


def test_pipe_with_two_processes_gives_the_single_process_report(tmp_path: Path) -> None:
    reports, files = [], []
    for n_process in (1, 2):
        out = tmp_path / f"n{n_process}"
        nlp = make_nlp(output_dir=str(out), report_formats=["json", "md"])
        qa = nlp.get_pipe("anno_eval")
        docs = list(nlp.pipe(make_docs(nlp), batch_size=16, n_process=n_process))
        assert len(docs) == 200
        assert all(qa.result(d) is not None for d in docs)  # per-doc results came back from the workers
        assert sorted(qa.last_paths) == ["json", "md"]
        reports.append(qa.last_report)
        files.append({p.name: p.read_bytes() for p in sorted(out.iterdir())})
    assert dumps(reports[0]) == dumps(reports[1])
    assert sorted(files[0]) == ["report.json", "report.md"]
    assert files[0] == files[1]  # byte-identical reports
    assert json.loads(files[0]["report.json"]) == reports[0]


def test_pipe_with_spawned_workers(tmp_path: Path) -> None:
    """With the 'spawn' start method spaCy pickles the components and the nlp object."""
    script = tmp_path / "spawn_run.py"
    script.write_text(textwrap.dedent(
        f"""
        import json, multiprocessing, sys
        sys.path.insert(0, {str(Path(__file__).resolve().parents[2])!r})
        from tests.pipeline.test_component import make_docs, make_nlp

        if __name__ == "__main__":
            multiprocessing.set_start_method("spawn")
            out = []
            for n in (1, 2):
                nlp = make_nlp()
                list(nlp.pipe(make_docs(nlp, 40), batch_size=8, n_process=n))
                out.append(nlp.get_pipe("anno_eval").last_report)
            print(json.dumps({{"same": out[0] == out[1], "n_docs": out[1]["n_docs"]}}))
        """))
    proc = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert json.loads(proc.stdout.strip().splitlines()[-1]) == {"same": True, "n_docs": 40}


def test_reports_written_once_per_exhausted_pipe(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import spacy_anno_eval.report as report_module

    calls = []
    real = report_module.write_reports

    def counting(*args: Any, **kwargs: Any) -> Any:
        calls.append(kwargs)
        return real(*args, **kwargs)

    monkeypatch.setattr(report_module, "write_reports", counting)
    nlp = make_nlp(output_dir=str(tmp_path / "qa"), measures=["strict"], report_formats=["json", "html"])
    qa = nlp.get_pipe("anno_eval")
    docs = make_docs(nlp, 30)
    for _doc in nlp.pipe(docs[:20]):
        assert not calls  # nothing before the stream ends
    assert len(calls) == 1 and calls[0]["measures"] == ("strict",) and calls[0]["formats"] == ("json", "html")
    assert sorted(p.name for p in (tmp_path / "qa").iterdir()) == ["report.html", "report.json"]
    assert json.loads((tmp_path / "qa" / "report.json").read_text())["n_docs"] == 20
    list(nlp.pipe(docs[20:]))
    assert len(calls) == 2 and qa.n_reports == 2
    assert json.loads((tmp_path / "qa" / "report.json").read_text())["n_docs"] == 10
    assert qa.last_paths["json"] == tmp_path / "qa" / "report.json"


def test_abandoned_generator_writes_nothing(tmp_path: Path) -> None:
    nlp = make_nlp(output_dir=str(tmp_path / "qa"))
    qa = nlp.get_pipe("anno_eval")
    stream = nlp.pipe(make_docs(nlp, 50), batch_size=8)
    taken = list(itertools.islice(stream, 49))
    assert len(taken) == 49
    del stream
    gc.collect()
    assert qa.last_report is None and qa.n_reports == 0
    assert not (tmp_path / "qa").exists()
    # an empty stream has no corpus: nothing runs either
    assert list(nlp.pipe([])) == []
    assert qa.n_reports == 0


def test_as_tuples_and_disable() -> None:
    nlp = make_nlp()
    qa = nlp.get_pipe("anno_eval")
    docs = make_docs(nlp, 20)
    out = list(nlp.pipe([(d, i) for i, d in enumerate(docs)], as_tuples=True))
    assert [c for _, c in out] == list(range(20))
    assert qa.n_reports == 1 and qa.last_report["n_docs"] == 20  # once, not once per nesting level
    list(nlp.pipe(make_docs(nlp, 5), disable=["anno_eval"]))
    assert qa.n_reports == 1
    with nlp.select_pipes(disable=["anno_eval"]):
        list(nlp.pipe(make_docs(nlp, 5)))
    assert qa.n_reports == 1


def test_two_components_keep_their_own_results() -> None:
    nlp = make_nlp()
    nlp.add_pipe("anno_eval", name="qa_per", config={"types": ["PER"]})
    docs = list(nlp.pipe(make_docs(nlp, 40)))
    assert set(docs[1]._.anno_eval) == {"anno_eval", "qa_per"}
    both, per = nlp.get_pipe("anno_eval").last_report, nlp.get_pipe("qa_per").last_report
    assert per == engine_evaluation(docs, types=["PER"]).report()
    assert set(per["per_type"]) == {"PER"} and len(both["per_type"]) > 1


# ---------------------------------------------------------------------------
# corpus end: finalize() and report(docs)


def test_finalize_after_per_doc_calls(tmp_path: Path) -> None:
    nlp = make_nlp(output_dir=str(tmp_path))
    qa = nlp.get_pipe("anno_eval")
    docs = [nlp(d) for d in make_docs(nlp, 30)]
    assert qa.n_reports == 0  # nlp(doc) never ends a corpus by itself
    report = qa.finalize()
    assert report == engine_evaluation(docs).report() == qa.last_report
    assert (tmp_path / "report.json").exists()
    assert qa.finalize() is None and qa.n_reports == 1  # collected docs were consumed
    nlp(docs[0])
    qa.reset()
    assert qa.finalize() is None


def test_report_from_docs() -> None:
    nlp = make_nlp()
    qa = nlp.get_pipe("anno_eval")
    docs = list(nlp.pipe(make_docs(nlp, 40)))
    subset = docs[10:25]
    report = qa.report(subset)
    assert report["n_docs"] == 15
    assert report == engine_evaluation(subset).report()
    with pytest.raises(ValueError, match="no result from the component"):
        qa.report([nlp.make_doc("fresh text")])


# ---------------------------------------------------------------------------
# scoring: nlp.evaluate and spacy evaluate


def examples_for(nlp: spacy.language.Language, docs: list[Doc]) -> list[Example]:
    """Dev examples: the reference holds the gold in doc.ents (and doc.spans["gold"])."""
    out = []
    for doc in docs:
        ref = doc.copy()
        ref.ents = list(doc.spans["gold"])
        out.append(Example(nlp.make_doc(doc.text), ref))
    return out


#: nlp.evaluate runs the pipeline on Docs made from the text alone, so each anno_eval component sees an empty key set
#: and warns once, although evaluate scores from the Examples' references and runs no QA stage (a false alarm
#: noted in issue 27: drop these pytest.warns when the component stops warning inside nlp.evaluate)
NO_GOLD_ON_DOCS = r"anno_eval: the key set 'spans:gold' is empty in every document so far"


def test_nlp_evaluate_returns_the_scorer_keys(tmp_path: Path) -> None:
    nlp = make_nlp()
    docs = make_docs(nlp, 50)
    with pytest.warns(EmptyKeyWarning, match=NO_GOLD_ON_DOCS):
        scores = nlp.evaluate(examples_for(nlp, docs), per_component=True)["anno_eval"]
    expected = engine_evaluation(list(nlp.pipe(d.copy() for d in docs))).report()
    assert scores["ents_p"] == pytest.approx(expected["micro"]["strict"]["p"])
    assert scores["ents_r"] == pytest.approx(expected["micro"]["strict"]["r"])
    assert scores["ents_f_lenient"] == pytest.approx(expected["micro"]["lenient"]["f"])
    assert scores["ents_f_average"] == pytest.approx(expected["micro"]["average"]["f"])
    assert set(scores["ents_per_type"]) == set(expected["per_type"])
    assert scores["ents_muc"]["COR"] == expected["muc"]["COR"]
    flat = [k for k, v in scores.items() if k.startswith("ents_") and not isinstance(v, dict)]
    assert len(flat) == 12 and all(isinstance(scores[k], float) for k in flat)
    # the scorer is configured like any spaCy scorer: its prefix names the keys
    nlp.add_pipe("anno_eval", name="qa_gold",
                 config={"scorer": {"@scorers": "spacy_anno_eval.spans_scorer.v1", "prefix": "qa_gold"}})
    with pytest.warns(EmptyKeyWarning, match=NO_GOLD_ON_DOCS):  # the new component's own warning
        by_comp = nlp.evaluate(examples_for(nlp, docs), per_component=True)
    assert by_comp["qa_gold"]["qa_gold_f"] == pytest.approx(scores["ents_f"])


def test_evaluate_runs_no_qa_stage(tmp_path: Path) -> None:
    nlp = make_nlp(output_dir=str(tmp_path / "qa"))
    qa = nlp.get_pipe("anno_eval")
    with pytest.warns(EmptyKeyWarning, match=NO_GOLD_ON_DOCS):
        nlp.evaluate(examples_for(nlp, make_docs(nlp, 20)))
    assert qa.n_reports == 0 and not (tmp_path / "qa").exists()


def test_score_with_nothing_to_score_gives_floats() -> None:
    nlp = make_nlp()
    scores = nlp.get_pipe("anno_eval").score([])
    assert scores["ents_f"] == 0.0 and scores["ents_per_type"] == {}
    assert all(v is not None for v in scores.values())


def test_spacy_evaluate_cli(tmp_path: Path) -> None:
    nlp = make_nlp()
    nlp.to_disk(tmp_path / "model")
    docs = make_docs(nlp, 40)
    db = DocBin(store_user_data=True)
    for eg in examples_for(nlp, docs):
        db.add(eg.reference)
    db.to_disk(tmp_path / "dev.spacy")
    metrics = tmp_path / "metrics.json"
    proc = subprocess.run([sys.executable, "-m", "spacy", "evaluate", str(tmp_path / "model"),
                           str(tmp_path / "dev.spacy"), "--output", str(metrics)],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:] + proc.stdout[-3000:]
    scores = json.loads(metrics.read_text())
    with pytest.warns(EmptyKeyWarning, match=NO_GOLD_ON_DOCS):
        expected = nlp.evaluate(examples_for(nlp, docs))
    for key in ("ents_p", "ents_r", "ents_f", "ents_f_lenient", "ents_f_average"):
        assert scores[key] == pytest.approx(expected[key]), key
    assert 0.0 < scores["ents_f"] < scores["ents_f_lenient"] < 1.0
    assert scores["ents_per_type"].keys() == expected["ents_per_type"].keys()


# ---------------------------------------------------------------------------
# serialization, validation


def test_to_disk_and_load_round_trip(tmp_path: Path) -> None:
    nlp = make_nlp(types=["PER", "GPE"], beta=2.0, measures=["lenient"], output_dir=str(tmp_path / "qa"))
    nlp.to_disk(tmp_path / "model")
    loaded = spacy.load(tmp_path / "model")
    qa = loaded.get_pipe("anno_eval")
    assert isinstance(qa, AnnoEval) and isinstance(loaded.pipe, PipeHook) and loaded.pipe.nlp is loaded
    assert (qa.types, qa.beta, qa.measures, qa.output_dir) == (["PER", "GPE"], 2.0, ["lenient"],
                                                              str(tmp_path / "qa"))
    assert loaded.config["components"]["anno_eval"] == nlp.config["components"]["anno_eval"]
    docs = list(loaded.pipe(make_docs(loaded, 30)))
    assert qa.last_report == engine_evaluation(docs, types=["PER", "GPE"], beta=2.0).report()
    assert (tmp_path / "qa" / "report.json").exists()


def test_pickle_component_and_pipeline() -> None:
    nlp = make_nlp()
    docs = list(nlp.pipe(make_docs(nlp, 10)))
    qa = nlp.get_pipe("anno_eval")
    qa2 = pickle.loads(pickle.dumps(qa))
    assert qa2.last_report == qa.last_report and qa2.key == "spans:gold"
    nlp2 = pickle.loads(pickle.dumps(nlp))
    assert isinstance(nlp2.pipe, PipeHook) and nlp2.pipe.nlp is nlp2
    list(nlp2.pipe([nlp2.make_doc(d.text) for d in docs]))
    assert nlp2.get_pipe("anno_eval").n_reports == 2 and qa.n_reports == 1


@pytest.mark.parametrize(("config", "message"), [
    ({"key": "entities"}, "key: unknown annotation selector"),
    ({"response": "spans:"}, "response: unknown annotation selector"),
    ({"scorer": {"@scorers": "spacy_anno_eval.spans_scorer.v1", "beta": -1}}, "beta must be"),
    ({"measures": ["strict", "exact"]}, "measures has 'exact'"),
    ({"measures": []}, "measures must not be empty"),
    ({"beta": -0.5}, "beta must be"),
    ({"report_formats": ["pdf"]}, "report_formats has 'pdf'"),
    ({"pairing": "greedy"}, "pairing must be one of"),
    ({"min_overlap": 150}, "min_overlap"),
    ({"zero_division": 2}, "zero_division"),
])
def test_bad_settings_fail_when_the_component_is_made(config: dict[str, Any], message: str) -> None:
    nlp = spacy.blank("en")
    with pytest.raises(ValueError, match=message):
        nlp.add_pipe("anno_eval", config=config)
    assert "anno_eval" not in nlp.pipe_names
