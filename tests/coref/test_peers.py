"""Where the coreference peers disagree with each other, the case and which rule we follow (issue 29; the shared
README's "Where implementations disagree")."""

from __future__ import annotations

import warnings

import pytest

from spacy_anno_eval.coref.conll2012 import CorefDocument, read_conll2012
from spacy_anno_eval.coref.corefud import read_corefud
from spacy_anno_eval.coref.metrics import score_documents
from spacy_anno_eval.errors import CorefWarning


def doc(*entities):
    return CorefDocument("d", ("w",) * 10, tuple(tuple((m, m) for m in e) for e in entities))


def test_lea_counts_a_singleton_as_one_self_link_resolved_only_when_alone_on_the_other_side():
    """LEA with singletons: coval and the CorefUD scorer give an entity of one mention one "self-link", resolved
    when the other side also has that mention alone (the Perl scorer has no LEA). We follow them, so a key
    singleton that the response merges into an entity costs recall, and one left alone does not; with
    --no-singletons such entities take no part at all."""
    key = doc([0, 1], [2], [3])
    alone = doc([0, 1], [2], [3])
    merged = doc([0, 1, 2], [3])
    assert score_documents([key], [alone]).figures()["lea"]["r"] == 1.0
    # key: {0,1} resolved (weight 2), {2} not (merged into a response entity), {3} resolved: R = (2 + 0 + 1) / 4
    assert score_documents([key], [merged]).figures()["lea"]["r"] == pytest.approx(3 / 4)
    removed = score_documents([key], [merged], keep_singletons=False).figures()["lea"]
    # without singletons: key {0,1}; response {0,1,2}: R 1, P = 3 * (1/3) / 3
    assert (removed["r"], removed["p"]) == pytest.approx((1.0, 1 / 3))


def test_a_mention_in_two_entities_stays_in_the_first_in_conll2012_and_in_the_last_in_corefud(tmp_path):
    """The same response in both formats: mention 3 written in entity 1 and again in entity 2. The CoNLL-2012
    reader keeps it where it opened first (the Perl scorer's de-duplication, the official A8/A9 values); the
    CorefUD reader keeps it in the last entity, as the CorefUD scorer does. Each format follows its own official
    scorer, so the two give different MUC here, as the scorers do."""
    conll = ("#begin document (d); part 000\n" + "".join(
        f"d 0 {i} w{i} {field}\n" for i, field in enumerate(["(1)", "(1)", "(2)", "(1)|(2)"])) + "#end document\n")
    key_conll = conll.replace("(1)|(2)", "(1)")
    cols = "\t".join(["_"] * 7)

    def conllu(fields):
        rows = [f"{i + 1}\tw{i}\t{cols}\t" + (f"Entity={f}" if f else "_") for i, f in enumerate(fields)]
        return "# newdoc id = d\n# global.Entity = eid-etype-head-other\n# sent_id = 1\n" + "\n".join(rows) + "\n\n"

    files = {"k.conll": key_conll, "r.conll": conll,
             "k.conllu": conllu(["(e1-x-1-)", "(e1-x-1-)", "(e2-x-1-)", "(e1-x-1-)"]),
             "r.conllu": conllu(["(e1-x-1-)", "(e1-x-1-)", "(e2-x-1-)", "(e1-x-1-)(e2-x-1-)"])}
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf8")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        first = score_documents(read_conll2012(tmp_path / "k.conll"), read_conll2012(tmp_path / "r.conll"))
        last = score_documents(read_corefud(tmp_path / "k.conllu"), read_corefud(tmp_path / "r.conllu"),
                               blanc="corefud")
    assert sum(issubclass(w.category, CorefWarning) for w in caught) == 2
    assert first.figures()["muc"]["f"] == 1.0  # mention 3 stays in entity 1: the response equals the key
    assert last.figures()["muc"]["r"] == pytest.approx(1 / 2)  # mention 3 moved to entity 2: one key link lost
