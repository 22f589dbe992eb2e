"""Shared fixtures: the licensed test data beside the checkout (``../shared/data``); the CLI's warnings as a user
sees them."""

from __future__ import annotations

import os
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from spacy_anno_eval import errors

SHARED_DATA = Path(os.environ.get("ANNO_EVAL_SHARED_DATA", Path(__file__).resolve().parents[2] / "shared" / "data"))


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """``../shared/data``; the test is skipped when it is absent."""
    if not SHARED_DATA.is_dir():
        pytest.skip(f"shared test data not found at {SHARED_DATA}")
    return SHARED_DATA


def shared_file(*parts: str) -> Path:
    """A file under ``../shared/data``, or skip the calling test when it is absent."""
    path = SHARED_DATA.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"shared test data not found: {path}")
    return path


#: every warning class of the toolkit (all live in spacy_anno_eval/errors.py)
PACKAGE_WARNINGS = tuple(value for value in vars(errors).values() if isinstance(value, type)
                         and issubclass(value, Warning) and value.__module__ == errors.__name__)


@pytest.fixture(autouse=True, scope="session")
def cli_warns_as_for_a_user() -> Iterator[None]:
    """Run the in-process CLI (typer's ``CliRunner.invoke``) with the toolkit's warnings shown, not raised.

    pyproject.toml turns the toolkit's own warnings into errors, so that a test's call that warns unexpectedly
    fails. Inside a CLI run that filter would turn each warning into exit code 3; a user's CLI prints it as one
    ``anno-eval: warning:`` line on stderr (``cli.app``), which is what the CLI tests read and assert. Session-wide,
    so that module-scoped fixtures that run the CLI see it too.
    """
    from typer.testing import CliRunner

    invoke = CliRunner.invoke

    def invoke_with_warnings_shown(self: CliRunner, *args: Any, **kwargs: Any) -> Any:
        with warnings.catch_warnings():
            for category in PACKAGE_WARNINGS:
                warnings.filterwarnings("default", category=category)
            return invoke(self, *args, **kwargs)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(CliRunner, "invoke", invoke_with_warnings_shown)
        yield
