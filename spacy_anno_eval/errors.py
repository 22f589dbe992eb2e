"""Errors and warnings raised on bad input.

Every message names where the problem is (file, line or document, span) and
what the user can do about it.
"""

from __future__ import annotations


class AnnoEvalInputError(ValueError):
    """Bad input: a file, a document or a span that cannot be evaluated.

    The CLI turns this error into a one-line message and exit code 2.
    """


class FeatureTypeWarning(UserWarning):
    """A feature value mismatch that vanishes under string comparison ("5" vs 5).

    Feature values compare by type and value, as GATE's AnnotationDiffer does
    (Java ``equals``; GATE user guide 10.2.3), so such pairs do not match.
    """


def where(source: str | None = None, doc: str | int | None = None, line: int | None = None,
          span: tuple[int, int] | None = None) -> str:
    """Format a location prefix such as ``key.jsonl, line 4, document 'd3', span [5, 9)``."""
    parts = []
    if source:
        parts.append(str(source))
    if line is not None:
        parts.append(f"line {line}")
    if doc is not None:
        parts.append(f"document {doc!r}")
    if span is not None:
        parts.append(f"span [{span[0]}, {span[1]})")
    return ", ".join(parts)
