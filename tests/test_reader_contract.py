"""The reader contract, by construction (DESIGN.md, Contracts): every registered reader, tried on its own samples.

The suite iterates :func:`spacy_anno_eval.io.registry.readers`, so a reader
registered tomorrow (built in or a plugin) is covered without editing this
file. Each reader writes its samples (:meth:`Reader.write_sample`) and is
tried case by case; the report lists readers x cases. A case the format
cannot hold (the sample is ``None``: no number field, no nesting, an id that
is a file name) is skipped as not applicable.

- ``sample_exists``: the reader has a sample, its registered suffixes (or
  sniff) claim it, and the plain sample reads (a span reader: one document,
  one annotation labelled as asked).
- ``declared_inputs``: every file the reader declares for the sample is
  refused as an output (``files.check_outputs`` and the kind's command: exit
  2, one line, every input's bytes unchanged), and reading the sample opens
  no file under its folder that the reader did not declare (an audit hook
  records every ``open``).
- ``depth_1000``: JSON, XML, brackets, Turtle or a chain of nodes nested
  1,000 deep is read or refused with an ``InputError``, never a
  ``RecursionError``.
- ``lone_surrogate_text`` / ``_label`` / ``_id``: refused at read time,
  naming the file: nothing downstream meets one.
- ``nan_number`` / ``infinite_number``: read (no NaN or Infinity anywhere in
  what was read; a span corpus converts to strict JSON) or refused.
- ``empty``: a file with no document is refused (exit 2), saying so.
- ``unknown_name``: a name that matches nothing (a set, a type, a feature, a
  label feature, a section, a column) is refused naming what exists.
"""

from __future__ import annotations

import dataclasses
import json
import math
import os
import sys
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from typer.testing import CliRunner

from spacy_anno_eval.errors import ConfigError, InputError
from spacy_anno_eval.io import registry
from spacy_anno_eval.io.registry import Reader, Sample

runner = CliRunner()

READERS = registry.readers()
CASES: dict[str, Sample] = {
    "sample_exists": Sample(),
    "declared_inputs": Sample(),
    "depth_1000": Sample(depth=1000),
    "lone_surrogate_text": Sample(text="bad \ud800 x"),
    "lone_surrogate_label": Sample(label="P\ud800ER"),
    "lone_surrogate_id": Sample(doc_id="d\ud800"),
    "nan_number": Sample(number=float("nan")),
    "infinite_number": Sample(number=float("inf")),
    "empty": Sample(empty=True),
    "unknown_name": Sample(),
}
#: what an empty input's refusal says (the wording of each kind today; the rule: empty is exit 2 everywhere)
EMPTY_WORDS = ("nothing to compare", "no documents", "no sentences", "no units", "empty")

# known holes, in code this suite may not change (others work there): each is reported, and fails loudly the day
# it is fixed (strict xfail) so that the mark is removed
KNOWN: dict[tuple[str, str], str] = {}


# -- reading -------------------------------------------------------------------------------------------------------


def options(reader: Reader) -> dict[str, Any]:
    """The options a reader's samples are read with (``label_feature="value"`` for INCEpTION's layers)."""
    return dict(reader.sample_options)


def read(reader: Reader, path: Path) -> Any:
    """Read ``path`` as the reader's kind is read: a span corpus as ``score`` reads it (``ents``, no features: a
    DocBin's fast path), then with every set it holds and every feature (what ``anno-eval sets`` reads; the
    result); anything else by the reader itself."""
    if reader.kind == "spans":
        from spacy_anno_eval.io import read_corpus
        from spacy_anno_eval.io.convert import read_sets

        try:
            read_corpus(path, reader.name, **options(reader))
        except ConfigError:  # a file of several sets has no 'ents'
            pass
        return read_sets(path, reader.name, features=["*"], **options(reader))[0]
    return reader(path)


def read_quietly(reader: Reader, path: Path) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return read(reader, path)


def sample(reader: Reader, case: Sample, folder: Path) -> Path:
    """The reader's sample of ``case`` in ``folder``; skip (not applicable) when the format cannot hold it."""
    path = reader.write_sample(case, folder)
    if path is None:
        pytest.skip(f"{reader.name}: the format cannot hold this case")
    return path


def snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.strip()]


def one_error(result: Any) -> str:
    """The one line on stderr of an exit 2."""
    assert result.exit_code == 2, (result.exit_code, result.output, result.stderr)
    found = lines(result.stderr)
    assert len(found) == 1, result.stderr
    assert found[0].startswith("anno-eval: error: ") and "Traceback" not in result.output, found
    return found[0]


def invoke(*args: Any) -> Any:
    from spacy_anno_eval.cli.app import app

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return runner.invoke(app, [str(a) for a in args])


# -- the commands of each kind ---------------------------------------------------------------------------------------


def plain_corpus(folder: Path) -> Path:
    """A small span corpus of the default sample (a key for the commands whose input under test is a response)."""
    folder.mkdir(parents=True, exist_ok=True)
    path = registry.reader("jsonl").write_sample(Sample(), folder)
    assert path is not None
    return path


def command(reader: Reader, path: Path, work: Path) -> list[Any]:
    """The command that reads ``path`` as the reader's kind (without an output)."""
    kind = reader.kind
    if kind == "spans":
        return ["sets", path, "--format", reader.name, *label_feature_option(reader)]
    if kind in ("trees", "dependencies"):
        return ["trees", path, path, "--tree-format", reader.name]
    if kind == "continuum":
        return ["gamma", path, "--samples", "10", "--jobs", "1"]
    if kind == "ratings":
        return ["agreement", path]
    if kind == "relations":
        return ["relations", path, path]
    if kind == "mentions":
        return ["align", plain_corpus(work / "key"), path, "--level", "order"]
    if kind == "noisy":
        return ["noisy", path, path]
    if kind == "taxonomy":
        return ["bdm", path, "--out", work / "bdm.txt"]
    raise AssertionError(f"no command reads the kind {kind!r}: add it here")


def with_output(reader: Reader, path: Path, work: Path, output: Path) -> list[Any]:
    """The kind's command writing ``output`` (a file, or a report folder where the command writes folders)."""
    kind = reader.kind
    if kind in ("relations", "mentions"):
        return [*command(reader, path, work), "--report", output]
    if kind == "taxonomy":
        return ["bdm", path, "--out", output]
    return [*command(reader, path, work), "--json", output]


def label_feature_option(reader: Reader) -> list[str]:
    value = options(reader).get("label_feature")
    return ["--label-feature", value] if value else []


# -- opened files ----------------------------------------------------------------------------------------------------

_OPENED: list[str] | None = None
_HOOKED = False


def _audit(event: str, args: tuple[Any, ...]) -> None:
    if event == "open" and _OPENED is not None and args and isinstance(args[0], str | bytes | os.PathLike):
        name = os.fsdecode(args[0])
        _OPENED.append(name)


def opened_while(call: Callable[[], Any]) -> list[str]:
    """The paths every ``open`` of the process named while ``call()`` ran (one audit hook for the session,
    switched on and off)."""
    global _OPENED, _HOOKED
    if not _HOOKED:
        sys.addaudithook(_audit)
        _HOOKED = True
    _OPENED = []
    try:
        call()
    finally:
        found, _OPENED = _OPENED, None
    return found


# -- walking what was read -------------------------------------------------------------------------------------------


def non_finite(value: Any, path: str = "", seen: set[int] | None = None, depth: int = 0) -> list[str]:
    """Where ``value`` holds a NaN or an infinity (floats, numpy arrays, containers, dataclasses, objects)."""
    seen = set() if seen is None else seen
    if depth > 60 or id(value) in seen:
        return []
    if isinstance(value, float | np.floating):
        return [] if math.isfinite(value) else [path or "."]
    if isinstance(value, str | bytes | int | bool | type(None)):
        return []
    seen.add(id(value))
    if isinstance(value, np.ndarray):
        if value.dtype.kind in "fc":
            return [] if bool(np.isfinite(value).all()) else [path]
        if value.dtype.kind == "O":
            return [p for k, v in enumerate(value.ravel().tolist()) for p in non_finite(v, f"{path}[{k}]", seen,
                                                                                         depth + 1)]
        return []
    if isinstance(value, dict):
        return [p for k, v in value.items() for p in non_finite(v, f"{path}.{k}", seen, depth + 1)]
    if isinstance(value, list | tuple | set | frozenset):
        return [p for k, v in enumerate(value) for p in non_finite(v, f"{path}[{k}]", seen, depth + 1)]
    from spacy_anno_eval.annotations.table import Corpus

    if isinstance(value, Corpus):
        return [p for name, table in value.sets.items()
                for p in non_finite(table.features or [], f"{path}.sets[{name}].features", seen, depth + 1)]
    to_dict = getattr(value, "to_dict", None)
    if callable(to_dict):
        return non_finite(to_dict(), f"{path}.to_dict()", seen, depth + 1)
    if dataclasses.is_dataclass(value):
        return [p for f in dataclasses.fields(value)
                for p in non_finite(getattr(value, f.name, None), f"{path}.{f.name}", seen, depth + 1)]
    attrs = getattr(value, "__dict__", None)
    if isinstance(attrs, dict):
        return non_finite(attrs, path, seen, depth + 1)
    return []


def strict_json(text: str) -> Any:
    def refuse(name: str) -> Any:
        raise ValueError(f"non-finite number {name} in JSON")

    return json.loads(text, parse_constant=refuse)


# -- the cases -------------------------------------------------------------------------------------------------------


def case_sample_exists(reader: Reader, tmp_path: Path) -> None:
    assert reader.sample is not None, f"the reader {reader.name!r} has no sample: give its Reader a sample="
    path = sample(reader, CASES["sample_exists"], tmp_path / "in")
    assert reader.claims(path), f"{reader.name}: its suffixes {reader.suffixes} and sniff do not claim {path.name}"
    result = read_quietly(reader, path)
    assert result is not None
    if reader.kind == "spans":
        from spacy_anno_eval.io import read_corpus

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            corpus = read_corpus(path, reader.name, selectors=("ents",), **options(reader))
        table = corpus.sets["ents"]
        assert len(corpus) == 1 and len(table) == 1, (len(corpus), len(table))
        assert table.labels[int(table.label[0])] == Sample().label
        assert list(corpus.texts) == [Sample().text]


def case_declared_inputs(reader: Reader, tmp_path: Path) -> None:
    from spacy_anno_eval.files import check_outputs

    folder = tmp_path / "in"
    path = sample(reader, CASES["declared_inputs"], folder)
    declared = reader.declared(path, **options(reader))
    assert Path(path) in declared, f"{reader.name} does not declare the path it reads: {declared}"
    before = snapshot(folder)
    for target in declared:
        with pytest.raises(ConfigError):
            check_outputs([path], [target])
        line = one_error(invoke(*with_output(reader, path, tmp_path / "work", target)))
        assert os.fspath(target) in line or target.name in line, line
        assert snapshot(folder) == before, f"{target} was written"
    # the reader opens nothing under the sample's folder that it did not declare
    real = [os.path.realpath(d) for d in declared]
    opened = opened_while(lambda: read_quietly(reader, path))
    root = os.path.realpath(folder)
    for name in opened:
        p = os.path.realpath(name)
        if p == root or not p.startswith(root + os.sep):
            continue
        assert any(p == d or p.startswith(d + os.sep) for d in real), \
            f"{reader.name} opened {name}, which it does not declare ({[str(d) for d in declared]})"


def refused_or_read(reader: Reader, path: Path) -> Any:
    """Read ``path``: the result, or the :class:`InputError` raised; any other exception fails the test."""
    try:
        return read_quietly(reader, path)
    except InputError as err:
        return err
    except Exception as err:  # noqa: BLE001 - the point of the test
        pytest.fail(f"{reader.name}: {type(err).__name__} instead of InputError: {err}"[:600])


def command_holds(reader: Reader, path: Path, work: Path) -> None:
    """The kind's command on ``path``, writing its output: exit 0, or 2 with one line (never a crash); every JSON
    file it wrote is strict JSON (no NaN, no Infinity)."""
    out = work / "out"
    out.mkdir(parents=True, exist_ok=True)
    if reader.kind in ("relations", "mentions"):
        args = [*command(reader, path, work), "--report", out / "report"]
    else:
        args = [*command(reader, path, work), "--json", out / "out.json"]
    result = invoke(*args)
    if result.exit_code != 0:
        one_error(result)
    for written in out.rglob("*.json"):
        strict_json(written.read_text(encoding="utf-8"))


def case_depth_1000(reader: Reader, tmp_path: Path) -> None:
    path = sample(reader, CASES["depth_1000"], tmp_path / "in")
    if not isinstance(refused_or_read(reader, path), InputError):  # read: what reads it downstream holds too
        command_holds(reader, path, tmp_path / "work")


def lone_surrogate(reader: Reader, tmp_path: Path, case: str) -> None:
    path = sample(reader, CASES[case], tmp_path / "in")
    outcome = refused_or_read(reader, path)
    assert isinstance(outcome, InputError), f"{reader.name} read a lone surrogate: {outcome!r:.300}"
    message = str(outcome)
    names = [os.fspath(d) for d in reader.declared(path, **options(reader))]
    assert any(n in message for n in names), f"the message names no input ({names}): {message}"


def non_finite_number(reader: Reader, tmp_path: Path, case: str) -> None:
    path = sample(reader, CASES[case], tmp_path / "in")
    outcome = refused_or_read(reader, path)
    if isinstance(outcome, InputError):
        return
    assert non_finite(outcome) == [], f"{reader.name} read a non-finite number: {non_finite(outcome)}"
    command_holds(reader, path, tmp_path / "work")
    if reader.kind == "spans":
        out = tmp_path / "out.jsonl"
        result = invoke("convert", path, out, "--format", reader.name, *label_feature_option(reader))
        assert result.exit_code == 0, (result.output, result.stderr)
        for line in out.read_text(encoding="utf-8").splitlines():
            strict_json(line)


def case_empty(reader: Reader, tmp_path: Path) -> None:
    path = sample(reader, CASES["empty"], tmp_path / "in")
    outcome = refused_or_read(reader, path)
    if isinstance(outcome, InputError):
        message = str(outcome)
    else:
        message = one_error(invoke(*command(reader, path, tmp_path / "work")))
    assert any(w in message for w in EMPTY_WORDS), f"{reader.name}: an empty input's refusal says {message!r}"


def case_unknown_name(reader: Reader, tmp_path: Path) -> None:
    path = sample(reader, CASES["unknown_name"], tmp_path / "in")
    corpus = read_quietly(reader, path)
    work = tmp_path / "work"
    tried = 0
    if reader.kind == "spans":
        from spacy_anno_eval.io import reader_options

        fmt = ["--format", reader.name, *label_feature_option(reader)]
        # a multi-set export knows its sets: spans:nosuch matches none of them; a one-layer format reads its layer
        # under any spans:NAME (io's module docstring), so a name of another form is the one that matches nothing
        known = corpus.found_sets is not None
        line = one_error(invoke("score", path, path, *fmt, "--key-set", "spans:nosuch" if known else "nosuch"))
        assert "nosuch" in line and any(s in line for s in (corpus.found_sets if known else ["ents"])), line
        line = one_error(invoke("score", path, path, *fmt, "--types", "NOSUCH"))
        assert "NOSUCH" in line and Sample().label in line, line
        line = one_error(invoke("score", path, path, *fmt, "--features", "nosuch"))
        assert "nosuch" in line and all(f in line for f in (corpus.found_features or [])[:3]), line
        tried += 3
        if "label_feature" in (reader_options(reader.name) or ()):
            line = one_error(invoke("sets", path, "--format", reader.name, "--label-feature", "nosuch"))
            assert "nosuch" in line, line
            tried += 1
    elif reader.kind == "continuum":
        line = one_error(invoke(*command(reader, path, work), "--sets", "spans:nosuch"))
        assert "nosuch" in line and Sample().doc_id in line, line
        tried += 1
    elif reader.kind == "ratings":
        from spacy_anno_eval.cli.agreement import agreement

        if "id_column" in agreement.__code__.co_varnames:
            line = one_error(invoke("agreement", path, "--id-column", "nosuch"))
            assert "nosuch" in line and "ann1" in line, line
            tried += 1
    elif reader.kind == "relations":
        line = one_error(invoke(*command(reader, path, work), "--key-set", "nosuch"))
        assert "nosuch" in line and "ents" in line, line
        tried += 1
    elif reader.kind == "mentions":
        line = one_error(invoke("align", plain_corpus(work / "key"), path, "--level", "section", "--section",
                                "nosuch"))
        assert "nosuch" in line, line
        tried += 1
    if not tried:
        pytest.skip(f"the {reader.kind} command takes no name that could match nothing")


RUN: dict[str, Callable[[Reader, Path], None]] = {
    "sample_exists": case_sample_exists,
    "declared_inputs": case_declared_inputs,
    "depth_1000": case_depth_1000,
    "lone_surrogate_text": lambda r, p: lone_surrogate(r, p, "lone_surrogate_text"),
    "lone_surrogate_label": lambda r, p: lone_surrogate(r, p, "lone_surrogate_label"),
    "lone_surrogate_id": lambda r, p: lone_surrogate(r, p, "lone_surrogate_id"),
    "nan_number": lambda r, p: non_finite_number(r, p, "nan_number"),
    "infinite_number": lambda r, p: non_finite_number(r, p, "infinite_number"),
    "empty": case_empty,
    "unknown_name": case_unknown_name,
}


def _params() -> list[Any]:
    out = []
    for reader in READERS:
        for case in CASES:
            marks = []
            if (reader.name, case) in KNOWN:
                marks.append(pytest.mark.xfail(strict=True, reason=KNOWN[(reader.name, case)]))
            out.append(pytest.param(reader, case, id=f"{reader.name}-{case}", marks=marks))
    return out


@pytest.mark.parametrize(("reader", "case"), _params())
def test_reader_contract(reader: Reader, case: str, tmp_path: Path) -> None:
    RUN[case](reader, tmp_path)


def test_every_reader_is_tried_on_every_case(tmp_path: Path) -> None:
    """The count of readers x cases, run and not applicable (printed; ``-s`` shows it): every reader has a sample
    of its plain case, so that no reader escapes the suite by having none."""
    run, not_applicable = 0, []
    for reader in READERS:
        assert reader.sample is not None, f"the reader {reader.name!r} has no sample"
        for name, case in CASES.items():
            folder = tmp_path / reader.name / name
            if reader.write_sample(case, folder) is None:
                not_applicable.append(f"{reader.name}-{name}")
            else:
                run += 1
    assert set(RUN) == set(CASES)
    total = len(READERS) * len(CASES)
    print(f"\nreader contract: {len(READERS)} readers x {len(CASES)} cases = {total}: {run} with a sample, "
          f"{len(not_applicable)} not applicable (the format cannot hold the case), {len(KNOWN)} known holes")
    assert run + len(not_applicable) == total and run >= len(READERS) * 3
