"""The one progress bar of long runs: rate and ETA on a terminal, silent otherwise.

Every long loop (shards scored, documents annotated, samples drawn) reports
through :func:`progress_bar`. The bar shows the count, the rate (documents,
shards or samples per second, as ``unit`` says) and, when the total is
known, the ETA. It is drawn on standard error only when ``enabled`` (the
commands pass ``not quiet``) and standard error is a terminal, so a pipe, a
log file or CI output gets no control characters. A disabled bar accepts the
same calls and does nothing.
"""

from __future__ import annotations

import sys
from typing import Any


class _Silent:
    """The disabled bar: every call is a no-op."""

    def update(self, n: int = 1, **postfix: Any) -> None:
        return None

    def set_total(self, total: int) -> None:
        return None

    def close(self) -> None:
        return None

    def __enter__(self) -> _Silent:
        return self

    def __exit__(self, *exc: Any) -> None:
        return None


class _Bar:
    """A tqdm bar; ``update(n, docs=k)`` also counts documents and shows documents per second."""

    def __init__(self, total: int | None, desc: str, unit: str) -> None:
        from tqdm import tqdm

        self._bar = tqdm(total=total, desc=desc, unit=unit, leave=False, file=sys.stderr, dynamic_ncols=True)
        self._docs = 0

    def update(self, n: int = 1, *, docs: int | None = None) -> None:
        if docs is not None:
            self._docs += docs
            elapsed = self._bar.format_dict.get("elapsed") or 0.0
            rate = f"{self._docs / elapsed:,.0f}" if elapsed else "-"
            self._bar.set_postfix(docs=f"{self._docs:,}", docs_per_s=rate, refresh=False)
        self._bar.update(n)

    def set_total(self, total: int) -> None:
        """A new total (when a run finds it needs more steps): the ETA follows it."""
        self._bar.total = total
        self._bar.refresh()

    def close(self) -> None:
        self._bar.close()

    def __enter__(self) -> _Bar:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


def progress_bar(total: int | None, desc: str, unit: str = "doc", *, enabled: bool = True) -> _Bar | _Silent:
    """A progress bar for ``total`` steps of ``unit`` (``None``: unknown total, no ETA).

    Silent when not ``enabled`` or when standard error is not a terminal. Use
    as a context manager, or call ``close()``; ``update(n, docs=k)`` advances
    by ``n`` steps and, when steps are shards, adds ``k`` documents to the
    documents-per-second figure.
    """
    if not enabled or not _is_terminal():
        return _Silent()
    return _Bar(total, desc, unit)


def _is_terminal() -> bool:
    try:
        return sys.stderr.isatty()
    except (AttributeError, ValueError):
        return False


__all__ = ["progress_bar"]
