"""Every function we register through spaCy entry points resolves through
``spacy.registry`` in a fresh interpreter that has imported only spaCy, and
resolving it keeps the import light (no scipy / scikit-learn)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import textwrap
from importlib.metadata import entry_points
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
HEAVY = ("scipy", "sklearn")

# entry-point group -> attribute of spacy.registry
GROUPS = {"spacy_scorers": "scorers", "spacy_factories": "factories", "spacy_architectures": "architectures",
          "spacy_readers": "readers", "spacy_misc": "misc", "spacy_loggers": "loggers"}


def declared_entry_points() -> dict[str, list[str]]:
    """Our names per spaCy group, as ``setup.py`` declares them."""
    text = (ROOT / "setup.py").read_text(encoding="utf8")
    out: dict[str, list[str]] = {}
    for group in GROUPS:
        m = re.search(rf'"{group}"\s*:\s*\[(.*?)\]', text, re.S)
        if m:
            out[group] = re.findall(r'"\s*([^"=\s]+)\s*=\s*spacy_anno_eval[\w.]*:\w+\s*"', m.group(1))
    return out


def installed_entry_points() -> dict[str, list[str]]:
    """Our names per spaCy group, as the installed distribution's metadata has them."""
    out: dict[str, list[str]] = {}
    for group in GROUPS:
        names = sorted(ep.name for ep in entry_points(group=group) if ep.value.startswith("spacy_anno_eval"))
        if names:
            out[group] = names
    return out


def test_scorer_is_declared_and_installed() -> None:
    declared = declared_entry_points()
    assert "spacy_anno_eval.spans_scorer.v1" in declared.get("spacy_scorers", [])
    # a stale editable install (pip install -e . not re-run after setup.py changed) shows here
    assert installed_entry_points() == {g: sorted(n) for g, n in declared.items() if n}


CHILD = textwrap.dedent(
    """
    import json, sys
    import spacy

    groups = json.loads(sys.argv[1])
    heavy = json.loads(sys.argv[2])
    out = {"preloaded": "spacy_anno_eval" in sys.modules,
           "heavy_before": [m for m in heavy if m in sys.modules], "resolved": {}}
    # factories last: spaCy loads `spacy_factories` entry points when a Language is created
    # (registry._entry_point_factories), not on registry.factories.get; every other group first,
    # so that e.g. registry.scorers.get is shown to work with nothing but `import spacy`
    for group, (attr, names) in sorted(groups.items(), key=lambda item: item[1][0] == "factories"):
        registry = getattr(spacy.registry, attr)
        if attr == "factories":
            spacy.blank("xx")
        for name in names:
            func = registry.get(name)
            out["resolved"][name] = [callable(func), getattr(func, "__module__", "")]
    out["heavy_after"] = [m for m in heavy if m in sys.modules]
    out["package_loaded"] = "spacy_anno_eval" in sys.modules
    print(json.dumps(out))
    """
)


def test_entry_points_resolve_without_importing_the_package() -> None:
    declared = declared_entry_points()
    groups = {g: (GROUPS[g], names) for g, names in declared.items() if names}
    proc = subprocess.run([sys.executable, "-c", CHILD, json.dumps(groups), json.dumps(HEAVY)],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-3000:]
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    assert out["preloaded"] is False, "spacy_anno_eval was imported before the registry lookup"
    all_names = [n for _, names in groups.values() for n in names]
    assert sorted(out["resolved"]) == sorted(all_names)
    for name, (is_callable, module) in out["resolved"].items():
        assert is_callable, name
        assert module.startswith("spacy_anno_eval"), (name, module)
    assert out["package_loaded"] is True  # the entry point, not an import of ours, loaded it
    new_heavy = sorted(set(out["heavy_after"]) - set(out["heavy_before"]))
    assert not new_heavy, f"resolving our registered functions imported {new_heavy}"


@pytest.mark.parametrize("name", ["spacy_anno_eval.spans_scorer.v1"])
def test_resolved_scorer_scores_in_a_fresh_interpreter(name: str) -> None:
    code = textwrap.dedent(
        f"""
        import json, spacy
        from spacy.tokens import Span
        from spacy.training import Example
        nlp = spacy.blank("en")
        ref, pred = nlp("Ada met Bob ."), nlp("Ada met Bob .")
        ref.ents = [Span(ref, 0, 1, "PER"), Span(ref, 2, 3, "PER")]
        pred.ents = [Span(pred, 0, 1, "PER")]
        scorer = spacy.registry.scorers.get({name!r})()
        s = scorer([Example(pred, ref)])
        print(json.dumps([s["ents_p"], s["ents_r"], s["ents_f_lenient"]]))
        """
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-3000:]
    p, r, f_lenient = json.loads(proc.stdout.strip().splitlines()[-1])
    assert (p, r) == pytest.approx((1.0, 0.5))
    assert f_lenient == pytest.approx(2 / 3)
