"""Our TnT (:class:`~spacy_anno_eval.trees.tnt.TrigramHMM`) against NLTK's ``nltk.tag.tnt.TnT`` (Brants 2000).

Both are trained on the same ``(output, state)`` sequences of the shared treebanks: (category of child,
function) per phrase of the NEGRA/TIGER/Alpino samples, (UPOS, deprel) per dependency phrase of UD EWT (the
sequences :mod:`~spacy_anno_eval.trees.structure` gives the structure models) and (UPOS, deprel) and (form,
UPOS) per UD sentence. Asserted: the same deleted-interpolation weights (to 1e-9) and the same tag sequences on
held-out sequences.

NLTK's configuration that makes the two the same model:

- ``N=2**100000``: NLTK prunes the Viterbi beam at ``log2(N)`` below the best path; ours has no beam, so NLTK's
  is made wide enough to prune nothing;
- the suffix tries emptied after training (``_suffix_trie_by_cap``): NLTK 3.10 handles an unseen word with
  Brants' suffix model; with no suffix matched, every tag scores 1 -- the same for every state, which is our
  rule for an unseen output (``1 / (n + 1)`` under every state: the state is chosen by the transitions).
  Without that change the two still agree on held-out sequences whose outputs were all seen
  (``test_default_nltk_on_known_outputs``).

``C=False`` (NLTK's default): no capitalisation split of the states.
"""

from __future__ import annotations

import random

import pytest

from spacy_anno_eval.trees.conllu import read_conllu
from spacy_anno_eval.trees.readers import read_phrase_trees
from spacy_anno_eval.trees.structure import substructures
from spacy_anno_eval.trees.tnt import TrigramHMM
from tests.conftest import shared_file

tnt = pytest.importorskip("nltk.tag.tnt")
probability = pytest.importorskip("nltk.probability")


def _nltk(train, *, suffix_model: bool = False):
    tagger = tnt.TnT(N=2 ** 100000)
    tagger.train(train)
    if not suffix_model:
        tagger._suffix_trie_by_cap = {False: probability.ConditionalFreqDist(),
                                      True: probability.ConditionalFreqDist()}
    return tagger


def _phrase_sequences():
    trees = []
    for case in ("disc_alpino3", "disc_wh_continuous"):
        for side in ("gold.export", "test.export"):
            trees += read_phrase_trees(shared_file("treebank", case, side))
    return [list(zip(p.outputs, p.states, strict=True)) for t in trees for p in substructures(t)]


def _ud(kind: str):
    sents = list(read_conllu(shared_file("ud_ewt", "en_ewt-ud-test.first300.r2.16.conllu")))
    if kind == "phrases":
        return [list(zip(p.outputs, p.states, strict=True)) for s in sents for p in substructures(s)]
    if kind == "upos-deprel":
        return [[(w.upos, w.deprel) for w in s.words] for s in sents]
    return [[(w.form, w.upos) for w in s.words] for s in sents]


DATASETS = {"phrase samples (category, function)": _phrase_sequences,
            "UD EWT dependency phrases (UPOS, deprel)": lambda: _ud("phrases"),
            "UD EWT sentences (UPOS, deprel)": lambda: _ud("upos-deprel"),
            "UD EWT sentences (form, UPOS)": lambda: _ud("form-upos")}


def _split(seqs, held_out=0.2, seed=0):
    seqs = [s for s in seqs if s]
    idx = list(range(len(seqs)))
    random.Random(seed).shuffle(idx)
    cut = max(1, int(len(seqs) * held_out))
    return [seqs[i] for i in idx[cut:]], [seqs[i] for i in idx[:cut]]


@pytest.mark.parametrize("name", DATASETS)
def test_same_lambdas_and_tags(name):
    train, test = _split(DATASETS[name]())
    ours = TrigramHMM.fit(train)
    theirs = _nltk(train)
    assert ours.lambdas == pytest.approx((theirs._lambda1, theirs._lambda2, theirs._lambda3), abs=1e-9)
    assert sum(ours.lambdas) == pytest.approx(1.0, abs=1e-12)
    unseen = sum(o not in ours.outputs for seq in test for o, _ in seq)
    for seq in test:
        outputs = [o for o, _ in seq]
        assert ours.tag(outputs) == [t for _, t in theirs.tag(outputs)], outputs
    if name.endswith("(form, UPOS)"):
        assert unseen > 100  # the unseen-output rule is exercised


@pytest.mark.parametrize("name", ["UD EWT sentences (UPOS, deprel)", "UD EWT dependency phrases (UPOS, deprel)"])
def test_default_nltk_on_known_outputs(name):
    """NLTK with its default suffix model: the same tags wherever every output was seen in training."""
    train, test = _split(DATASETS[name](), seed=1)
    ours = TrigramHMM.fit(train)
    theirs = _nltk(train, suffix_model=True)
    known = [s for s in test if all(o in ours.outputs for o, _ in s)]
    assert len(known) > 10
    for seq in known:
        outputs = [o for o, _ in seq]
        assert ours.tag(outputs) == [t for _, t in theirs.tag(outputs)]


def test_lambdas_on_the_whole_treebank():
    """Training on all 300 UD sentences: the weights agree to 1e-9 and sum to 1."""
    seqs = _ud("upos-deprel")
    ours = TrigramHMM.fit(seqs)
    theirs = _nltk(seqs)
    assert ours.lambdas == pytest.approx((theirs._lambda1, theirs._lambda2, theirs._lambda3), abs=1e-9)


def test_viterbi_probability_is_the_best_path():
    """The Viterbi sequence's probability is ``log_prob`` of that sequence and no other state sequence of the
    first held-out sequences scores higher (brute force over the seen states on short sequences)."""
    import itertools

    train, test = _split(_ud("phrases"), seed=2)
    ours = TrigramHMM.fit(train)
    short = [s for s in test if len(s) <= 3][:20]
    assert short
    for seq in short:
        outputs = [o for o, _ in seq]
        best = ours.tag(outputs)
        lp = ours.log_prob(outputs, best)
        assert ours.best_log_prob(outputs) == pytest.approx(lp, abs=1e-9)
        live = [s for s in ours.states if ours.counts.uni[ours.states.index(s)] > 0]
        allowed = [[s for s in live if o not in ours.outputs or
                    ours.counts.emit[ours.states.index(s), ours.outputs.index(o)] > 0] for o in outputs]
        brute = max(ours.log_prob(outputs, list(g)) for g in itertools.product(*allowed))
        assert brute == pytest.approx(lp, abs=1e-9)
