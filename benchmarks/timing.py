"""What the benchmark scripts share: the best wall time of a repeated call (run beside them: the script's folder
is on ``sys.path``)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any


def best_of(repeat: int, fn: Callable[[], Any]) -> tuple[float, Any]:
    """The shortest of ``repeat`` timed calls of ``fn`` (seconds) and the last call's result."""
    best, out = float("inf"), None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t0)
    return best, out
