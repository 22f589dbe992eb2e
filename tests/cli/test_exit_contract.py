"""The exit-code contract of DESIGN.md (Contracts), case by case from issue 17: 0 done, 1 only for a regression
found by ``benchmark``, 2 bad input or setting with one line naming what and where, 3 an internal error with one
line; never a traceback, never a crash read as a regression, under Dask too."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import spacy
from spacy.tokens import DocBin, Span
from typer.testing import CliRunner

from spacy_anno_eval.cli.app import app
from spacy_anno_eval.workflows.benchmark.run import run_benchmark
from spacy_anno_eval.workflows.benchmark.settings import BenchmarkSettings
from tests.workflows.benchmark.test_run import make_bench, ruler

ROOT = Path(__file__).resolve().parents[2]
DEMO_KEY = str(ROOT / "assets" / "demo" / "key.jsonl")
DEMO_RESPONSE = str(ROOT / "assets" / "demo" / "response.jsonl")
runner = CliRunner()


def lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.strip()]


def one_error(result: object, *names: str) -> str:
    """The one line on stderr of an exit 2, naming each of ``names``."""
    assert result.exit_code == 2, result.output
    (line,) = lines(result.stderr)
    assert line.startswith("anno-eval: error: ") and "Traceback" not in result.output
    for name in names:
        assert name in line, line
    return line


@pytest.fixture(scope="module")
def bench(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A benchmark folder with two stored baselines: v1 (perfect) and v2 (no LOC: a regression from v1)."""
    folder = make_bench(tmp_path_factory.mktemp("contract") / "bench")
    fast = BenchmarkSettings(n_samples=100)
    run_benchmark("store", folder, nlp=ruler(), name="v1", settings=fast)
    run_benchmark("store", folder, nlp=ruler(drop=("LOC",)), name="v2", settings=fast)
    return folder


def compare(bench: Path, *extra: str, old: str = "v1", new: str = "v2") -> list[str]:
    return ["benchmark", "default", str(bench), "--name", old, "--against", new, "--samples", "100", *extra]


# -- crashes that mislead CI ---------------------------------------------------------------------------------------


def test_a_crash_inside_benchmark_exits_3_not_1(bench: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import spacy_anno_eval.workflows.benchmark.run as run

    def crash(*args: object, **kwargs: object) -> None:
        raise RecursionError("maximum recursion depth exceeded")

    monkeypatch.setattr(run, "compare_evaluations", crash)
    result = runner.invoke(app, compare(bench, "--quiet"))
    assert result.exit_code == 3
    assert lines(result.stderr) == ["anno-eval: internal error: RecursionError: maximum recursion depth exceeded; "
                                    "rerun with --debug"]


def test_a_sys_exit_inside_a_command_is_an_internal_error_not_its_code(bench: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """A library's ``sys.exit(1)`` inside benchmark would read as a regression: it is exit 3."""
    import spacy_anno_eval.workflows.benchmark.run as run

    def bail(*args: object, **kwargs: object) -> None:
        sys.exit(1)

    monkeypatch.setattr(run, "compare_evaluations", bail)
    result = runner.invoke(app, compare(bench, "--quiet"))
    assert result.exit_code == 3
    assert lines(result.stderr) == ["anno-eval: internal error: SystemExit: 1; rerun with --debug"]


@pytest.mark.parametrize("old, new, code", [("v1", "v2", 1), ("v2", "v1", 0)])
def test_a_broken_pipe_keeps_the_benchmark_verdict(bench: Path, monkeypatch: pytest.MonkeyPatch, old: str, new: str,
                                                   code: int) -> None:
    """``benchmark ... | head``: rich exits 1 on the closed pipe; the exit code is still the verdict's."""
    import spacy_anno_eval.report.benchmark as rendering

    def closed(*args: object, **kwargs: object) -> None:
        try:
            raise BrokenPipeError(32, "Broken pipe")
        except BrokenPipeError:
            raise SystemExit(1) from None  # what rich's Console.on_broken_pipe does

    monkeypatch.setattr(rendering, "print_benchmark", closed)
    result = runner.invoke(app, compare(bench, old=old, new=new))
    assert result.exit_code == code and lines(result.stderr) == []


def test_a_broken_pipe_elsewhere_is_0(monkeypatch: pytest.MonkeyPatch) -> None:
    import spacy_anno_eval.report.terminal as terminal

    def closed(*args: object, **kwargs: object) -> None:
        try:
            raise BrokenPipeError(32, "Broken pipe")
        except BrokenPipeError:
            raise SystemExit(1) from None

    monkeypatch.setattr(terminal, "print_report", closed)
    demo_response = DEMO_KEY.replace("key.jsonl", "response.jsonl")  # the same file twice would warn
    result = runner.invoke(app, ["score", DEMO_KEY, demo_response])
    assert result.exit_code == 0 and lines(result.stderr) == []


def test_quiet_still_prints_the_verdict_of_a_regression(bench: Path) -> None:
    result = runner.invoke(app, compare(bench, "--quiet"))
    assert result.exit_code == 1 and result.stdout == ""
    (line,) = lines(result.stderr)
    assert line.startswith("anno-eval: regression: 'v2' against 'v1'") and str(bench) in line
    assert "overall strict F 100.00 -> " in line


def test_quiet_prints_nothing_without_a_regression(bench: Path) -> None:
    result = runner.invoke(app, compare(bench, "--quiet", old="v2", new="v1"))
    assert result.exit_code == 0 and result.output == ""


# -- Dask: one line, the right code -------------------------------------------------------------------------------


def shards(folder: Path, corrupt: str | None = None) -> Path:
    """Three DocBin shards of three documents each; ``corrupt``: the name of one to overwrite with junk."""
    nlp = spacy.blank("en")
    folder.mkdir()
    for s in range(3):
        docs = []
        for i in range(3):
            doc = nlp("Ada Lovelace met Eve there")
            doc.user_data["doc_id"] = f"s{s}d{i}"
            doc.ents = [Span(doc, 0, 2, "PER")]
            docs.append(doc)
        DocBin(docs=docs, store_user_data=True).to_disk(folder / f"{s:02}.spacy")
    if corrupt is not None:
        (folder / corrupt).write_bytes(b"not a DocBin at all")
    return folder


def run_cli(args: list[str], patch: str = "") -> subprocess.CompletedProcess[str]:
    """``anno-eval args`` in a process of its own (distributed logs to the real stderr, which CliRunner does not
    capture); ``patch``: Python run first (a fault to inject)."""
    code = f"import sys\n{patch}\nfrom spacy_anno_eval.cli.app import main\nmain(sys.argv[1:])\n"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, cwd=ROOT, env=env,
                          timeout=120)


def test_dask_a_corrupt_shard_exits_2_naming_it_once(tmp_path: Path) -> None:
    pytest.importorskip("distributed")
    key = shards(tmp_path / "key")
    response = shards(tmp_path / "response", corrupt="01.spacy")
    done = run_cli(["score", str(key), str(response), "--shards", "--dask", "local:2", "-q"])
    assert done.returncode == 2, done.stderr
    (line,) = lines(done.stderr)
    assert line.startswith("anno-eval: error: ") and str(response / "01.spacy") in line


def test_dask_a_task_whose_workers_keep_dying_exits_3_with_one_line(tmp_path: Path) -> None:
    pytest.importorskip("distributed")
    key = shards(tmp_path / "key")
    patch = ("import spacy_anno_eval.workflows.stream as stream\nfrom tests.stream_faults import die_always\n"
             "stream._score_pair = die_always")
    done = run_cli(["score", str(key), str(key), "--shards", "--dask", "local:1", "-q"], patch)
    assert done.returncode == 3, done.stderr
    (line,) = lines(done.stderr)
    assert line.startswith("anno-eval: internal error: WorkerDiedError: shard ") and "00.spacy" in line
    assert line.endswith("; rerun with --debug")


# -- unclear messages ---------------------------------------------------------------------------------------------


def test_rich_markup_in_user_text_prints_as_it_is(tmp_path: Path) -> None:
    corpus = tmp_path / "markup.jsonl"
    record = {"text": "Ada met Eve", "meta": {"id": "[b]d1"},
              "spans": [{"start": 0, "end": 3, "label": "[/bold]"}, {"start": 8, "end": 11, "label": "[red]X:x:"}]}
    corpus.write_text(json.dumps(record) + "\n", encoding="utf8")
    result = runner.invoke(app, ["score", str(corpus), str(corpus), "--json", str(tmp_path / "out.json")])
    assert result.exit_code == 0, result.output
    assert "[/bold]" in result.stdout and "[red]X:x:" in result.stdout
    assert set(json.loads((tmp_path / "out.json").read_text(encoding="utf8"))["per_type"]) == {"[/bold]",
                                                                                                "[red]X:x:"}


def test_rich_markup_in_the_verbose_benchmark_listing() -> None:
    from io import StringIO

    from rich.console import Console

    from spacy_anno_eval.report.terminal import print_below_threshold

    out = StringIO()
    low = {"[/bold]": {"figures": {"p": 0.5}, "annotations": [
        {"doc_id": 7, "status": "missing", "response": None,
         "key": {"label": "[/i]", "start": 0, "end": 3, "text": "[red]:smile:"}}]}}
    print_below_threshold(low, 0.9, console=Console(file=out, width=200))
    assert out.getvalue().splitlines() == ["[/bold] below 0.9: p 50.00",
                                           "  7  missing   key [/i] [0, 3) '[red]:smile:'"]


def test_a_bad_number_is_one_line_not_a_box() -> None:
    result = runner.invoke(app, ["score", DEMO_KEY, DEMO_KEY, "--beta", "abc"])
    line = one_error(result, "--beta", "'abc'")
    assert not any(c in result.output for c in "╭│╰")
    assert line.startswith("anno-eval: error: --beta")


CONLLU_TWO_ROOTS = "1\tA\ta\tX\tX\t_\t0\troot\t_\t_\n2\tB\tb\tX\tX\t_\t0\troot\t_\t_\n\n"
CONLLU_ONE_WORD = "1\tA\ta\tX\tX\t_\t0\troot\t_\t_\n\n"


def test_trees_an_error_is_its_one_line_without_the_warnings_before_it(tmp_path: Path) -> None:
    key, response = tmp_path / "key.conllu", tmp_path / "response.conllu"
    key.write_text(CONLLU_TWO_ROOTS, encoding="utf8")
    response.write_text(CONLLU_ONE_WORD, encoding="utf8")
    one_error(runner.invoke(app, ["trees", str(key), str(response)]), "sentence 1", str(key))


def test_warnings_are_one_line_each_without_internal_paths(tmp_path: Path) -> None:
    key = tmp_path / "key.conllu"
    key.write_text(CONLLU_TWO_ROOTS, encoding="utf8")
    result = runner.invoke(app, ["trees", str(key), str(key), "-q"])
    assert result.exit_code == 0, result.output
    warned = lines(result.stderr)
    assert warned and all(line.startswith("anno-eval: warning: ") for line in warned)
    assert any("2 root words" in line and str(key) in line for line in warned)
    assert "spacy_anno_eval" not in result.stderr and "warnings.warn" not in result.stderr


def test_adjudicate_refuses_a_target_no_selector_reads(tmp_path: Path) -> None:
    out = tmp_path / "gold.spacy"
    one_error(runner.invoke(app, ["adjudicate", DEMO_KEY, DEMO_RESPONSE, "--out", str(out), "--target", ""]),
              "--target ''")
    assert not out.exists()


def test_bdm_refuses_an_empty_taxonomy(tmp_path: Path) -> None:
    taxonomy, out = tmp_path / "empty-taxonomy.tsv", tmp_path / "bdm.txt"
    taxonomy.write_text("# no concept here\n\n", encoding="utf8")
    one_error(runner.invoke(app, ["bdm", str(taxonomy), "--out", str(out)]), str(taxonomy), "no concept")
    assert not out.exists()


def test_a_marked_folder_with_two_corpora_names_both(bench: Path, tmp_path: Path) -> None:
    import shutil

    folder = Path(shutil.copytree(bench, tmp_path / "bench"))
    nlp = spacy.blank("en")
    DocBin(docs=[nlp("x")]).to_disk(folder / "marked" / "gold.spacy")
    one_error(runner.invoke(app, ["benchmark", "marked-vs-stored", str(folder), "--name", "v1"]),
              str(folder / "marked"), "gold.spacy", "gold.jsonl")


def test_a_hidden_file_of_texts_in_clean_is_refused_naming_it(tmp_path: Path) -> None:
    folder = make_bench(tmp_path / "bench", clean="txt")
    first = sorted((folder / "clean").iterdir())[0]
    hidden = first.with_name("." + first.name)
    first.rename(hidden)
    (folder / "clean" / ".DS_Store").write_bytes(b"\0junk")  # a hidden file that holds no text is left out
    spacy.blank("en").to_disk(tmp_path / "model")
    result = runner.invoke(app, ["benchmark", "store", str(folder), "--name", "v1", "--model",
                                 str(tmp_path / "model")])
    one_error(result, str(hidden), "hidden")
