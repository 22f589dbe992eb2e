"""Treebanks for the Brants & Skut benchmarks: generated NEGRA-like phrase trees, label errors, export text.

Shared by ``bench_brants_skut.py`` (speed) and ``study_brants_skut.py`` (does the model find the errors):

- :func:`generate`: phrase trees in the style of the NEGRA/TIGER corpora (Skut et al. 1997): flat NPs and
  PPs (``NK``, ``AC``), clauses with a head verb and ``SB``/``OA``/``DA``/``MO``/``OC``/``PD`` dependents in
  verb-second, verb-final and object-first orders, VPs under modal and auxiliary verbs, coordinations
  (``CJ``/``CD``), relative clauses (``RC``), genitive attributes (``AG``), and crossing branches (a VP's
  first dependent topicalised in front of the finite verb, as in *Darüber muss nachgedacht werden*); the
  final punctuation hangs from the virtual root. Seeded, so every run sees the same trees;
- :func:`corrupt`: a copy with known label errors of three kinds, at a stated rate: two siblings' functions
  swapped, a function replaced by another that occurs in the same parent category, a phrase's category
  replaced by another; each error is returned as (sentence, kind, where, given, true);
- :func:`corrupt_dependencies`: the same on CoNLL-U sentences (sibling DEPRELs swapped, a DEPREL replaced,
  a UPOS replaced: the dependency model's "category");
- :func:`dependency_to_phrase`: a dependency tree as a phrase tree (a word with dependents heads a node
  ``UPOS+P``; the head is ``HD`` in it, dependents keep their DEPREL; non-projective trees give crossing
  branches), so that the UD samples are phrase trees too;
- :func:`export_text`: trees as NEGRA export (format 3) text, for the command line.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace

from spacy_anno_eval.trees.conllu import Sentence, Word
from spacy_anno_eval.trees.phrase import PhraseNode, PhraseTree

#: words by STTS tag
LEXICON: dict[str, tuple[str, ...]] = {
    "ART": ("der", "die", "das", "den", "dem", "ein", "eine", "einen"),
    "NN": ("Mann", "Frau", "Haus", "Stadt", "Regierung", "Jahr", "Geld", "Zeit", "Kind", "Bericht", "Markt",
           "Woche", "Polizei", "Antrag", "Firma", "Leute"),
    "NE": ("Frankfurt", "Bonn", "Kohl", "Müller", "Berlin", "Hessen", "Schmidt"),
    "ADJA": ("neue", "alten", "großen", "kleine", "letzten", "deutschen", "hohe"),
    "ADJD": ("schnell", "gut", "wichtig", "klar", "bereit", "schwer"),
    "ADV": ("nicht", "auch", "noch", "schon", "nur", "heute", "dann", "sehr", "jetzt"),
    "APPR": ("in", "mit", "für", "auf", "von", "nach", "über", "bei"),
    "APPRART": ("im", "zum", "zur", "vom", "am"),
    "PPER": ("er", "sie", "es", "wir", "ihm", "ihn"),
    "PRELS": ("der", "die", "das"),
    "PIAT": ("alle", "viele", "einige", "keine"),
    "CARD": ("zwei", "drei", "zehn", "100"),
    "KON": ("und", "oder", "aber"),
    "KOUS": ("weil", "dass", "wenn", "ob"),
    "VVFIN": ("sagt", "sieht", "gibt", "kauft", "fordert", "bringt", "zeigt", "hält"),
    "VAFIN": ("hat", "ist", "wird", "haben", "sind"),
    "VMFIN": ("muss", "kann", "soll", "will", "darf"),
    "VVPP": ("gesagt", "gesehen", "gegeben", "gekauft", "gefordert", "gebracht", "nachgedacht"),
    "VVINF": ("sagen", "sehen", "geben", "kaufen", "fordern", "bringen"),
    "VAINF": ("werden", "sein", "haben"),
    "PTKNEG": ("nicht",),
    "$.": (".", "!", "?"),
    "$,": (",",),
}

#: (weight, children); a child is (category or tag, function); a "?" after the function: present half the time
RULES: dict[str, list[tuple[float, list[tuple[str, str]]]]] = {
    "S": [
        (6, [("NP", "SB"), ("VVFIN", "HD"), ("NP", "OA"), ("PP", "MO?")]),
        (3, [("PPER", "SB"), ("VVFIN", "HD"), ("NP", "DA"), ("NP", "OA")]),
        (3, [("PP", "MO"), ("VVFIN", "HD"), ("NP", "SB"), ("NP", "OA")]),
        (2, [("NP", "OA"), ("VVFIN", "HD"), ("PPER", "SB"), ("ADV", "MO?")]),
        (4, [("NP", "SB"), ("VMFIN", "HD"), ("ADV", "NG?"), ("VP", "OC")]),
        (4, [("NE", "SB"), ("VAFIN", "HD"), ("VP", "OC")]),
        (2, [("ADV", "MO"), ("VAFIN", "HD"), ("NP", "SB"), ("ADJD", "PD")]),
        (2, [("NP", "SB"), ("VAFIN", "HD"), ("AP", "PD")]),
        (2, [("PPER", "SB"), ("VVFIN", "HD"), ("$,", "--"), ("S-SUB", "OC")]),
    ],
    "S-SUB": [  # verb-final subordinate clause (category S, complementiser CP)
        (3, [("KOUS", "CP"), ("NP", "SB"), ("NP", "OA"), ("VVFIN", "HD")]),
        (2, [("KOUS", "CP"), ("PPER", "SB"), ("PP", "MO"), ("VVFIN", "HD")]),
    ],
    "S-RC": [  # relative clause (category S)
        (3, [("PRELS", "SB"), ("NP", "OA"), ("VVFIN", "HD")]),
        (2, [("PRELS", "OA"), ("NP", "SB"), ("VVFIN", "HD")]),
        (1, [("PRELS", "SB"), ("ADV", "MO"), ("ADJD", "PD"), ("VAFIN", "HD")]),
    ],
    "VP": [
        (4, [("NP", "OA"), ("VVINF", "HD")]),
        (3, [("PP", "MO"), ("NP", "OA"), ("VVPP", "HD")]),
        (2, [("NP", "DA"), ("NP", "OA"), ("VVPP", "HD")]),
        (2, [("PP", "OP"), ("VVPP", "HD")]),
        (1, [("ADV", "MO"), ("VVINF", "HD")]),
    ],
    "NP": [
        (6, [("ART", "NK"), ("NN", "NK")]),
        (4, [("ART", "NK"), ("ADJA", "NK"), ("NN", "NK")]),
        (2, [("ART", "NK"), ("AP", "NK"), ("NN", "NK")]),
        (2, [("ART", "NK"), ("NN", "NK"), ("NP", "AG")]),
        (2, [("ART", "NK"), ("NN", "NK"), ("PP", "MNR")]),
        (1, [("ART", "NK"), ("NN", "NK"), ("$,", "--"), ("S-RC", "RC")]),
        (2, [("PIAT", "NK"), ("NN", "NK")]),
        (1, [("CARD", "NK"), ("NN", "NK")]),
        (1, [("ADJA", "NK"), ("NN", "NK")]),
        (1, [("CNP", "--")]),  # replaced by the coordination itself
    ],
    "CNP": [(1, [("NP", "CJ"), ("KON", "CD"), ("NP", "CJ")]), (1, [("NN", "CJ"), ("KON", "CD"), ("NN", "CJ")])],
    "PP": [
        (5, [("APPR", "AC"), ("ART", "NK"), ("NN", "NK")]),
        (2, [("APPR", "AC"), ("NE", "NK")]),
        (2, [("APPRART", "AC"), ("NN", "NK")]),
        (2, [("APPR", "AC"), ("ART", "NK"), ("ADJA", "NK"), ("NN", "NK")]),
        (1, [("APPR", "AC"), ("PPER", "NK")]),
        (1, [("APPR", "AC"), ("CARD", "NK"), ("NN", "NK")]),
    ],
    "AP": [(2, [("ADV", "MO"), ("ADJA", "HD")]), (1, [("ADV", "MO"), ("ADJD", "HD")]),
           (1, [("PTKNEG", "NG"), ("ADJD", "HD")])],
}
CATEGORY = {"S-SUB": "S", "S-RC": "S"}
#: below this depth no further phrase is opened where a word can stand instead
MAX_DEPTH = 5
WORD_FOR = {"NP": ("NN", "NE"), "PP": ("ADV",), "VP": ("VVINF",), "AP": ("ADJD",), "CNP": ("NN",),
            "S-RC": ("ADJD",), "S-SUB": ("ADJD",)}


@dataclass
class _Leaf:
    word: str
    tag: str
    function: str
    parent: int  # node id, filled in when the node gets one


class _Builder:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.nodes: list[PhraseNode] = []
        self.next_id = 500

    def phrase(self, symbol: str, function: str, depth: int) -> tuple[list[list[_Leaf]], int]:
        """A phrase: its children's leaf lists (in order) and its node id; the node is added to ``nodes``
        with parent 0 for now."""
        rules = RULES[symbol]
        children = self.rng.choices([r for _, r in rules], weights=[w for w, _ in rules])[0]
        if depth >= MAX_DEPTH:  # keep the depth bounded: flat rules only
            flat = [r for _, r in rules if all(c not in RULES for c, _ in r)]
            children = self.rng.choice(flat) if flat else children
        node_id = self.next_id
        self.next_id += 1
        parts: list[list[_Leaf]] = []
        for child, fn in children:
            if fn.endswith("?"):
                if self.rng.random() < 0.5:
                    continue
                fn = fn[:-1]
            if child == "CNP" and fn == "--":  # an NP that is a coordination: the CNP takes the NP's function
                return self.phrase("CNP", function, depth)
            if child in RULES:
                if depth + 1 >= MAX_DEPTH and child in WORD_FOR:
                    tag = self.rng.choice(WORD_FOR[child])
                    parts.append([_Leaf(self.rng.choice(LEXICON[tag]), tag, fn, node_id)])
                    continue
                sub, sub_id = self.phrase(child, fn, depth + 1)
                leaves = [leaf for part in sub for leaf in part]
                self._hang(sub_id, node_id)
                parts.append(leaves)
                if child == "VP" and symbol == "S" and len(sub) > 1 and self.rng.random() < 0.3:
                    # topicalise the VP's first dependent before the finite verb: a crossing branch
                    parts[-1] = [leaf for part in sub[1:] for leaf in part]
                    parts = [sub[0], parts[1], parts[0], *parts[2:]] if len(parts) > 2 else [sub[0], *parts]
            else:
                parts.append([_Leaf(self.rng.choice(LEXICON[child]), child, fn, node_id)])
        self.nodes.append(PhraseNode(node_id, CATEGORY.get(symbol, symbol), function, 0))
        return parts, node_id

    def _hang(self, child: int, parent: int) -> None:
        self.nodes = [n._replace(parent=parent) if n.id == child else n for n in self.nodes]


def generate(n: int, seed: int = 0) -> list[PhraseTree]:
    """``n`` generated sentences (see the module docstring), ids ``1..n``."""
    rng = random.Random(seed)
    out = []
    for i in range(1, n + 1):
        b = _Builder(rng)
        parts, root = b.phrase("S", "--", 0)
        if rng.random() < 0.15:  # a coordination of two clauses
            parts2, root2 = b.phrase("S", "CJ", 0)
            cs = b.next_id
            b.nodes = [x._replace(function="CJ", parent=cs) if x.id in (root, root2) else x for x in b.nodes]
            b.nodes.append(PhraseNode(cs, "CS", "--", 0))
            parts = [*parts, [_Leaf(rng.choice(LEXICON["KON"]), "KON", "CD", cs)], *parts2]
        leaves = [leaf for part in parts for leaf in part]
        leaves.append(_Leaf(rng.choice(LEXICON["$."]), "$.", "--", 0))
        # node ids in NEGRA order: 500 upwards, children before parents as the builder finished them
        out.append(PhraseTree(words=tuple(x.word for x in leaves), tags=tuple(x.tag for x in leaves),
                              word_parents=tuple(x.parent for x in leaves),
                              word_functions=tuple(x.function for x in leaves), nodes=tuple(b.nodes),
                              sent_id=str(i)))
    return out


# ---------------------------------------------------------------------------------------------------------------
# errors


@dataclass(frozen=True)
class Injected:
    """One injected error: the sentence's index, ``kind`` (``swap``, ``function``, ``category``), what
    (``word 3`` / ``node 501`` with ``function``/``category``), the label written and the true one."""

    sentence: int
    kind: str
    target: tuple[str, int]  # ("word", position 0-based) or ("node", node id)
    label: str  # "function" or "category"
    given: str
    true: str


def _inventory(trees: Sequence[PhraseTree]) -> tuple[dict[str, list[str]], list[str]]:
    """Functions seen under each parent category; every phrase category."""
    fns: dict[str, set[str]] = {}
    cats: set[str] = set()
    for t in trees:
        cat = {n.id: n.label for n in t.nodes}
        cats.update(cat.values())
        for p, f in zip(t.word_parents, t.word_functions, strict=True):
            if p:
                fns.setdefault(cat[p], set()).add(f)
        for n in t.nodes:
            if n.parent:
                fns.setdefault(cat[n.parent], set()).add(n.function)
    return {k: sorted(v) for k, v in fns.items()}, sorted(cats)


def corrupt(trees: Sequence[PhraseTree], rate: float, seed: int = 0
            ) -> tuple[list[PhraseTree], list[Injected]]:
    """A copy of ``trees`` in which each labelled decision (a child's function under a phrase, a phrase's
    category) is corrupted with probability ``rate``: a third of the errors swap the function with a sibling
    of another function, a third replace the function by another seen under that category, a third replace
    a category (see the module docstring). At most one error per child or node."""
    rng = random.Random(seed)
    fns, cats = _inventory(trees)
    out, errors = [], []
    for index, t in enumerate(trees):
        wf = list(t.word_functions)
        nodes = {n.id: n for n in t.nodes}
        cat = {n.id: n.label for n in t.nodes}
        touched: set[tuple[str, int]] = set()
        # the children of each node: ("word", i) or ("node", id)
        kids: dict[int, list[tuple[str, int]]] = {n.id: [] for n in t.nodes}
        for i, p in enumerate(t.word_parents):
            if p:
                kids[p].append(("word", i))
        for n in t.nodes:
            if n.parent:
                kids[n.parent].append(("node", n.id))

        def fn_of(x: tuple[str, int], wf: list[str] = wf, nodes: dict[int, PhraseNode] = nodes) -> str:
            return wf[x[1]] if x[0] == "word" else nodes[x[1]].function

        def set_fn(x: tuple[str, int], value: str, wf: list[str] = wf, nodes: dict[int, PhraseNode] = nodes) -> None:
            if x[0] == "word":
                wf[x[1]] = value
            else:
                nodes[x[1]] = nodes[x[1]]._replace(function=value)

        decisions = [(p, x) for p, xs in kids.items() for x in xs] + [(None, ("node", n.id)) for n in t.nodes]
        for parent, x in decisions:
            if rng.random() >= rate or x in touched:
                continue
            kind = rng.choice(("swap", "function", "category")) if parent is not None else "category"
            if parent is None or kind == "category":
                if x[0] != "node" or (x, "category") in touched:
                    kind = "function"
                else:
                    new = rng.choice([c for c in cats if c != nodes[x[1]].label] or [nodes[x[1]].label])
                    if new != nodes[x[1]].label:
                        errors.append(Injected(index, "category", x, "category", new, nodes[x[1]].label))
                        nodes[x[1]] = nodes[x[1]]._replace(label=new)
                        touched.add((x, "category"))
                    continue
            if parent is None:
                continue
            if kind == "swap":
                others = [y for y in kids[parent] if y != x and y not in touched and fn_of(y) != fn_of(x)]
                if others:
                    y = rng.choice(others)
                    a, b = fn_of(x), fn_of(y)
                    set_fn(x, b)
                    set_fn(y, a)
                    touched.update((x, y))
                    errors += [Injected(index, "swap", x, "function", b, a),
                               Injected(index, "swap", y, "function", a, b)]
                    continue
            choices = [f for f in fns.get(cat[parent], []) if f != fn_of(x)]
            if choices:
                new = rng.choice(choices)
                errors.append(Injected(index, "function", x, "function", new, fn_of(x)))
                set_fn(x, new)
                touched.add(x)
        out.append(replace(t, word_functions=tuple(wf), nodes=tuple(nodes[n.id] for n in t.nodes)))
    return out, errors


def corrupt_dependencies(sentences: Sequence[Sentence], rate: float, seed: int = 0
                         ) -> tuple[list[Sentence], list[Injected]]:
    """A copy of CoNLL-U ``sentences`` where each word's DEPREL is corrupted with probability ``rate`` (a third
    swapped with a sibling of another DEPREL, a third replaced by another DEPREL seen under the head's UPOS) and
    each word's UPOS with probability ``rate / 3`` (the "category"). Targets are ``("word", position)``."""
    rng = random.Random(seed)
    rels: dict[str, set[str]] = {}
    tags: set[str] = set()
    for s in sentences:
        for w in s.words:
            tags.add(w.upos)
            rels.setdefault(s.words[w.head - 1].upos if w.head else "ROOT", set()).add(w.deprel)
    out, errors = [], []
    for index, s in enumerate(sentences):
        words = list(s.words)
        touched: set[int] = set()
        for i, w in enumerate(s.words):
            if i not in touched and rng.random() < rate:
                kind = rng.choice(("swap", "function"))
                sibs = [j for j, v in enumerate(words) if j != i and j not in touched and v.head == w.head
                        and v.deprel != words[i].deprel]
                if kind == "swap" and sibs:
                    j = rng.choice(sibs)
                    a, b = words[i].deprel, words[j].deprel
                    words[i], words[j] = replace(words[i], deprel=b), replace(words[j], deprel=a)
                    touched.update((i, j))
                    errors += [Injected(index, "swap", ("word", i), "function", b, a),
                               Injected(index, "swap", ("word", j), "function", a, b)]
                else:
                    head_tag = words[w.head - 1].upos if w.head else "ROOT"
                    choices = sorted(rels[head_tag] - {words[i].deprel})
                    if choices:
                        new = rng.choice(choices)
                        errors.append(Injected(index, "function", ("word", i), "function", new, words[i].deprel))
                        words[i] = replace(words[i], deprel=new)
                        touched.add(i)
            if rng.random() < rate / 3:
                new = rng.choice(sorted(tags - {words[i].upos}))
                errors.append(Injected(index, "category", ("word", i), "category", new, words[i].upos))
                words[i] = replace(words[i], upos=new)
        out.append(replace(s, words=tuple(words)))
    return out, errors


# ---------------------------------------------------------------------------------------------------------------
# conversions and text


def dependency_to_phrase(s: Sentence) -> PhraseTree:
    """A dependency tree as a phrase tree (see the module docstring): node ids 500 + word position."""
    has_dependents = {w.head for w in s.words if w.head}
    nodes, parents, functions = [], [], []
    for w in s.words:
        if w.id in has_dependents:
            nodes.append(PhraseNode(500 + w.id, f"{w.upos}P", w.deprel if w.head else "--",
                                    500 + w.head if w.head else 0))
            parents.append(500 + w.id)
            functions.append("HD")
        else:
            parents.append(500 + w.head if w.head else 0)
            functions.append(w.deprel)
    return PhraseTree(words=tuple(w.form for w in s.words), tags=tuple(w.upos for w in s.words),
                      word_parents=tuple(parents), word_functions=tuple(functions), nodes=tuple(nodes),
                      sent_id=s.sent_id)


def _cell(text: str) -> str:
    return text.replace("\t", " ") or "_"


def export_text(trees: Sequence[PhraseTree]) -> str:
    """NEGRA export format 3: ``#BOS id``, a line per word (word tag morph edge parent), a line per node,
    ``#EOS id``."""
    lines = ["#FORMAT 3"]
    for k, t in enumerate(trees, 1):
        sid = t.sent_id or str(k)
        lines.append(f"#BOS {sid}")
        for w, tag, f, p in zip(t.words, t.tags, t.word_functions, t.word_parents, strict=True):
            lines.append(f"{_cell(w)}\t{_cell(tag)}\t--\t{_cell(f) if f else '--'}\t{p}")
        for n in sorted(t.nodes, key=lambda n: n.id):
            lines.append(f"#{n.id}\t{_cell(n.label)}\t--\t{_cell(n.function) if n.function else '--'}\t{n.parent}")
        lines.append(f"#EOS {sid}")
    return "\n".join(lines) + "\n"


def conllu_text(sentences: Sequence[Sentence]) -> str:
    """CoNLL-U text of ``sentences`` (``# sent_id``, ``# text``, the ten columns)."""
    lines = []
    for s in sentences:
        lines.append(f"# sent_id = {s.sent_id}")
        if s.text:
            lines.append(f"# text = {s.text}")
        for w in s.words:
            lines.append("\t".join([str(w.id), w.form, w.lemma, w.upos, w.xpos, w.feats, str(w.head), w.deprel,
                                    w.deps, w.misc]))
        lines.append("")
    return "\n".join(lines) + "\n"


__all__ = ["Injected", "Word", "conllu_text", "corrupt", "corrupt_dependencies", "dependency_to_phrase",
           "export_text", "generate"]
