"""The test run's warning filters (issue 27): the toolkit's own warnings are errors in the tests, so that a test
expects each one it causes (``pytest.warns``); the in-process CLI still shows them as a user sees them."""

from __future__ import annotations

import tomllib
import warnings
from pathlib import Path

from typer.testing import CliRunner

from spacy_anno_eval.cli.app import app
from spacy_anno_eval.errors import UndefinedFigureWarning
from tests.conftest import PACKAGE_WARNINGS, shared_file

PYPROJECT = Path(__file__).resolve().parents[1] / "pyproject.toml"
ERRORS = "spacy_anno_eval.errors."


def pytest_filters() -> dict[str, str]:
    """``{class name: action}`` for pyproject.toml's ``filterwarnings`` entries on a class of ``errors.py``."""
    options = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["tool"]["pytest"]["ini_options"]
    listed = {}
    for entry in options.get("filterwarnings", []):
        action, _message, category, *_ = [*entry.split(":"), "", ""]
        if category.startswith(ERRORS):
            listed[category.removeprefix(ERRORS)] = action
    return listed


def test_every_warning_class_of_the_toolkit_has_a_filter_in_pyproject():
    """A new class in errors.py gets an ``error::`` entry (or a listed reason to stay a warning) in pyproject.toml:
    a class or one of its bases must be named there."""
    listed = pytest_filters()
    assert listed.get("UndefinedFigureWarning") == "error"
    unlisted = [c.__name__ for c in PACKAGE_WARNINGS if not any(base.__name__ in listed for base in c.__mro__)]
    assert not unlisted, (f"{', '.join(unlisted)}: not in pyproject.toml's [tool.pytest.ini_options] filterwarnings; "
                          f"add \"error::{ERRORS}{unlisted[0]}\" (or say there why it stays a warning)")
    unknown = sorted(set(listed) - {c.__name__ for c in PACKAGE_WARNINGS})
    assert not unknown, f"pyproject.toml filters classes that errors.py no longer defines: {unknown}"


def test_the_cli_shows_a_warning_on_stderr_even_where_it_is_an_error(tmp_path):
    """conftest's cli_warns_as_for_a_user: in a CliRunner run, an UndefinedFigureWarning is a stderr line and exit 0,
    as for a user, not an internal error (exit 3) under the tests' error filter."""
    gold = shared_file("nerval_examples", "nerval_annot.bio")
    pred = shared_file("nerval_examples", "nerval_predict.bio")
    with warnings.catch_warnings():
        warnings.simplefilter("error", UndefinedFigureWarning)  # as pyproject.toml has it, whatever -W says
        result = CliRunner().invoke(app, ["noisy", str(gold), str(pred), "--json", str(tmp_path / "n.json")])
    assert result.exit_code == 0, result.output
    assert "anno-eval: warning: 2 ratios with a zero denominator reported as zero_division = 0.0" in result.stderr
