"""The README's three spaCy snippets work when pasted: each code block is run exactly as printed.

The Python blocks run in a fresh folder (the files they name are made there first); the training-config block
replaces the ``[components.ner.scorer]`` block of what ``spacy init config`` writes, as the README says, and the
resulting config must load and resolve to our scorer.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import warnings
from pathlib import Path

import pytest
import spacy
from spacy.tokens import DocBin, Span

README = Path(__file__).resolve().parents[1] / "README.md"


def block(heading: str, language: str) -> str:
    """The first ``language`` code block under ``### heading``."""
    section = README.read_text(encoding="utf8").split(f"### {heading}\n", 1)[1].split("\n### ", 1)[0]
    match = re.search(rf"```{language}\n(.*?)```", section, re.S)
    assert match, f"no {language} block under {heading}"
    return match.group(1)


@pytest.fixture
def in_tmp(tmp_path):
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        yield tmp_path
    finally:
        os.chdir(cwd)


def test_the_python_snippet_runs_as_printed(in_tmp):
    nlp = spacy.blank("en")
    gold, pred = nlp("Ada met Bob in Paris ."), nlp("Ada met Bob in Paris .")
    gold.ents = [Span(gold, 0, 1, "PER"), Span(gold, 2, 3, "ORG")]
    pred.ents = [Span(pred, 0, 1, "PER"), Span(pred, 2, 3, "PER")]
    DocBin(docs=[gold]).to_disk("gold.spacy")
    DocBin(docs=[pred]).to_disk("pred.spacy")
    Path("taxonomy.tsv").write_text("PER\tAgent\nORG\tAgent\nAgent\tThing\n", encoding="utf8")
    scope: dict = {}
    exec(compile(block("From Python", "python"), "README.md", "exec"), scope)  # noqa: S102 - our own README
    assert scope["report"]["micro"]["strict"]["f"] == 0.5
    assert scope["report"]["bdm"]["micro"]["lenient"]["f"] > 0.5  # ORG for PER is a near miss under Agent


def test_the_pipeline_snippet_runs_as_printed(in_tmp, capsys):
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no EmptyKeyWarning: the snippet's Docs carry their gold
        exec(compile(block("In a pipeline", "python"), "README.md", "exec"), {})  # noqa: S102
    printed = capsys.readouterr().out.splitlines()
    assert printed[-1] == "0.5"
    assert (in_tmp / "metrics" / "qa" / "report.json").exists() or any((in_tmp / "metrics" / "qa").iterdir())


def test_the_pipeline_snippet_without_gold_warns(in_tmp):
    from spacy_anno_eval.errors import EmptyKeyWarning

    code = block("In a pipeline", "python").replace('doc.spans["gold"] = ', "_ = ")
    with pytest.warns(EmptyKeyWarning, match="empty in every document so far"):
        exec(compile(code, "README.md", "exec"), {})  # noqa: S102


def test_the_config_snippet_replaces_the_init_config_block(tmp_path):
    base = tmp_path / "base.cfg"
    subprocess.run([sys.executable, "-m", "spacy", "init", "config", str(base), "--lang", "en", "--pipeline", "ner",
                    "--force"], check=True, capture_output=True)
    text = base.read_text(encoding="utf8")
    assert "[components.ner.scorer]" in text  # what the README says init config writes
    snippet = block("In a training config", "ini")
    edited = re.sub(r"\[components\.ner\.scorer\]\n(?:(?!\[).*\n)*", snippet + "\n", text, count=1)
    edited = edited.replace("[training.score_weights]\n", "[training.score_weights]\nents_f_lenient = 0.0\n", 1)
    config = spacy.util.load_config_from_str(edited)
    nlp = spacy.util.load_model_from_config(config, auto_fill=True)
    scorer = nlp.get_pipe("ner").scorer
    assert type(scorer).__module__.startswith("spacy_anno_eval"), scorer
    assert config["training"]["score_weights"]["ents_f_lenient"] == 0.0


def test_the_coref_config_snippet_resolves_to_our_scorer():
    """The second ini block under "In a training config" is the coref component's scorer block: it resolves
    through spaCy's registry (entry points; nothing imported by hand) to a scorer giving coref_f."""
    section = README.read_text(encoding="utf8").split("### In a training config\n", 1)[1].split("\n### ", 1)[0]
    snippets = re.findall(r"```ini\n(.*?)```", section, re.S)
    (coref,) = [s for s in snippets if "coref_scorer" in s]
    config = spacy.util.load_config_from_str("[components]\n\n[components.coref]\n\n" + coref)
    resolved = spacy.registry.resolve({"scorer": config["components"]["coref"]["scorer"]})["scorer"]
    assert resolved.__module__ == "spacy_anno_eval.pipeline.coref_scorer"
    assert "coref_f" in resolved([])
