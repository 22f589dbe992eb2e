"""The progress bar: documents per second and the ETA on a terminal, nothing with --quiet or off a terminal."""

from __future__ import annotations

from spacy_anno_eval import progress
from spacy_anno_eval.progress import progress_bar


def test_silent_off_a_terminal_and_when_disabled(capsys, monkeypatch):
    with progress_bar(3, "shards", "shard") as bar:  # pytest's stderr is not a terminal
        bar.update(1, docs=10)
        bar.set_total(4)
    monkeypatch.setattr(progress, "_is_terminal", lambda: True)
    with progress_bar(3, "shards", "shard", enabled=False) as bar:  # --quiet
        bar.update(1, docs=10)
    assert capsys.readouterr().err == ""


def test_on_a_terminal_it_shows_documents_per_second_and_the_eta(capsys, monkeypatch):
    monkeypatch.setattr(progress, "_is_terminal", lambda: True)
    with progress_bar(4, "shards", "shard") as bar:
        bar.update(1, docs=1000)
        bar.update(1, docs=1000)
        bar.set_total(5)
        bar.update(1, docs=500)
    err = capsys.readouterr().err
    assert "shards" in err and "/5" in err and "docs=2," in err and "docs_per_s=" in err  # redrawn at intervals
    assert "<" in err  # tqdm's "elapsed<remaining" ETA


def test_cli_quiet_prints_no_bar(tmp_path, monkeypatch):
    import json

    from typer.testing import CliRunner

    from spacy_anno_eval.cli.app import app

    monkeypatch.setattr(progress, "_is_terminal", lambda: True)
    lines = [json.dumps({"text": "Ann met Bob", "spans": [{"start": 0, "end": 3, "label": "PER"}]})] * 5
    (tmp_path / "k.jsonl").write_text("\n".join(lines) + "\n", encoding="utf8")
    quiet = CliRunner().invoke(app, ["score", str(tmp_path / "k.jsonl"), str(tmp_path / "k.jsonl"), "--chunk-docs",
                                     "2", "--quiet", "--json", str(tmp_path / "r.json")])
    assert quiet.exit_code == 0 and "docs_per_s" not in quiet.output
    loud = CliRunner().invoke(app, ["score", str(tmp_path / "k.jsonl"), str(tmp_path / "k.jsonl"), "--chunk-docs",
                                    "2"])
    assert loud.exit_code == 0, loud.output
