"""The one HTML escape of every page the package writes: user text (labels, ids, document text, file names)
goes through :func:`esc` before it meets markup."""

from __future__ import annotations

import html
from typing import Any


def esc(value: Any) -> str:
    """``value`` as HTML text, safe in element content and in quoted attributes.

    >>> esc('<b a="1">&')
    '&lt;b a=&quot;1&quot;&gt;&amp;'
    """
    return html.escape(str(value), quote=True)


__all__ = ["esc"]
