"""Shard tasks that kill their own worker process: the first time they run (for the Dask retry test), or every
time (for the exit-code contract: Dask gives the task up).

Importable by Dask workers (they share the test session's ``sys.path``)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any


def die_once(pair: tuple[Any, Any], options: dict[str, Any], keep_pairs: bool, collect: Any = None) -> Any:
    from spacy_anno_eval.workflows.stream import _score_pair

    key = str(getattr(pair[0], "path", pair[0]))
    marker = Path(key).with_suffix(".died")
    if key.endswith("03.spacy") and not marker.exists():
        marker.write_text("x", encoding="utf8")
        os._exit(1)  # the worker process dies mid-run
    return _score_pair(pair, options, keep_pairs, collect)


def die_always(pair: tuple[Any, Any], options: dict[str, Any], keep_pairs: bool, collect: Any = None) -> Any:
    """A shard task that kills its worker every time (Dask gives the task up: KilledWorker)."""
    os._exit(1)
