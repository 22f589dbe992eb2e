"""The registered scorer of a spacy-llm pipeline (issue 30, the spaCy door): the raw responses spacy-llm keeps
with ``save_io`` parsed, grounded in the reference text and scored, hallucinations counted; resolved through
``spacy.registry.scorers`` in a fresh interpreter; a Doc without ``llm_io`` says how to turn it on."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest
import spacy
from spacy.tokens import Span
from spacy.training import Example

from spacy_anno_eval.errors import ConfigError, InputError

SCORER = "spacy_anno_eval.llm_scorer.v1"
TEXT = "Ada Lovelace met Charles Babbage in London."


def example(nlp, response, component: str = "llm") -> Example:
    reference = nlp(TEXT)
    reference.ents = [Span(reference, 0, 2, "PER"), Span(reference, 3, 5, "PER"), Span(reference, 6, 7, "LOC")]
    predicted = nlp(TEXT)
    if response is not None:
        predicted.user_data["llm_io"] = {component: {"prompt": "...", "response": response}}
    return Example(predicted, reference)


@pytest.fixture
def nlp():
    return spacy.blank("en")


def test_the_saved_responses_are_grounded_and_hallucinations_count_as_spurious(nlp) -> None:
    scorer = spacy.registry.scorers.get(SCORER)(labels=["PER", "LOC"])
    scores = scorer([example(nlp, "per: Ada Lovelace, charles babbage, Alan Turing\nLOC: London")])
    assert (scores["ents_p"], scores["ents_r"]) == pytest.approx((3 / 4, 1.0))  # Alan Turing: spurious
    assert scores["ents_hallucinations"] == 1 and scores["ents_hallucination_rate"] == 0.25
    assert scores["ents_grounding"]["casefold"] == 1 and scores["ents_grounding"]["exact"] == 2
    assert scores["ents_per_type"]["PER"]["p"] == pytest.approx(2 / 3)
    assert isinstance(scores["ents_f_lenient"], float) and scores["ents_muc"]["SPU"] == 1


def test_a_sharded_response_and_a_strict_ladder(nlp) -> None:
    scorer = spacy.registry.scorers.get(SCORER)(ground="exact", snap="strict")
    scores = scorer([example(nlp, ["PER: Ada Lovelace", "PER: charles babbage\nLOC: London"])])
    assert scores["ents_hallucinations"] == 1 and scores["ents_r"] == pytest.approx(2 / 3)  # no casefold step


def test_a_doc_without_llm_io_says_how_to_turn_on_save_io(nlp) -> None:
    with pytest.raises(InputError, match="save_io = true"):
        spacy.registry.scorers.get(SCORER)()([example(nlp, None)])
    with pytest.raises(InputError, match="no response of the component 'ner_llm'"):
        spacy.registry.scorers.get(SCORER)(component="ner_llm")([example(nlp, "PER: Ada")])


@pytest.mark.parametrize("settings", [{"ground": "fuzzy,exact"}, {"snap": "loose"}, {"beta": -1},
                                      {"normalizer": "upper"}, {"component": ""}])
def test_bad_settings_are_refused_when_the_scorer_is_made(settings) -> None:
    with pytest.raises(ConfigError):
        spacy.registry.scorers.get(SCORER)(**settings)


def test_the_name_resolves_without_importing_the_package_first() -> None:
    code = textwrap.dedent(f"""
        import json, sys
        import spacy
        from spacy.tokens import Span
        from spacy.training import Example
        before = "spacy_anno_eval" in sys.modules
        scorer = spacy.registry.scorers.get("{SCORER}")(labels="PER,LOC")
        nlp = spacy.blank("en")
        ref, pred = nlp("{TEXT}"), nlp("{TEXT}")
        ref.ents = [Span(ref, 0, 2, "PER")]
        pred.user_data["llm_io"] = {{"llm": {{"response": "PER: Ada Lovelace, Grace Hopper"}}}}
        scores = scorer([Example(pred, ref)])
        print(json.dumps({{"before": before, "p": scores["ents_p"], "h": scores["ents_hallucinations"]}}))
    """)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout.strip().splitlines()[-1])
    assert out == {"before": False, "p": 0.5, "h": 1}
