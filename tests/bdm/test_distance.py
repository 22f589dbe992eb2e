"""Balanced Distance Metric between taxonomy concepts (spacy_anno_eval.bdm.distance).

Expected numbers are worked out by hand in the comments from the definitions
(Maynard, Peters & Li 2006; GATE user guide 10.6), plus the worked line of
the GATE user guide, which a purpose-built taxonomy reproduces exactly.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import numpy as np
import pytest

from spacy_anno_eval.bdm.distance import BDMPair, BDMScores, _Engine, bdm, bdm_pair, compute_bdm
from spacy_anno_eval.bdm.gatefile import format_bdm_line, java_float, parse_bdm_line, read_bdm_file, write_bdm_file
from spacy_anno_eval.bdm.taxonomy import Taxonomy, read_taxonomy
from spacy_anno_eval.errors import AnnoEvalError, InputError

GATE_LINE = ("key=Service, response=Object, bdm=0.6617647, msca=Object, cp=1, dpk=1, dpr=0, n0=2.0, n1=2.0, "
             "n2=2.8333333, bran=1.9565217")

# Thing -> {Person -> {Politician, Artist}, Location -> {City -> {Capital}, Country}}
TREE = [("Person", "Thing"), ("Location", "Thing"), ("Politician", "Person"), ("Artist", "Person"),
        ("City", "Location"), ("Capital", "City"), ("Country", "Location")]
# a DAG: Thing -> {A -> A1 -> C, B -> {C, D}}; C has two parents, A1 and B
DAG = [("A", "Thing"), ("B", "Thing"), ("A1", "A"), ("C", "A1"), ("C", "B"), ("D", "B")]


@pytest.fixture
def tree() -> Taxonomy:
    return Taxonomy.from_edges(TREE, name="tiny")


@pytest.fixture
def dag() -> Taxonomy:
    return Taxonomy.from_edges(DAG, name="dag")


def gate_example() -> Taxonomy:
    """A taxonomy that gives every number of the GATE guide's line Service / Object.

    Entity (top) -> {Object, Abstract}; Object has 9 children: Service, 7 more
    leaves and Agent; Agent has 7 children: Organization and 6 leaves;
    Organization has 4: Company and 3 leaves; Company has 1 leaf (Startup);
    plus 7 concepts with neither parent nor child.

    - branching of the 5 non-leaves: Entity 2, Object 9, Agent 7, Organization 4, Company 1:
      avg_branch = 23 / 5 = 4.6, bran = branch(Object) / 4.6 = 9 / 4.6 = 45/23 = 1.9565217;
    - leaf chains under Object: 8 of length 2, 6 of 3, 3 of 4, 1 of 5: 18 chains, 51 edges:
      n2 = chain_len(Object) = 51/18 = 17/6 = 2.8333333;
    - all leaf chains: those 18, Abstract (1 edge), the 7 isolated concepts (0 edges): n0 = 52 / 26 = 2.0;
    - Service is a leaf at depth 2: n1 = 2.0; Object sits under one top: cp = 1; dpk = 1, dpr = 0;
    - bdm = (45/23 * 1 / 2) / (45/23 * 1 / 2 + 1 / 2 + 0) = 45/68 = 0.6617647.
    """
    edges: list[tuple[str, str | None]] = [("Object", "Entity"), ("Abstract", "Entity"), ("Service", "Object"),
                                           ("Agent", "Object"), ("Organization", "Agent"),
                                           ("Company", "Organization"), ("Startup", "Company")]
    edges += [(f"ObjectLeaf{i}", "Object") for i in range(1, 8)]
    edges += [(f"AgentLeaf{i}", "Agent") for i in range(1, 7)]
    edges += [(f"OrganizationLeaf{i}", "Organization") for i in range(1, 4)]
    edges += [(f"Unplaced{i}", None) for i in range(1, 8)]
    return Taxonomy.from_edges(edges, name="gate-guide")


def random_dag(n: int, seed: int, two_parents: float = 0.3) -> Taxonomy:
    rng = random.Random(seed)
    edges: list[tuple[str, str | None]] = [("n00", None)]
    for i in range(1, n):
        if rng.random() < 0.1:
            edges.append((f"n{i:02d}", None))  # another top
            continue
        k = 2 if (rng.random() < two_parents and i > 1) else 1
        for p in rng.sample(range(i), k):
            edges.append((f"n{i:02d}", f"n{p:02d}"))
    return Taxonomy.from_edges(edges)


def reference_bdm(tax: Taxonomy, k: str, r: str) -> float:
    """BDM straight from the definitions, on the public chains (bottom-up tuples); slow and plain."""
    if k == r:
        return 1.0
    non_leaves = [c for c in tax.concepts if tax.children(c)]
    avg_branch = sum(len(tax.children(c)) for c in non_leaves) / len(non_leaves)
    leaf_chains = [ch for leaf in tax.leaves for ch in tax.chains(leaf)]
    n0 = sum(len(ch) - 1 for ch in leaf_chains) / len(leaf_chains)

    def chain_len(c: str) -> float:
        through = [len(ch) - 1 for ch in leaf_chains if c in ch]
        return sum(through) / len(through)

    best = 0.0
    for a in tax.chains(k):
        for b in tax.chains(r):
            common = 0
            while common < min(len(a), len(b)) and a[-1 - common] == b[-1 - common]:
                common += 1
            if not common:
                continue
            msca = a[len(a) - common]
            cp, dpk, dpr = common - 1, len(a) - common, len(b) - common
            members = ({msca} | set(a[1:len(a) - common]) | set(b[1:len(b) - common])) - ({k, r} - {msca})
            bran = sum(len(tax.children(x)) for x in members) / len(members) / avg_branch
            x = bran * cp / n0
            best = max(best, x / (x + dpk / chain_len(k) + dpr / chain_len(r)))
    return best


# ----------------------------------------------------------------------------------------------------------------
# taxonomy parameters


def test_tree_structure_and_parameters(tree: Taxonomy) -> None:
    assert tree.concepts == ("Artist", "Capital", "City", "Country", "Location", "Person", "Politician", "Thing")
    assert tree.tops == ("Thing",)
    assert tree.leaves == ("Artist", "Capital", "Country", "Politician")
    assert tree.children("Location") == ("City", "Country")
    assert tree.is_tree
    # leaf chains: Politician 2, Artist 2, Capital 3, Country 2 edges: n0 = 9/4
    assert tree.mean_leaf_chain_length == 2.25
    # chain_len = mean length of the leaf chains through the concept
    assert tree.chain_length("Thing") == 2.25
    assert tree.chain_length("Person") == 2.0
    assert tree.chain_length("Location") == 2.5  # Capital 3, Country 2
    assert tree.chain_length("City") == 3.0
    assert tree.chain_length("Country") == 2.0
    # branching: Thing 2, Person 2, Location 2, City 1: avg_branch = 7/4
    assert tree.branching("City") == 1
    assert tree.mean_branching == 1.75
    assert tree.chains("Capital") == [("Capital", "City", "Location", "Thing")]


def test_dag_chains_and_parameters(dag: Taxonomy) -> None:
    assert not dag.is_tree
    assert dag.parents("C") == ("A1", "B")
    # chains ordered by the parents' sorted names: via A1 first
    assert dag.chains("C") == [("C", "A1", "A", "Thing"), ("C", "B", "Thing")]
    assert dag.chain_count("C") == 2
    # leaf chains: C-A1-A-Thing 3, C-B-Thing 2, D-B-Thing 2: n0 = 7/3
    assert dag.mean_leaf_chain_length == pytest.approx(7 / 3, abs=1e-15)
    assert dag.chain_length("C") == 2.5
    assert dag.chain_length("B") == 2.0  # C-B-Thing, D-B-Thing
    assert dag.chain_length("A") == 3.0
    assert dag.mean_branching == 1.5  # Thing 2, A 1, A1 1, B 2


def test_path_counting_matches_listed_leaf_chains() -> None:
    for seed in range(5):
        tax = random_dag(40, seed)
        leaf_chains = [ch for leaf in tax.leaves for ch in tax.chains(leaf)]
        n0 = sum(len(ch) - 1 for ch in leaf_chains) / len(leaf_chains)
        assert tax.mean_leaf_chain_length == pytest.approx(n0, rel=1e-12)
        for c in tax.concepts:
            through = [len(ch) - 1 for ch in leaf_chains if c in ch]
            assert tax.chain_length(c) == pytest.approx(sum(through) / len(through), rel=1e-12)
            assert tax.chain_count(c) == len(tax.chains(c))


# ----------------------------------------------------------------------------------------------------------------
# BDM values


def test_tree_pairs_by_hand(tree: Taxonomy) -> None:
    # Politician / Artist: msca Person, cp 1, dpk = dpr = 1, bran = 2 / 1.75 = 8/7, n1 = n2 = 2;
    # x = 8/7 * 1 / 2.25 = 32/63; bdm = (32/63) / (32/63 + 1/2 + 1/2) = 32/95
    rec = bdm_pair(tree, "Politician", "Artist")
    assert rec.bdm == pytest.approx(32 / 95, abs=1e-15)
    assert (rec.msca, rec.cp, rec.dpk, rec.dpr, rec.n0, rec.n1, rec.n2) == ("Person", 1, 1, 1, 2.25, 2.0, 2.0)
    assert rec.bran == pytest.approx(8 / 7, abs=1e-15)
    # Capital / Country: msca Location, cp 1, dpk 2 (via City), dpr 1; bran = mean(Location 2, City 1) / 1.75 = 6/7;
    # n1 = 3, n2 = 2; x = 6/7 / 2.25 = 8/21; bdm = (8/21) / (8/21 + 2/3 + 1/2) = 16/65
    rec = bdm_pair(tree, "Capital", "Country")
    assert rec.bdm == pytest.approx(16 / 65, abs=1e-15)
    assert (rec.msca, rec.cp, rec.dpk, rec.dpr, rec.n1, rec.n2) == ("Location", 1, 2, 1, 3.0, 2.0)
    assert rec.bran == pytest.approx(6 / 7, abs=1e-15)
    # Capital / City (an ancestor): msca City, cp 2, dpk 1, dpr 0, bran = 1 / 1.75 = 4/7, n1 = n2 = 3;
    # x = 4/7 * 2 / 2.25 = 32/63; bdm = (32/63) / (32/63 + 1/3) = 32/53
    rec = bdm_pair(tree, "Capital", "City")
    assert rec.bdm == pytest.approx(32 / 53, abs=1e-15)
    assert (rec.msca, rec.cp, rec.dpk, rec.dpr) == ("City", 2, 1, 0)
    # Location / City: msca Location, cp 1, dpk 0, dpr 1, bran 8/7, n1 = 2.5, n2 = 3:
    # x = 32/63, bdm = (32/63) / (32/63 + 1/3) = 32/53 again
    assert bdm(tree, "Location", "City") == pytest.approx(32 / 53, abs=1e-15)
    # Politician / Capital: msca Thing (a top, cp 0): bdm 0; bran = mean(Thing 2, Person 2, Location 2, City 1) / 1.75
    rec = bdm_pair(tree, "Politician", "Capital")
    assert rec == BDMPair("Politician", "Capital", 0.0, "Thing", 0, 2, 3, 2.25, 2.0, 3.0, 1.0)


def test_identity(tree: Taxonomy, dag: Taxonomy) -> None:
    assert bdm_pair(tree, "City", "City") == BDMPair("City", "City", 1.0, "City", 2, 0, 0, 2.25, 1.0, 1.0, 1.0)
    assert bdm_pair(tree, "Thing", "Thing").cp == 0
    # C has chains of 3 and 2 edges: cp is the shortest
    rec = bdm_pair(dag, "C", "C")
    assert (rec.bdm, rec.msca, rec.cp, rec.dpk, rec.dpr, rec.n1, rec.n2, rec.bran) == (1.0, "C", 2, 0, 0, 1, 1, 1)


def test_dag_pairs_by_hand(dag: Taxonomy) -> None:
    # C / D: chain C-A1-A-Thing vs D-B-Thing: msca Thing, 0. Chain C-B-Thing vs D-B-Thing: msca B, cp 1,
    # dpk = dpr = 1, bran = 2 / 1.5 = 4/3, n1 = 2.5, n2 = 2: x = 4/3 / (7/3) = 4/7;
    # bdm = (4/7) / (4/7 + 1/2.5 + 1/2) = 40/103
    rec = bdm_pair(dag, "C", "D")
    assert rec.bdm == pytest.approx(40 / 103, abs=1e-15)
    assert (rec.msca, rec.cp, rec.dpk, rec.dpr, rec.n1, rec.n2) == ("B", 1, 1, 1, 2.5, 2.0)
    # C / A: chain C-A1-A-Thing vs A-Thing: msca A, cp 1, dpk 2, dpr 0, bran = mean(A 1, A1 1) / 1.5 = 2/3,
    # n1 = 2.5, n2 = 3: x = 2/3 / (7/3) = 2/7; bdm = (2/7) / (2/7 + 2/2.5) = 5/19. The other chain pair
    # (C-B-Thing, msca Thing) comes last and scores 0; GATE would report its MSCA, we report the best one.
    rec = bdm_pair(dag, "C", "A")
    assert rec.bdm == pytest.approx(5 / 19, abs=1e-15)
    assert (rec.msca, rec.cp, rec.dpk, rec.dpr) == ("A", 1, 2, 0)
    assert rec.bran == pytest.approx(2 / 3, abs=1e-15)


def test_two_tops_connected_chain_wins() -> None:
    # T1 -> A -> {C, R}; T2 -> B -> C: C's chains C-A-T1 (first) and C-B-T2 (different top from R's)
    tax = Taxonomy.from_edges([("A", "T1"), ("C", "A"), ("R", "A"), ("B", "T2"), ("C", "B")])
    # avg_branch = (T1 1 + A 2 + T2 1 + B 1) / 4 = 1.25; leaf chains C 2, C 2, R 2: n0 = 2
    # C / R: msca A, cp 1, dpk = dpr = 1, bran = 2 / 1.25 = 1.6, n1 = n2 = 2: x = 0.8, bdm = 0.8 / 1.8 = 4/9;
    # the later chain pair with no common top does not overwrite it (it would in GATE)
    rec = bdm_pair(tax, "C", "R")
    assert rec.bdm == pytest.approx(4 / 9, abs=1e-15)
    assert (rec.msca, rec.cp, rec.dpk, rec.dpr, rec.bran) == ("A", 1, 1, 1, 1.6)
    # C / T2: the first chain pair shares no top, the second has msca T2 (bdm 0): reported with its msca
    rec = bdm_pair(tax, "C", "T2")
    assert (rec.bdm, rec.msca, rec.cp, rec.dpk, rec.dpr) == (0.0, "T2", 0, 2, 0)
    # C / B: msca B, cp 1, dpk 1, dpr 0, bran = 1 / 1.25 = 0.8, n2 = 2: x = 0.4, bdm = 0.4 / 0.9 = 4/9
    assert bdm(tax, "C", "B") == pytest.approx(4 / 9, abs=1e-15)


def test_disconnected_concepts() -> None:
    # two trees: X -> Y -> Z and P -> Q; plus a lone concept L
    tax = Taxonomy.from_edges([("Y", "X"), ("Z", "Y"), ("Q", "P"), ("L", None)])
    # leaf chains Z 2, Q 1, L 0: n0 = 1; chain_len(Z) = 2, chain_len(Q) = 1
    rec = bdm_pair(tax, "Z", "Q")
    assert rec == BDMPair("Z", "Q", 0.0, None, -1, 2, 1, 1.0, 2.0, 1.0, 1.0)
    assert bdm_pair(tax, "L", "X") == BDMPair("L", "X", 0.0, None, -1, 0, 0, 1.0, 0.0, 2.0, 1.0)
    line = format_bdm_line(rec)
    assert line == "key=Z, response=Q, bdm=0.0, msca=null, cp=-1, dpk=2, dpr=1, n0=1.0, n1=2.0, n2=1.0, bran=1.0"
    assert parse_bdm_line(line) == rec


def test_gate_guide_line_is_reproduced() -> None:
    """The GATE user guide's line, every parameter reproduced exactly by :func:`gate_example`."""
    tax = gate_example()
    assert tax.mean_leaf_chain_length == 2.0
    assert tax.chain_length("Service") == 2.0
    assert tax.chain_length("Object") == pytest.approx(17 / 6, abs=1e-15)
    assert tax.branching("Object") == 9 and tax.mean_branching == pytest.approx(4.6, abs=1e-15)
    rec = bdm_pair(tax, "Service", "Object")
    assert (rec.msca, rec.cp, rec.dpk, rec.dpr) == ("Object", 1, 1, 0)
    assert rec.bran == pytest.approx(45 / 23, abs=1e-15)
    assert rec.bdm == pytest.approx(45 / 68, abs=1e-15)
    # the formula with the printed parameters: 1.9565217 * 1 / 2 / (1.9565217 / 2 + 1 / 2 + 0) = 0.6617647
    assert 1.9565217 / 2 / (1.9565217 / 2 + 1 / 2 + 0 / 2.8333333) == pytest.approx(0.6617647, abs=1e-7)
    assert format_bdm_line(rec) == GATE_LINE
    # in compute_bdm's record the key is the first in sorted order: Object, so dpk/dpr and n1/n2 swap
    scores = compute_bdm(tax)
    stored = scores.pair("Service", "Object")
    assert (stored.key, stored.response, stored.dpk, stored.dpr, stored.n1) == ("Object", "Service", 0, 1, rec.n2)
    assert stored.bdm == rec.bdm


def test_symmetry_and_reference_on_random_dags() -> None:
    for seed in range(4):
        tax = random_dag(25, seed, two_parents=0.4)
        for i, a in enumerate(tax.concepts):
            for b in tax.concepts[i:]:
                forward, backward = bdm_pair(tax, a, b), bdm_pair(tax, b, a)
                assert forward.bdm == backward.bdm  # exactly
                assert (forward.n1, forward.n2) == (backward.n2, backward.n1)
                assert 0.0 <= forward.bdm <= 1.0
                assert forward.bdm == pytest.approx(reference_bdm(tax, a, b), rel=1e-12, abs=1e-15)


def test_tree_shortcut_equals_general_computation() -> None:
    rng = random.Random(7)
    tax = Taxonomy.from_edges([("c0", None)] + [(f"c{i}", f"c{rng.randrange(i)}") for i in range(1, 60)])
    fast, general = _Engine(tax.chain_stats, 10_000), _Engine(tax.chain_stats, 10_000)
    general.fast_bran = False
    assert fast.fast_bran
    n = len(tax)
    for i in range(n):
        for j in range(i, n):
            assert fast.pair(i, j) == general.pair(i, j)


def test_too_many_chains_is_refused() -> None:
    # a ladder: each level has two concepts whose parents are both concepts of the level above:
    # a concept on level k has 2**k chains; 2**14 = 16384 > 10,000
    edges: list[tuple[str, str | None]] = [("L0a", None), ("L0b", None)]
    for k in range(1, 15):
        for side in "ab":
            edges += [(f"L{k}{side}", f"L{k - 1}a"), (f"L{k}{side}", f"L{k - 1}b")]
    tax = Taxonomy.from_edges(edges)
    assert tax.chain_count("L14a") == 2**14
    # the statistics come from path counting and need no chain list
    assert tax.mean_leaf_chain_length == 14.0
    with pytest.raises(InputError, match=r"'L14a' has 16384 chains.*max_chains=10000"):
        compute_bdm(tax)
    with pytest.raises(InputError, match="L14b"):
        bdm_pair(tax, "L0a", "L14b")
    assert bdm_pair(tax, "L3a", "L3b").bdm > 0
    with pytest.raises(InputError, match="'L3a' has 8 chains"):
        bdm_pair(tax, "L3a", "L3b", max_chains=4)


def test_deep_taxonomy() -> None:
    # one chain c0 <- c1 <- ... <- c2999: n0 = n1 = n2 = 2999; c2999 / c10: msca c10, cp 10, dpk 2989, every
    # concept in between has 1 child as on average: bran 1; bdm = (10/2999) / (10/2999 + 2989/2999) = 10/2999
    tax = Taxonomy.from_edges([(f"c{i}", f"c{i - 1}") for i in range(1, 3000)])
    rec = bdm_pair(tax, "c2999", "c10")
    assert (rec.msca, rec.cp, rec.dpk, rec.dpr, rec.bran, rec.n0) == ("c10", 10, 2989, 0, 1.0, 2999.0)
    assert rec.bdm == pytest.approx(10 / 2999, rel=1e-13)


def test_unknown_concept(tree: Taxonomy) -> None:
    with pytest.raises(InputError, match="'Dog' is not in taxonomy 'tiny'"):
        bdm(tree, "Dog", "City")


# ----------------------------------------------------------------------------------------------------------------
# scores


def test_compute_bdm_scores(tree: Taxonomy) -> None:
    scores = compute_bdm(tree)
    assert isinstance(scores, BDMScores)
    assert scores.name == "tiny"
    assert scores.concepts == tree.concepts
    assert len(scores) == 8 * 9 // 2  # unordered pairs with identity pairs
    assert all(rec.key <= rec.response for rec in scores)
    assert scores.get("Capital", "Country") == scores.get("Country", "Capital") == pytest.approx(16 / 65, abs=1e-15)
    assert scores.pair("Country", "Capital").key == "Capital"
    assert scores.get("City", "City") == 1.0
    assert scores.get("City", "Dog") is None and scores.get("Dog", "Dog") is None
    rows = scores.to_rows()
    assert rows[0] == {"key": "Artist", "response": "Artist", "bdm": 1.0, "msca": "Artist", "cp": 2, "dpk": 0,
                       "dpr": 0, "n0": 2.25, "n1": 1.0, "n2": 1.0, "bran": 1.0}
    assert compute_bdm(tree, name="other").name == "other"


def test_to_dataframe(tree: Taxonomy) -> None:
    pytest.importorskip("pandas")
    frame = compute_bdm(tree).to_dataframe()
    assert list(frame.columns) == ["key", "response", "bdm", "msca", "cp", "dpk", "dpr", "n0", "n1", "n2", "bran"]
    assert len(frame) == 36
    row = frame[(frame.key == "Artist") & (frame.response == "Politician")].iloc[0]
    assert row.bdm == pytest.approx(32 / 95, abs=1e-15)


def test_500_concepts_give_every_pair_once() -> None:
    rng = random.Random(0)
    tax = Taxonomy.from_edges([("c0", None)] + [(f"c{i}", f"c{rng.randrange(i)}") for i in range(1, 500)])
    scores = compute_bdm(tax)  # its time: benchmarks/bench_budgets.py
    assert len(scores) == 500 * 501 // 2


# ----------------------------------------------------------------------------------------------------------------
# BDM files


@pytest.mark.parametrize(("value", "text"), [
    (2.0, "2.0"), (45 / 68, "0.6617647"), (17 / 6, "2.8333333"), (45 / 23, "1.9565217"), (0.0, "0.0"),
    (1.0, "1.0"), (0.001, "0.001"), (1e-4, "1.0E-4"), (1.25e-5, "1.25E-5"), (1e7, "1.0E7"), (float("nan"), "NaN"),
])
def test_java_float(value: float, text: str) -> None:
    assert java_float(value) == text


def test_write_read_round_trip(tmp_path: Path, dag: Taxonomy) -> None:
    scores = compute_bdm(Taxonomy.from_edges(DAG + [("Lone", None)], name="dag plus"))
    path = write_bdm_file(scores, tmp_path / "out" / "dag.bdm.txt")
    assert [p.name for p in path.parent.iterdir()] == ["dag.bdm.txt"]  # no temporary file left behind
    lines = path.read_text(encoding="utf8").splitlines()
    assert lines[0] == "##The following are the BDM scores for each pair of concepts in the ontology named dag plus."
    assert len(lines) == 1 + len(scores)
    # Lone adds a leaf chain of 0 edges: n0 = 7/4; C / D: x = 4/3 / 1.75 = 16/21, bdm = (16/21) / (16/21 + 0.9)
    # = 160/349 = 0.45845272
    assert ("key=C, response=D, bdm=0.45845273, msca=B, cp=1, dpk=1, dpr=1, n0=1.75, n1=2.5, n2=2.0, "
            "bran=1.3333334") in lines
    back = read_bdm_file(path)
    assert back.name == "dag plus"
    assert back.concepts == scores.concepts
    assert len(back) == len(scores)
    for a, b in zip(scores, back, strict=True):
        assert (a.key, a.response, a.msca, a.cp, a.dpk, a.dpr) == (b.key, b.response, b.msca, b.cp, b.dpk, b.dpr)
        for f in ("bdm", "n0", "n1", "n2", "bran"):
            assert np.float32(getattr(a, f)) == np.float32(getattr(b, f))
    assert back.pair("Lone", "A").msca is None


def test_interrupted_write_keeps_the_old_file(tmp_path: Path, tree: Taxonomy,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    from spacy_anno_eval import files

    path = tmp_path / "tiny.bdm"
    path.write_text("old\n", encoding="utf8")

    def boom(src: str, dst: str) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(files.os, "replace", boom)
    with pytest.raises(AnnoEvalError, match="cannot write .*disk full"):
        write_bdm_file(compute_bdm(tree), path)
    assert path.read_text(encoding="utf8") == "old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["tiny.bdm"]


def test_read_gate_file(tmp_path: Path) -> None:
    path = tmp_path / "proton.txt"
    path.write_text("##The following are the BDM scores for each pair of concepts in the ontology named proton.\n"
                    f"{GATE_LINE}\r\n\n"
                    "key=Service, response=Service, bdm=1.0, msca=Service, cp=2, dpk=0, dpr=0, n0=2.0, n1=1.0, "
                    "n2=1.0, bran=1.0\n"
                    "key=Object, response=Service, bdm=0.6617647, msca=Object, cp=1, dpk=0, dpr=1, n0=2.0, "
                    "n1=2.8333333, n2=2.0, bran=1.9565217\n", encoding="utf8")
    scores = read_bdm_file(path)
    assert scores.name == "proton"
    assert scores.concepts == ("Object", "Service")
    assert len(scores) == 2  # the same pair listed the other way round is kept once
    assert scores.get("Service", "Object") == scores.get("Object", "Service") == pytest.approx(0.6617647, abs=1e-9)
    assert scores.pair("Object", "Service") == BDMPair("Service", "Object", 0.6617647, "Object", 1, 1, 0, 2.0, 2.0,
                                                       2.8333333, 1.9565217)
    assert scores.get("Object", "Object") == 1.0  # a known concept with itself
    assert scores.get("Object", "Thing") is None
    assert format_bdm_line(scores.pair("Service", "Object")) == GATE_LINE


def test_read_file_without_header_and_odd_names(tmp_path: Path) -> None:
    path = tmp_path / "plain.bdm"
    path.write_text("key=New York, USA, response=City, bdm=0.5, msca=City, cp=1, dpk=1, dpr=0, n0=2.0, n1=2.0, "
                    "n2=2.0, bran=1.0\n"
                    "bran=1.0, n2=2.0, n1=2.0, n0=2.0, dpr=0, dpk=1, cp=-1, msca=null, bdm=0.0, response=B, key=A\n",
                    encoding="utf8")
    scores = read_bdm_file(path)
    assert scores.name == "plain"
    assert scores.pair("City", "New York, USA").bdm == 0.5
    assert scores.pair("A", "B") == BDMPair("A", "B", 0.0, None, -1, 1, 0, 2.0, 2.0, 2.0, 1.0)


@pytest.mark.parametrize(("line", "message"), [
    ("key=A, response=B, bdm=0.5, msca=C, cp=1, dpk=1, dpr=0, n0=2.0, n1=2.0, n2=2.0", "missing field.*bran"),
    ("key=A, response=B, bdm=high, msca=C, cp=1, dpk=1, dpr=0, n0=2.0, n1=2.0, n2=2.0, bran=1.0",
     "bdm='high' is not a number"),
    ("key=A, response=B, bdm=0.5, msca=C, cp=1.5, dpk=1, dpr=0, n0=2.0, n1=2.0, n2=2.0, bran=1.0",
     "cp='1.5' is not an integer"),
    ("A and B are close", "does not start with 'key='"),
    ("key=A, key=B, response=B, bdm=0.5, msca=C, cp=1, dpk=1, dpr=0, n0=2.0, n1=2.0, n2=2.0, bran=1.0",
     "field 'key' appears twice"),
])
def test_read_malformed_line(tmp_path: Path, line: str, message: str) -> None:
    path = tmp_path / "bad.txt"
    path.write_text(f"##header\n{GATE_LINE}\n{line}\n", encoding="utf8")
    with pytest.raises(InputError, match=rf"bad.txt:3: {message}"):
        read_bdm_file(path)


def test_read_conflicting_duplicate(tmp_path: Path) -> None:
    path = tmp_path / "dup.txt"
    path.write_text(f"{GATE_LINE}\n{GATE_LINE.replace('0.6617647', '0.5')}\n", encoding="utf8")
    with pytest.raises(InputError, match=r"dup.txt:2: .*bdm=0.6617647 on line 1, now bdm=0.5"):
        read_bdm_file(path)
    with pytest.raises(InputError, match="no such file"):
        read_bdm_file(tmp_path / "missing.txt")


# ----------------------------------------------------------------------------------------------------------------
# taxonomy files


def test_read_tsv_taxonomy(tmp_path: Path) -> None:
    path = tmp_path / "onto.tsv"
    path.write_text("# a tiny taxonomy\n"
                    "Thing\n"
                    "  Person\tThing  \n"
                    "\n"
                    "Location\tThing\n"
                    "Politician\tPerson\n"
                    "Politician\tPerson\n"  # duplicate edge: harmless
                    "Artist\tPerson\n"
                    "City\tLocation\n"
                    "Capital\tCity\n"
                    "Country\tLocation\n"
                    "Orphan\n", encoding="utf8")
    tax = read_taxonomy(path)
    assert tax.name == "onto"
    assert tax.edges == Taxonomy.from_edges(TREE).edges
    assert tax.tops == ("Orphan", "Thing")
    # Orphan adds a leaf chain of 0 edges: n0 = 9/5; the Capital / Country numbers change accordingly
    assert tax.mean_leaf_chain_length == 1.8
    assert bdm(tax, "Politician", "Orphan") == 0.0
    assert read_taxonomy(path, name="x").name == "x"


@pytest.mark.parametrize(("text", "message"), [
    ("Person\tThing\n\nPolitician\tPerson\tExtra\n", r"onto.txt:3: 3 tab-separated fields"),
    ("# c\nPerson\tPerson\n", r"onto.txt:2: .*'Person' is its own parent"),
    ("Person\t\tThing\n", r"onto.txt:1: 3 tab-separated fields \(some empty: two tabs in a row\?\)"),
    ("A\tB\nX\tY\nB\tC\nC\tA\n", r"onto.txt:1: .*subclass cycle A -> B -> C -> A \(edges at .*onto.txt:1, "
                                 r".*onto.txt:3, .*onto.txt:4\)"),
])
def test_tsv_errors(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "onto.txt"
    path.write_text(text, encoding="utf8")
    with pytest.raises(InputError, match=message):
        read_taxonomy(path)


def test_cycle_and_self_loop_from_edges() -> None:
    with pytest.raises(InputError, match=r"subclass cycle B -> C -> B; a taxonomy must be acyclic"):
        Taxonomy.from_edges([("A", "B"), ("B", "C"), ("C", "B")])
    with pytest.raises(InputError, match="its own parent"):
        Taxonomy.from_edges([("A", "A")])
    with pytest.raises(InputError, match="non-empty strings"):
        Taxonomy.from_edges([("", "A")])
    with pytest.raises(InputError, match="cycle"):
        Taxonomy({"A": ["B"], "B": ["A"]})
    assert Taxonomy({"A": ["B"], "C": []}).tops == ("B", "C")


def test_missing_taxonomy_file(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="nope.tsv: no such file"):
        read_taxonomy(tmp_path / "nope.tsv")


TURTLE = """\
@prefix : <http://example.org/onto#> .
@prefix geo: <http://example.org/geo/> .
@prefix owl: <http://www.w3.org/2002/07/owl#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .

:Agent a owl:Class ; rdfs:subClassOf owl:Thing .
:Person a owl:Class ; rdfs:subClassOf :Agent .
:Politician a owl:Class ; rdfs:subClassOf :Person .
:Artist a owl:Class ;
    rdfs:subClassOf :Person , [ a owl:Restriction ; owl:onProperty :livesIn ; owl:someValuesFrom :City ] .
:Location a owl:Class .
:City a owl:Class ; rdfs:subClassOf :Location .
geo:City a owl:Class ; rdfs:subClassOf :Location .
:Capital rdfs:subClassOf :City .
:livesIn a owl:ObjectProperty .
"""


def test_read_turtle_taxonomy(tmp_path: Path) -> None:
    pytest.importorskip("rdflib")
    path = tmp_path / "onto.ttl"
    path.write_text(TURTLE, encoding="utf8")
    tax = read_taxonomy(path)
    # owl:Thing is dropped, the restriction (a blank node) skipped, the two Cities keep their full IRIs
    assert tax.concepts == ("Agent", "Artist", "Capital", "Location", "Person", "Politician",
                            "http://example.org/geo/City", "http://example.org/onto#City")
    assert tax.tops == ("Agent", "Location")
    assert tax.parents("Capital") == ("http://example.org/onto#City",)
    assert tax.parents("http://example.org/geo/City") == ("Location",)
    # leaf chains: Politician 2, Artist 2, Capital 2, geo City 1: n0 = 7/4; avg_branch = (1 + 2 + 2 + 1) / 4 = 1.5
    # Politician / Artist: msca Person, cp 1, dpk = dpr = 1, bran = 2 / 1.5 = 4/3, n1 = n2 = 2:
    # x = 4/3 / (7/4) = 16/21, bdm = (16/21) / (16/21 + 1) = 16/37
    assert bdm(tax, "Politician", "Artist") == pytest.approx(16 / 37, abs=1e-15)


def test_read_rdfxml_taxonomy(tmp_path: Path) -> None:
    pytest.importorskip("rdflib")
    path = tmp_path / "small.owl"
    path.write_text("""<?xml version="1.0"?>
<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"
         xmlns:rdfs="http://www.w3.org/2000/01/rdf-schema#"
         xmlns:owl="http://www.w3.org/2002/07/owl#">
  <owl:Class rdf:about="http://example.org/o#Entity">
    <rdfs:subClassOf rdf:resource="http://www.w3.org/2002/07/owl#Thing"/>
  </owl:Class>
  <owl:Class rdf:about="http://example.org/o#Object">
    <rdfs:subClassOf rdf:resource="http://example.org/o#Entity"/>
  </owl:Class>
  <owl:Class rdf:about="http://example.org/o#Service">
    <rdfs:subClassOf rdf:resource="http://example.org/o#Object"/>
  </owl:Class>
  <owl:Class rdf:about="http://example.org/o#Product">
    <rdfs:subClassOf rdf:resource="http://example.org/o#Object"/>
  </owl:Class>
  <owl:Class rdf:about="http://example.org/o#Abstract"/>
</rdf:RDF>
""", encoding="utf8")
    tax = read_taxonomy(path)
    assert tax.name == "small"
    assert tax.concepts == ("Abstract", "Entity", "Object", "Product", "Service")
    assert tax.tops == ("Abstract", "Entity")
    # leaf chains Service 2, Product 2, Abstract 0: n0 = 4/3; avg_branch = (1 + 2) / 2 = 1.5
    # Service / Product: msca Object, cp 1, dpk = dpr = 1, bran = 2 / 1.5 = 4/3, n1 = n2 = 2:
    # x = 4/3 / (4/3) = 1, bdm = 1 / (1 + 1) = 0.5
    assert bdm(tax, "Service", "Product") == pytest.approx(0.5, abs=1e-15)
    assert bdm_pair(tax, "Service", "Abstract").msca is None


def test_rdf_errors(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("rdflib")
    bad = tmp_path / "broken.ttl"
    bad.write_text("this is not turtle at all <<<\n", encoding="utf8")
    with pytest.raises(InputError, match=r"broken.ttl: not a valid RDF file in format 'turtle'"):
        read_taxonomy(bad)
    cyclic = tmp_path / "cyclic.ttl"
    cyclic.write_text("@prefix : <http://e.org/#> .\n@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n"
                      ":A rdfs:subClassOf :B .\n:B rdfs:subClassOf :A .\n", encoding="utf8")
    with pytest.raises(InputError, match=r"cyclic.ttl: .*subclass cycle A -> B -> A"):
        read_taxonomy(cyclic)
    monkeypatch.setitem(sys.modules, "rdflib", None)  # as if rdflib were not installed
    with pytest.raises(InputError, match=r'pip install "spacy-anno-eval\[owl\]"'):
        read_taxonomy(cyclic)
