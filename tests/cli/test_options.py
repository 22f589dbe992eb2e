"""The shape of the command line: every command registered, one help text per shared option, the choices the
families accept, help texts whose brackets survive."""

from __future__ import annotations

from collections import defaultdict
from typing import get_args

import pytest
import typer
from typer.testing import CliRunner

from spacy_anno_eval.cli import COMMANDS
from spacy_anno_eval.cli.app import app

SHARED = ("--quiet", "--dask", "--json", "--types", "--chunk-docs", "--format", "--key-set", "--response-set",
          "--features", "--pairing", "--measures", "--bdm", "--bdm-feature", "--shards", "--seed", "--bootstrap",
          "--md", "--report")
runner = CliRunner()
#: the commands that read coreference files, whose --format names the coreference readers' formats
COREF = {"coref", "coref-iaa"}
#: the commands whose --format also names the formats of a language model's output (RESPONSE only)
LLM = {"score": "llm-ner, llm-json, langextract", "relations": "llm-relations"}


def commands() -> dict[str, object]:
    return typer.main.get_command(app).commands


def test_every_command_module_registers_its_command_in_order() -> None:
    assert list(commands()) == list(COMMANDS)
    assert len(COMMANDS) == 17


def test_shared_options_have_one_help_text() -> None:
    helps: dict[str, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
    for name, command in commands().items():
        for param in command.params:
            for opt in param.opts:
                helps[opt][param.help].append(name)
    for opt in SHARED:
        texts = {h: names for h, names in helps[opt].items()
                 if not (opt == "--format" and (names == ["gamma"] or set(names) <= COREF | set(LLM)))}
        assert len(texts) == 1, f"{opt} has several help texts: {dict(helps[opt])}"
    # gamma's --format names gamma's own formats beside the corpora's (one more help text, on purpose)
    assert any("γ's own" in h for h, names in helps["--format"].items() if names == ["gamma"])
    # coref's and coref-iaa's --format name the coreference formats, which no span reader reads
    for command in COREF:
        assert any("conll2012" in h for h, names in helps["--format"].items() if command in names), command
    # score's and relations' --format: the shared text, then the language-model formats they read as RESPONSE
    shared = next(h for h, names in helps["--format"].items() if "qa" in names)
    for command, formats in LLM.items():
        (own,) = [h for h, names in helps["--format"].items() if command in names]
        assert own.startswith(shared[:-1] + "; RESPONSE only: " + formats), (command, own)
    # the options every streaming / reporting command shares are really shared
    assert set(next(iter(helps["--quiet"].values()))) == set(COMMANDS) - {"adjudicate"}
    assert set(next(iter(helps["--dask"].values()))) == {"score", "qa", "compare", "agreement", "iaa", "gamma",
                                                                 "benchmark"}
    assert set(next(iter(helps["--chunk-docs"].values()))) == {"score", "qa", "iaa"}
    assert set(next(iter(helps["--types"].values()))) == {"score", "qa", "compare", "iaa", "benchmark", "agreement"}


def test_short_flags_are_the_same_everywhere() -> None:
    for command in commands().values():
        for param in command.params:
            if "--quiet" in param.opts:
                assert sorted(param.opts) == ["--quiet", "-q"]


def choices(command: str, option: str) -> tuple[str, ...]:
    (param,) = [p for p in commands()[command].params if option in p.opts or p.name == option]
    annotation = param.type_descriptor.annotation
    args = get_args(annotation)
    if type(None) in args:  # Optional[Literal[...]]
        (annotation,) = [a for a in args if a is not type(None)]
    return get_args(annotation)


def test_the_choices_are_those_the_families_accept() -> None:
    from spacy_anno_eval.agreement.reliability import LEVELS
    from spacy_anno_eval.annalist.align import ALGORITHMS, MATCHES
    from spacy_anno_eval.annalist.align import LEVELS as ALIGN_LEVELS
    from spacy_anno_eval.annalist.relations import ALIGNMENTS, PARTIAL_ENTITIES
    from spacy_anno_eval.gamma.dissimilarity import CATEGORICAL
    from spacy_anno_eval.gamma.measure import EMPTY_PAIRS
    from spacy_anno_eval.gamma.readers import UNITS
    from spacy_anno_eval.gamma.sampling import SAMPLERS
    from spacy_anno_eval.io.schemes import ALIASES, ALLOWED
    from spacy_anno_eval.spans.align import PAIRINGS
    from spacy_anno_eval.workflows.benchmark import MODES

    assert choices("agreement", "--level") == LEVELS
    assert choices("align", "--level") == ALIGN_LEVELS
    assert choices("align", "--algorithm") == ALGORITHMS
    assert choices("align", "--match") == MATCHES
    assert choices("relations", "--alignment") == ALIGNMENTS
    assert choices("relations", "--partial-entities") == PARTIAL_ENTITIES
    assert choices("gamma", "--categorical") == CATEGORICAL
    assert choices("gamma", "--empty-pairs") == EMPTY_PAIRS
    assert choices("gamma", "--unit") == UNITS
    assert choices("gamma", "--sampler") == SAMPLERS
    for command in ("score", "qa", "benchmark"):
        assert choices(command, "--pairing") == PAIRINGS
    assert choices("benchmark", "mode") == MODES
    assert set(choices("score", "--scheme")) == set(ALLOWED) | set(ALIASES) - {"AUTO"}
    assert choices("iaa", "--measure") == ("fmeasure", "kappa")
    from spacy_anno_eval.coref.agreement import MATRIX_METRICS
    from spacy_anno_eval.coref.matching import MATCHES as COREF_MATCHES
    from spacy_anno_eval.coref.metrics import BLANC_RULES

    assert choices("coref-iaa", "--metric") == MATRIX_METRICS
    assert choices("coref-iaa", "--blanc") == BLANC_RULES
    for command in ("coref", "coref-iaa"):
        assert choices(command, "--match") == COREF_MATCHES


@pytest.mark.parametrize("command, shown", [
    ("bdm", "needs the [owl] extra"),
    ("benchmark", "Settings file ([benchmark] section)"),
    ("score", "Usage: anno-eval score [OPTIONS] KEY RESPONSE"),
    ("benchmark", "Usage: anno-eval benchmark [OPTIONS] MODE DIRECTORY"),
    ("agreement", "--level <nominal|ordinal|interval|ratio>"),
])
def test_help_texts_keep_their_brackets(command: str, shown: str) -> None:
    result = runner.invoke(app, [command, "--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0
    assert shown in result.output
