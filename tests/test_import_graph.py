"""The package's import graph has no circle (issue 27): no module imports, directly or through others, a module that
imports it back, module-level and function-level imports alike (grimp reads both).

A circle makes the modules in it one unit in disguise: none can be read, tested or moved alone, and which one
is imported first decides what the others see. import-linter (``.importlinter``, run by ``.ci/run``) keeps
the layers and the families' independence; this test keeps what it does not: circles inside one layer.
"""

from __future__ import annotations

import grimp


def circles(graph: grimp.ImportGraph) -> list[tuple[str, str]]:
    """Every direct import ``a -> b`` of ``graph`` such that ``b`` reaches ``a`` back, sorted."""
    return sorted((a, b) for a in graph.modules for b in graph.find_modules_directly_imported_by(a)
                  if graph.chain_exists(importer=b, imported=a))


def test_no_import_circle_in_the_package() -> None:
    graph = grimp.build_graph("spacy_anno_eval")
    found = circles(graph)
    assert not found, "import circles (a -> b where b imports a back):\n" + "\n".join(f"{a} -> {b}" for a, b in found)


def test_the_circle_finder_finds_a_circle() -> None:
    """The finder itself, on a graph with one circle and one plain import (so the test above can fail)."""
    graph = grimp.ImportGraph()
    for name in ("p.a", "p.b", "p.c"):
        graph.add_module(name)
    graph.add_import(importer="p.a", imported="p.b")
    graph.add_import(importer="p.b", imported="p.a")
    graph.add_import(importer="p.c", imported="p.a")
    assert circles(graph) == [("p.a", "p.b"), ("p.b", "p.a")]
