"""The UTF-8 text of a BDM or taxonomy file, with a one-line error naming the file."""

from __future__ import annotations

from pathlib import Path

from ..errors import InputError


def read_utf8(p: Path, what: str) -> str:
    """The UTF-8 text of ``p`` (a BOM dropped); a one-line error naming the file otherwise."""
    try:
        return p.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise InputError(f"{p}: no such file") from None
    except UnicodeDecodeError as err:
        raise InputError(f"{p}: not UTF-8 text ({err.reason} at byte {err.start}); "
                                 f"save {what} as UTF-8") from None

