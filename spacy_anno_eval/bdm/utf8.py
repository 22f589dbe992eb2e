"""The UTF-8 text of a BDM or taxonomy file, with a one-line error naming the file."""

from __future__ import annotations

from pathlib import Path

from ..errors import InputError


def read_utf8(p: Path, what: str) -> str:
    """The UTF-8 text of ``p`` (a BOM dropped); a one-line error naming the file, and the line of the first byte
    that is not UTF-8, otherwise."""
    try:
        return p.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise InputError(f"{p}: no such file") from None
    except UnicodeDecodeError as err:
        raise not_utf8(p, what, err) from None


def not_utf8(p: Path, what: str, err: UnicodeDecodeError | None = None) -> InputError:
    """The error for ``p``, ``what`` (``the taxonomy``) that is not UTF-8: the file, line and byte of the first
    bad byte, and what to do."""
    from ..io.encoding import undecodable

    return undecodable(p, "utf-8-sig", fix=f"save {what} as UTF-8", err=err)

