"""``anno-eval trees A B --resolve`` and ``anno-eval trees A [B] --doubt`` (issue 31): Brants & Skut's models at the
door. The JSON sections, the perplexities in the diff, the suggestions and doubts files, the --gold figures, the
errors (exit 2), 80 columns in a pipe; on small NEGRA treebanks built here and on the shared samples."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import warnings
from pathlib import Path

import pytest
from typer.testing import CliRunner

from spacy_anno_eval.cli.app import app
from spacy_anno_eval.errors import UndefinedFigureWarning

runner = CliRunner()
NARROW = {"COLUMNS": "80", "LINES": "50", "TERM": "dumb"}


# -- treebanks built here --------------------------------------------------------------------------------------------


def _sentence(rng: random.Random, sid: int) -> list[tuple[str, str, str, int]]:
    """One NEGRA sentence as (word, tag, function, parent) rows and node rows ('#id', category, function,
    parent): S over NP/SB, VVFIN/HD and NP/OA in three orders; NP = ART (ADJA) NN, all NK; a PP/MO now and
    then."""
    rows: list[tuple[str, str, str, int]] = []
    nodes: list[tuple[str, str, str, int]] = [("#500", "S", "--", 0)]
    order = rng.choice(["SVO", "SVO", "OVS", "SV"])
    for x in order:
        if x == "V":
            rows.append((rng.choice(["sieht", "kennt", "mag"]), "VVFIN", "HD", 500))
            continue
        nid = 500 + len(nodes)
        nodes.append((f"#{nid}", "NP", "SB" if x == "S" else "OA", 500))
        rows.append((rng.choice(["der", "den", "ein"]), "ART", "NK", nid))
        if rng.random() < 0.4:
            rows.append(("alte", "ADJA", "NK", nid))
        rows.append((rng.choice(["Hund", "Mann", "Frau"]), "NN", "NK", nid))
    if rng.random() < 0.3:
        nid = 500 + len(nodes)
        nodes.append((f"#{nid}", "PP", "MO", 500))
        rows += [("im", "APPRART", "AC", nid), ("Park", "NN", "NK", nid)]
    rows.append((".", "$.", "--", 0))
    return [*rows, *nodes]


def _export(sentences: list[list[tuple[str, str, str, int]]]) -> str:
    lines = ["#FORMAT 3"]
    for i, rows in enumerate(sentences, 1):
        lines.append(f"#BOS {i}")
        lines += [f"{w}\t{t}\t--\t{f}\t{p}" for w, t, f, p in rows]
        lines.append(f"#EOS {i}")
    return "\n".join(lines) + "\n"


def _swap(rows: list[tuple[str, str, str, int]]) -> list[tuple[str, str, str, int]]:
    """The functions of two siblings exchanged (an annotator's slip): the verb's HD and the subject's SB."""
    swap = {"SB": "HD", "HD": "SB"}
    return [(w, t, swap.get(f, f) if p == 500 and (w.startswith("#") or t == "VVFIN") else f, p)
            for w, t, f, p in rows]


@pytest.fixture(scope="module")
def bank(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A: 60 clean sentences; B: the same with the verb's and the subject's functions swapped in sentences 1,
    6, 11, ...; gold = A; train: 80 other clean sentences."""
    folder = tmp_path_factory.mktemp("trees_models")
    rng = random.Random(7)
    clean = [_sentence(rng, i) for i in range(60)]
    wrong = [_swap(s) if i % 5 == 0 else s for i, s in enumerate(clean)]
    files = {"a": folder / "a.export", "b": folder / "b.export", "gold": folder / "gold.export",
             "train": folder / "train.export", "out": folder / "out"}
    files["a"].write_text(_export(clean), encoding="utf8")
    files["b"].write_text(_export(wrong), encoding="utf8")
    files["gold"].write_text(_export(clean), encoding="utf8")
    rng = random.Random(8)
    files["train"].write_text(_export([_sentence(rng, i) for i in range(80)]), encoding="utf8")
    files["out"].mkdir()
    return files


def run(args: list, code: int = 0, env: dict | None = None):
    result = runner.invoke(app, [str(a) for a in args], env=env or NARROW)
    assert result.exit_code == code, (result.stdout, result.stderr)
    return result


def load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf8"))


def jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf8").splitlines() if line.strip()]


# -- --resolve ---------------------------------------------------------------------------------------------------


def test_resolve_writes_the_json_section_the_diff_and_the_suggestions(bank: dict[str, Path]) -> None:
    out = bank["out"]
    result = run(["trees", bank["a"], bank["b"], "--resolve", "--json", out / "r.json", "--diff", out / "r.diff",
                  "--suggestions", out / "s.jsonl"])
    data = load(out / "r.json")
    assert "brants_skut" in data and "all" in data  # the comparison is still there, unchanged
    res = data["resolve"]
    assert res["compared"] == 60 and res["differing"] == 12 and res["folds"] == 10
    assert res["a"] == str(bank["a"]) and res["b"] == str(bank["b"]) and res["train"] is None
    assert res["gold"] is False and res["accuracy"] is None
    rows = {r["sent_id"]: r for r in res["sentences"]}
    assert set(rows) == {str(i) for i in range(1, 61, 5)}
    assert all(r["pp_a"] > 0 and r["pp_b"] > 0 and r["suggestion"] in ("A", "B") for r in rows.values())
    # the swapped annotation is the less probable one: the model learnt SB before OA from the other folds
    assert sum(r["suggestion"] == "A" for r in rows.values()) > 6  # more than half: better than a coin
    # the diff: under each differing sentence both perplexities and the suggestion
    diff = (out / "r.diff").read_text(encoding="utf8")
    blocks = diff.split("\n# sentence ")[1:]
    assert len(blocks) == 12
    for block in blocks:
        sid = block.split("sent_id = ")[1].split()[0]
        r = rows[sid]
        assert f"# perplexity PP(A) {r['pp_a']:.4g} (key)  PP(B) {r['pp_b']:.4g} (response)  suggests " \
               f"{r['suggestion']}" in block
    # the suggestions: one row per differing sentence with a suggestion, the JSON's figures
    sugg = jsonl(out / "s.jsonl")
    assert [s["sent_id"] for s in sugg] == [r["sent_id"] for r in res["sentences"] if r["suggestion"]]
    assert all(set(s) == {"sent_id", "choose", "pp_a", "pp_b"} for s in sugg)
    assert all(s["choose"] == rows[s["sent_id"]]["suggestion"] and s["pp_a"] == rows[s["sent_id"]]["pp_a"]
               for s in sugg)
    assert "12 of 60 sentences differ" in result.stdout and "cross-validated (10 folds" in result.stdout


def test_resolve_with_gold_prints_table5_and_the_curve(bank: dict[str, Path]) -> None:
    out = bank["out"]
    result = run(["trees", bank["a"], bank["b"], "--resolve", "--gold", bank["gold"], "--json", out / "g.json",
                  "--diff", out / "g.diff"])
    res = load(out / "g.json")["resolve"]
    assert res["gold"] is True and res["decidable"] == 12 and res["gold_file"] == str(bank["gold"])
    assert 0.5 < res["accuracy"] <= 1.0
    text = result.stdout
    assert f"Table 5: the lower perplexity is the correct annotation in {100 * res['accuracy']:.2f} %" in text
    assert [c["min_difference"] for c in res["curve"]] == [0.0, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0]
    for c in res["curve"]:  # each row of the curve, as printed
        assert (f"{c['min_difference']:>16g}{c['suggested']:>11}{c['correct']:>9}{100 * c['precision']:>13.2f}"
                f"{100 * c['recall']:>10.2f}") in text
    assert "; gold: A" in (out / "g.diff").read_text(encoding="utf8")


def test_resolve_with_a_training_treebank(bank: dict[str, Path]) -> None:
    out = bank["out"]
    result = run(["trees", bank["a"], bank["b"], "--resolve", "--train", bank["train"], "--json", out / "t.json"])
    res = load(out / "t.json")["resolve"]
    assert res["folds"] == 0 and res["settings"]["model"] == "given" and res["train"] == str(bank["train"])
    assert f"models trained on {bank['train']}" in result.stdout.replace("\n    ", " ")


def test_the_python_api_gives_the_commands_figures(bank: dict[str, Path]) -> None:
    from spacy_anno_eval.workflows import doubt_files, resolve_files

    out = bank["out"]
    run(["trees", bank["a"], bank["b"], "--resolve", "--gold", bank["gold"], "--json", out / "api.json", "-q"])
    with warnings.catch_warnings():  # the command shows the same warning as "anno-eval: warning: ..."
        warnings.simplefilter("ignore", UndefinedFigureWarning)
        res = resolve_files(bank["a"], bank["b"], gold=bank["gold"]).to_dict()
    cli = load(out / "api.json")["resolve"]
    assert res["sentences"] == cli["sentences"] and res["accuracy"] == cli["accuracy"]
    run(["trees", bank["b"], "--doubt", "--json", out / "apid.json", "-q"])
    assert doubt_files(bank["b"]).to_dict() == load(out / "apid.json")["doubt"]


# -- --doubt -----------------------------------------------------------------------------------------------------


def test_doubt_one_treebank_lists_the_doubts_per_sentence(bank: dict[str, Path]) -> None:
    out = bank["out"]
    result = run(["trees", bank["b"], "--doubt", "--gold", bank["gold"], "--json", out / "d.json", "--doubts",
                  out / "d.jsonl"])
    data = load(out / "d.json")
    assert list(data) == ["doubt"]  # one treebank: nothing is compared
    d = data["doubt"]
    assert d["sentences"] == 60 and d["model"] == "cross-validated (10 folds)" and d["source"] == str(bank["b"])
    assert d["settings"] == {"folds": 10, "seed": 0, "theta1": 5.0, "theta2": 100.0}
    assert set(d["levels"]) == {"function", "category"}
    assert sum(sum(v.values()) for v in d["levels"].values()) == d["decisions"]
    assert d["listed"] == len(d["doubts"]) > 0
    assert jsonl(out / "d.jsonl") == d["doubts"]
    for row in d["doubts"]:
        assert row["level"] == "reliable" and row["given"] != row["best"]
        assert row["quotient"] is None or row["quotient"] > 100
    # the swapped functions are what the model doubts, and gold says they are wrong
    assert any(r["given"] == "SB" and r["best"] == "HD" and r["form"] in ("sieht", "kennt", "mag")
               for r in d["doubts"])
    g = d["gold"]
    assert g["listed"] == d["listed"] and 0 < g["wrong"] <= g["listed"] and g["precision"] == g["wrong"] / g["listed"]
    text = result.stdout
    assert f"{d['listed']} label(s) that a reliable decision contradicts:" in text
    for row in d["doubts"]:
        assert f"sentence {row['sent_id']}\n" in text
        where = f"word {row['word']}" if row["word"] is not None else f"node #{row['node']} {row['yield']}"
        assert f"{where} \"{row['form']}\": {row['kind']} {row['given']}, model {row['best']}" in \
            text.replace("\n        ", " ")
    assert f"gold: {g['wrong']} of {g['listed']} doubted labels really wrong, precision " \
           f"{100 * g['precision']:.2f} %" in text.replace("\n    ", " ")


def test_doubt_of_response_uses_the_models_of_key(bank: dict[str, Path]) -> None:
    out = bank["out"]
    result = run(["trees", bank["a"], bank["b"], "--doubt", "--theta1", "2", "--theta2", "50", "--json",
                  out / "ab.json"])
    data = load(out / "ab.json")
    assert "brants_skut" in data and "resolve" not in data  # the comparison, and the doubts of B
    d = data["doubt"]
    assert d["source"] == str(bank["b"]) and d["model"] == f"trained on {bank['a']}"
    assert d["settings"]["theta1"] == 2.0 and d["settings"]["theta2"] == 50.0
    assert "unreliable < 2 <= almost reliable <= 50 < reliable" in result.stdout
    # the model of the clean A reliably contradicts the swapped functions of B
    assert {r["sent_id"] for r in d["doubts"]} >= {"1", "6"}


def test_resolve_and_doubt_together(bank: dict[str, Path]) -> None:
    out = bank["out"]
    run(["trees", bank["a"], bank["b"], "--resolve", "--doubt", "--json", out / "both.json", "-q"])
    data = load(out / "both.json")
    assert {"resolve", "doubt", "brants_skut"} <= set(data)


def test_without_the_options_the_command_is_unchanged(bank: dict[str, Path]) -> None:
    out = bank["out"]
    result = run(["trees", bank["a"], bank["b"], "--json", out / "plain.json", "--diff", out / "plain.diff"])
    data = load(out / "plain.json")
    assert "resolve" not in data and "doubt" not in data
    assert "perplexity" not in (out / "plain.diff").read_text(encoding="utf8")
    assert "Brants & Skut (1998):" in result.stdout and "perplexity" not in result.stdout


# -- errors --------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("args, message", [
    (["{a}", "{b}", "--doubt", "--theta1", "200", "--theta2", "100"], "theta1 = 200 is greater than theta2 = 100"),
    (["{a}", "{b}", "--doubt", "--theta1", "nan"], "theta1"),
    (["{a}", "{b}", "--doubt", "--theta1", "0.5"], "at least 1"),
    (["{a}", "{b}", "--resolve", "--folds", "1"], "folds >= 2"),
    (["{a}", "--doubt", "--folds", "0"], "folds >= 2"),
    (["{a}", "{b}", "--gold", "{gold}"], "add --resolve"),
    (["{a}", "{b}", "--train", "{train}"], "add --resolve"),
    (["{a}", "{b}", "--folds", "5"], "add --resolve"),
    (["{a}", "{b}", "--doubt", "--suggestions", "{out}/x.jsonl"], "add --resolve"),
    (["{a}", "{b}", "--resolve", "--doubts", "{out}/x.jsonl"], "add --doubt"),
    (["{a}", "{b}", "--resolve", "--theta2", "50"], "add --doubt"),
    (["{a}", "{b}", "--resolve", "--train", "{train}", "--folds", "5"], "--train is given"),
    (["{a}", "{b}", "--doubt", "--folds", "5"], "trains the models on KEY"),
    (["{a}", "--doubt", "--diff", "{out}/x.diff"], "--diff compares two treebanks"),
    (["{a}", "--doubt", "--rsl", "{out}/x.rsl", "--disconly"], "--rsl, --disconly compare two treebanks"),
    (["{a}", "{b}", "--resolve", "--suggestions", "{a}"], "input"),
    (["{a}", "{b}", "--resolve", "--train", "{conllu}"], "the models judge one kind of tree"),
    (["{a}", "{b}", "--resolve", "--gold", "{conllu}"], "the models judge one kind of tree"),
])
def test_bad_settings_exit_2(bank: dict[str, Path], tmp_path: Path, args: list[str], message: str) -> None:
    conllu = tmp_path / "t.conllu"
    conllu.write_text("1\ta\t_\tX\t_\t_\t0\troot\t_\t_\n\n", encoding="utf8")
    names = {k: str(v) for k, v in bank.items()} | {"conllu": str(conllu)}
    result = run(["trees", *(a.format(**names) for a in args)], code=2)
    assert message in result.stderr.replace("\n", " "), result.stderr
    assert result.stderr.startswith("anno-eval: error:") and "Traceback" not in result.stderr


@pytest.mark.parametrize("extra", [[], ["--resolve"], ["--json", "x.json"]])
def test_a_missing_response_is_a_usage_error_without_doubt(bank: dict[str, Path], extra: list[str]) -> None:
    result = run(["trees", bank["a"], *extra], code=2)
    assert "Missing argument 'RESPONSE'" in result.stderr


def test_too_few_sentences_to_cross_validate_exit_2(tmp_path: Path) -> None:
    one = tmp_path / "one.export"
    one.write_text(_export([_sentence(random.Random(1), 0)]), encoding="utf8")
    result = run(["trees", one, "--doubt"], code=2)
    assert "at least 2 sentences" in result.stderr


# -- 80 columns, in a pipe -----------------------------------------------------------------------------------------


def _piped(args: list) -> str:
    done = subprocess.run([sys.executable, "-m", "spacy_anno_eval", "trees", *map(str, args)], capture_output=True,
                          text=True, timeout=300, env={**os.environ, **NARROW})
    assert done.returncode == 0, done.stderr
    text = done.stdout
    assert all(len(line) <= 80 for line in text.splitlines()), [line for line in text.splitlines() if len(line) > 80]
    assert "…" not in text and "..." not in text and "None" not in text
    return text


def test_the_output_fits_80_columns_in_a_pipe(bank: dict[str, Path]) -> None:
    text = _piped([bank["a"], bank["b"], "--resolve", "--doubt", "--gold", bank["gold"]])
    assert "Table 5:" in text and "label(s) that a reliable decision contradicts" in text
    text = _piped([bank["b"], "--doubt", "--gold", bank["gold"]])
    assert "gold:" in text


def test_the_help_names_the_new_options_in_80_columns() -> None:
    result = run(["trees", "--help"])
    text = " ".join(result.stdout.split())
    assert all(len(line) <= 80 for line in result.stdout.splitlines())
    assert "Usage: anno-eval trees [OPTIONS] KEY [RESPONSE]" in text
    for option in ("--resolve", "--doubt", "--train", "--folds", "--gold", "--suggestions", "--doubts", "--theta1",
                   "--theta2"):
        assert option in text
    assert "RESPONSE's judged by the models trained on KEY" in text


# -- the shared samples --------------------------------------------------------------------------------------------


def test_resolve_ud_ewt_releases_with_gold(tmp_path: Path) -> None:
    """r2.16 (A, gold) against r2.10 (B): every differing sentence decidable; the figures the terminal shows are
    the JSON's; each differing sentence of the dependency diff shows both perplexities."""
    from tests.conftest import shared_file

    a = shared_file("ud_ewt", "en_ewt-ud-test.first300.r2.16.conllu")
    b = shared_file("ud_ewt", "en_ewt-ud-test.first300.r2.10.conllu")
    result = run(["trees", a, b, "--resolve", "--gold", a, "--json", tmp_path / "u.json", "--diff",
                  tmp_path / "u.diff", "--suggestions", tmp_path / "u.jsonl"])
    res = load(tmp_path / "u.json")["resolve"]
    assert res["compared"] == 300 and res["differing"] == res["decidable"] == 180
    assert f"{100 * res['accuracy']:.2f} %" in result.stdout
    diff = (tmp_path / "u.diff").read_text(encoding="utf8")
    assert diff.count("# perplexity PP(A)") == 180
    assert len(jsonl(tmp_path / "u.jsonl")) == res["suggested"]


def test_doubt_ud_ewt_dependencies(tmp_path: Path) -> None:
    from tests.conftest import shared_file

    a = shared_file("ud_ewt", "en_ewt-ud-test.first300.r2.16.conllu")
    text = _piped([a, "--doubt", "--json", tmp_path / "ud.json"])
    d = load(tmp_path / "ud.json")["doubt"]
    assert d["sentences"] == 300 and d["decisions"] == 5223 and set(d["levels"]) == {"function"}
    assert f"{d['listed']} label(s)" in text and all(r["word"] is not None for r in d["doubts"])


def test_resolve_on_the_shared_negra_sample(tmp_path: Path) -> None:
    """disco-dop's three Alpino sentences (gold) against their edited copy: too few to learn from, but the
    command runs (cross-validation with as many folds as sentences) and every edited sentence is listed."""
    from tests.conftest import shared_file

    gold = shared_file("treebank", "disc_alpino3", "gold.export")
    test = shared_file("treebank", "disc_alpino3", "test.export")
    run(["trees", gold, test, "--resolve", "--gold", gold, "--doubt", "--json", tmp_path / "n.json", "--diff",
         tmp_path / "n.diff"])
    data = load(tmp_path / "n.json")
    assert data["resolve"]["folds"] == 3 and data["resolve"]["differing"] == data["brants_skut"][
        "n_differing_sentences"]
    assert (tmp_path / "n.diff").read_text(encoding="utf8").count("# perplexity") == data["resolve"]["differing"]
    assert data["doubt"]["model"] == f"trained on {gold}"


def test_adjudicated_treebank_takes_each_suggested_version(bank: dict[str, Path]) -> None:
    """--adjudicated writes the suggested treebank: KEY is the corrupted B, RESPONSE the clean A; where they
    differ the models (trained on other clean sentences) prefer A's sentences, copied as written, so the
    result is the clean file; the JSON says which sentences came from RESPONSE."""
    out = bank["out"]
    adjudicated = out / "adjudicated.export"
    run(["trees", bank["b"], bank["a"], "--resolve", "--train", bank["train"], "--adjudicated", adjudicated,
         "--json", out / "adj.json", "-q"])
    data = load(out / "adj.json")["resolve"]
    assert data["adjudicated"]["ties"] == [] and len(data["adjudicated"]["from_b"]) == 12
    assert adjudicated.read_text(encoding="utf8") == bank["a"].read_text(encoding="utf8")


def test_adjudicated_needs_resolve_and_a_block_format(bank: dict[str, Path], tmp_path: Path) -> None:
    result = run(["trees", bank["a"], bank["b"], "--doubt", "--adjudicated", tmp_path / "x.export"], code=2)
    assert "--adjudicated writes what --resolve suggests" in result.stderr
    alone = run(["trees", bank["a"], bank["b"], "--adjudicated", tmp_path / "x.export"], code=2)
    assert "--adjudicated is for Brants & Skut's models" in alone.stderr
    a, b = tmp_path / "a.mrg", tmp_path / "b.mrg"
    a.write_text("(S (NP-SBJ (DT the) (NN cat)) (VP (VBD sat)))\n(S (NP-SBJ (DT a) (NN dog)) (VP (VBD ran)))\n",
                 encoding="utf8")
    b.write_text("(S (NP-OBJ (DT the) (NN cat)) (VP (VBD sat)))\n(S (NP-SBJ (DT a) (NN dog)) (VP (VBD ran)))\n",
                 encoding="utf8")
    refused = run(["trees", a, b, "--resolve", "--folds", "2", "--adjudicated", tmp_path / "x.mrg"], code=2)
    assert "written for CoNLL-U and NEGRA export files" in refused.stderr and not (tmp_path / "x.mrg").exists()


def test_adjudicated_conllu_copies_the_chosen_blocks(tmp_path: Path) -> None:
    """UD-EWT r2.16 against r2.10: every sentence of the written treebank is the block of the version the
    suggestion names, as written (comments included), in A's order."""
    from tests.conftest import shared_file

    a = shared_file("ud_ewt", "en_ewt-ud-test.first300.r2.16.conllu")
    b = shared_file("ud_ewt", "en_ewt-ud-test.first300.r2.10.conllu")
    out = tmp_path / "adj.conllu"
    run(["trees", a, b, "--resolve", "--adjudicated", out, "--suggestions", tmp_path / "s.jsonl", "-q"])
    blocks = [x for x in out.read_text(encoding="utf8").split("\n\n") if x.strip()]
    a_blocks = [x for x in a.read_text(encoding="utf8").split("\n\n") if x.strip()]
    b_blocks = [x for x in b.read_text(encoding="utf8").split("\n\n") if x.strip()]
    lines = (tmp_path / "s.jsonl").read_text(encoding="utf8").splitlines()
    chosen = {row["sent_id"]: row["choose"] for row in map(json.loads, lines)}
    assert len(blocks) == len(a_blocks) == 300 and any(v == "B" for v in chosen.values())
    for ours, mine, theirs in zip(blocks, a_blocks, b_blocks, strict=True):
        sid = next(line.split("=", 1)[1].strip() for line in mine.splitlines() if line.startswith("# sent_id"))
        assert ours.strip("\n") == (theirs if chosen.get(sid) == "B" else mine).strip("\n"), sid


def test_adjudicate_takes_the_suggestions_as_tree_choices(bank: dict[str, Path]) -> None:
    """The --suggestions rows are choices 'anno-eval adjudicate' takes for two treebanks: the same treebank as
    --adjudicated writes; an edited row naming an unknown sentence is refused naming its line."""
    out = bank["out"]
    run(["trees", bank["b"], bank["a"], "--resolve", "--train", bank["train"], "--suggestions", out / "s.jsonl",
         "--adjudicated", out / "direct.export", "-q"])
    result = run(["adjudicate", bank["b"], bank["a"], "--choices", out / "s.jsonl", "--out", out / "via.export"])
    assert "adjudicated treebank written" in result.stdout
    assert (out / "via.export").read_text(encoding="utf8") == (out / "direct.export").read_text(encoding="utf8")
    bad = out / "bad.jsonl"
    bad.write_text('{"sent_id": "1", "choose": "B"}\n{"sent_id": "999", "choose": "A"}\n', encoding="utf8")
    refused = run(["adjudicate", bank["b"], bank["a"], "--choices", bad, "--out", out / "x.export"], code=2)
    assert "bad.jsonl:2: sentence '999' is not in" in refused.stderr and not (out / "x.export").exists()
