"""Find a public name of a family while its modules are being split.

``api("evaluate_files", "spacy_anno_eval.noisy")`` returns the name from the
package itself when it exports it, else from the submodule that defines it
(else the first, alphabetically, that imports it). A name found nowhere is an ImportError, so
a broken path fails the test file loudly instead of skipping it.
"""

from __future__ import annotations

import pkgutil
from importlib import import_module
from typing import Any


def api(name: str, package: str) -> Any:
    root = import_module(package)
    if hasattr(root, name):
        return getattr(root, name)
    found = []
    for info in sorted(pkgutil.iter_modules(getattr(root, "__path__", [])), key=lambda m: m.name):
        module = import_module(f"{package}.{info.name}")
        if name in vars(module):
            obj = vars(module)[name]
            if getattr(obj, "__module__", None) == module.__name__:
                return obj  # defined there, not imported
            found.append(obj)
    if found:
        return found[0]
    raise ImportError(f"{name!r} is defined neither in {package} nor in any of its modules")
