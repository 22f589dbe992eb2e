"""No module of the package is over 700 lines (issue 27): a module that long holds several jobs; split it so
that each file has the one job its name says.
"""

from __future__ import annotations

from pathlib import Path

import spacy_anno_eval

MAX_LINES = 700
PACKAGE = Path(spacy_anno_eval.__file__).resolve().parent


def line_count(path: Path) -> int:
    """The number of lines of ``path`` (as ``wc -l`` counts them, plus a last line without a newline)."""
    with path.open("rb") as f:
        return sum(1 for _ in f)


def oversized(root: Path, limit: int = MAX_LINES) -> list[tuple[str, int]]:
    """Every ``*.py`` file under ``root`` over ``limit`` lines, as ``(path relative to root, lines)``, longest
    first."""
    found = [(p.relative_to(root).as_posix(), line_count(p)) for p in sorted(root.rglob("*.py"))]
    return sorted(((name, n) for name, n in found if n > limit), key=lambda item: (-item[1], item[0]))


def test_no_module_is_over_the_limit() -> None:
    found = oversized(PACKAGE)
    assert not found, (f"modules over {MAX_LINES} lines (split each by job):\n"
                       + "\n".join(f"spacy_anno_eval/{name}: {n} lines" for name, n in found))


def test_the_checker_finds_a_module_over_the_limit(tmp_path: Path) -> None:
    """The checker itself, on a tree with one file just over the limit, one at it and one without a final newline
    (so the test above can fail)."""
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "long.py").write_text("x = 1\n" * (MAX_LINES + 1))
    (tmp_path / "at_limit.py").write_text("x = 1\n" * MAX_LINES)
    (tmp_path / "no_newline.py").write_text("x = 1\n" * MAX_LINES + "y = 2")
    (tmp_path / "notes.txt").write_text("x\n" * (MAX_LINES + 5))
    assert oversized(tmp_path) == [("no_newline.py", MAX_LINES + 1), ("sub/long.py", MAX_LINES + 1)]
