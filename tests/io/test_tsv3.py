"""WebAnno / INCEpTION TSV 3 reader (io/tsv3.py): the shared INCEpTION test-suite files, synthetic edge cases,
and dkpro-cassis reading the XMI twin of a TSV file as the peer."""

from __future__ import annotations

import os
import warnings
from pathlib import Path

import pytest

from spacy_anno_eval.errors import ConfigError, CoveredTextWarning, InputError, ReaderNoteWarning
from spacy_anno_eval.io import detect_format, read_corpus
from spacy_anno_eval.io.tsv3 import read_tsv3, unescape_text, unescape_value
from tests.conftest import SHARED_DATA, shared_file

FMT = ("formats", "webanno_tsv3")
SHARED = [
    "multipleStackedAnnotationsAreNotMergedTest__curator.tsv",
    "multipleStackedAnnotationsAreNotMergedTest__user1.tsv",
    "multipleStackedAnnotationsAreNotMergedTest__user2.tsv",
    "relationLabelTest__curator.tsv",
    "relationLabelTest__user1.tsv",
    "relationLabelTest__user2.tsv",
    "simpleRelGovDiffTest__curator.tsv",
    "simpleRelGovDiffTest__user1.tsv",
    "simpleRelGovDiffTest__user2.tsv",
    "simpleSpanDiffWithLabelStackingTest__curator.tsv",
    "simpleSpanDiffWithLabelStackingTest__user1.tsv",
    "simpleSpanDiffWithLabelStackingTest__user2.tsv",
    "tsv3suite_testSentenceWithLineBreak_reference.tsv",
    "tsv3suite_testTokenBoundedStackedSpanWithFeatureValue_reference.tsv",
]
NE = "de.tudarmstadt.ukp.dkpro.core.api.ner.type.NamedEntity"
HEAD = f"#FORMAT=WebAnno TSV 3.3\n#T_SP={NE}|identifier|value\n\n\n"


def spans(corpus, name: str) -> list[tuple[int, int, str]]:
    t = corpus.get_set(name)
    return sorted((int(s), int(e), str(lab)) for s, e, lab in zip(t.start, t.end, t.label_names(), strict=True))


def write(tmp_path: Path, text: str, name: str = "doc__ann.tsv") -> Path:
    p = tmp_path / name
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(text, encoding="utf-8")
    return p


def link_variants(tmp_path: Path, test: str) -> Path:
    """A folder with the user1/user2/curator files of one shared test (symlinks, not copies)."""
    folder = tmp_path / test
    folder.mkdir()
    for user in ("curator", "user1", "user2"):
        os.symlink(shared_file(*FMT, f"{test}__{user}.tsv"), folder / f"{test}__{user}.tsv")
    return folder


# -- the shared files -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", SHARED)
def test_every_shared_file_reads(name: str) -> None:
    path = shared_file(*FMT, name)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no token form differs from the rebuilt text
        warnings.filterwarnings("ignore", r".*relation annotation\(s\) \(Dependency\) left out")  # issue 26
        c = read_tsv3(path)
    stem = path.stem
    user = stem.rsplit("__", 1)[1] if "__" in stem else stem
    assert c.found_sets == ["ents", "spans", f"spans:{user}"]
    assert len(c.doc_ids) == 1 and c.texts[0]
    assert c.covered(f"spans:{user}").all()
    assert detect_format(path) == "tsv3"


def test_stacked_labels_on_a_multi_token_span() -> None:
    """user1: ORG[1]|ORGpart[2] on 'Champions League' (two tokens); user2 stacks ORG twice."""
    one = read_tsv3(shared_file(*FMT, "multipleStackedAnnotationsAreNotMergedTest__user1.tsv"), label_feature="value")
    assert one.texts[0][40:56] == "Champions League"
    assert spans(one, "spans:user1") == [(40, 56, "ORG"), (40, 56, "ORGpart")]
    two = read_tsv3(shared_file(*FMT, "multipleStackedAnnotationsAreNotMergedTest__user2.tsv"), label_feature="value")
    assert spans(two, "ents") == [(40, 56, "ORG"), (40, 56, "ORG"), (40, 56, "ORGpart")]
    default = read_tsv3(shared_file(*FMT, "multipleStackedAnnotationsAreNotMergedTest__user1.tsv"),
                        features=["value"])
    assert spans(default, "ents") == [(40, 56, "NamedEntity")] * 2  # the label is the layer's short name
    assert sorted(f["value"] for f in default.get_set("ents").features) == ["ORG", "ORGpart"]


def test_three_annotators_as_a_folder(tmp_path: Path) -> None:
    folder = link_variants(tmp_path, "multipleStackedAnnotationsAreNotMergedTest")
    c = read_corpus(folder, label_feature="value")  # auto-detected as tsv3
    assert c.doc_ids == ["multipleStackedAnnotationsAreNotMergedTest"]
    assert c.found_sets == ["spans:curator", "spans:user1", "spans:user2"]
    assert c.annotator_sets == c.found_sets
    assert spans(c, "spans:curator") == []  # the empty curation: covered, no spans
    assert c.covered("spans:curator").all()
    assert len(spans(c, "spans:user1")) == 2 and len(spans(c, "spans:user2")) == 3


def test_inception_export_layout(tmp_path: Path) -> None:
    """annotation/<doc>/<user>.tsv: the document is the folder, the set the file stem."""
    test = "simpleSpanDiffWithLabelStackingTest"
    for user in ("user1", "user2"):
        d = tmp_path / "annotation" / "match.txt"
        d.mkdir(parents=True, exist_ok=True)
        os.symlink(shared_file(*FMT, f"{test}__{user}.tsv"), d / f"{user}.tsv")
    c = read_tsv3(tmp_path / "annotation", label_feature="value")
    assert c.doc_ids == ["match.txt"] and c.found_sets == ["spans:user1", "spans:user2"]
    assert spans(c, "spans:user1") == spans(c, "spans:user2") == [(40, 56, "ORG"), (40, 56, "ORG")]
    single = read_tsv3(tmp_path / "annotation" / "match.txt" / "user2.tsv")
    assert single.doc_ids == ["match.txt"] and single.found_sets[-1] == "spans:user2"


def test_pos_lemma_escapes_and_relations_left_out() -> None:
    with pytest.warns(ReaderNoteWarning, match=r"relationLabelTest__user1.tsv: 26 relation annotation\(s\) "
                                               r"\(Dependency\) left out"):
        c = read_tsv3(shared_file(*FMT, "relationLabelTest__user1.tsv"), features=["*"])
    t = c.get_set("ents")
    labels = t.label_names().tolist()
    assert labels.count("POS") == 26 and labels.count("Lemma") == 26 and len(t) == 52  # no Dependency span
    text = c.texts[0]
    assert "darüber" in text and "Universitäten" in text
    lemmas = {text[s:e]: f["value"]
              for s, e, lab, f in zip(t.start, t.end, labels, t.features, strict=True) if lab == "Lemma"}
    assert lemmas["sich"] == "er|es|sie"  # written er\|es\|sie
    pos = [f for lab, f in zip(labels, t.features, strict=True) if lab == "POS"]
    assert pos[0] == {"PosValue": "ADV", "coarseValue": "ADV"}
    only_pos = read_tsv3(shared_file(*FMT, "relationLabelTest__user1.tsv"), layers=["POS"], label_feature="PosValue")
    assert len(only_pos.get_set("ents")) == 26 and spans(only_pos, "ents")[0] == (0, 10, "ADV")
    with pytest.warns(ReaderNoteWarning, match=r"simpleRelGovDiffTest__user2.tsv: 1 relation annotation\(s\) "
                                               r"\(Dependency\) left out"):
        gov = read_tsv3(shared_file(*FMT, "simpleRelGovDiffTest__user2.tsv"), label_feature="PosValue")
    assert spans(gov, "ents") == [(5, 7, "VAFIN"), (17, 25, "NE")]


def test_sentence_with_line_break() -> None:
    c = read_tsv3(shared_file(*FMT, "tsv3suite_testSentenceWithLineBreak_reference.tsv"))
    assert c.texts == ["This is\na test ."]  # two #Text= lines joined by the line break
    assert spans(c, "ents") == [(0, 4, "Span")]  # '*': a span whose feature is null keeps the layer name


def test_same_spans_and_values_as_cassis_on_the_xmi_twin() -> None:
    """INCEpTION ships the XMI the TSV was written from: dkpro-cassis reading it gives the same 10 stacked spans
    (code points) with the same values, and the same text."""
    cassis = pytest.importorskip("cassis")
    xmi = shared_file(*FMT, "tsv3suite_testTokenBoundedStackedSpanWithFeatureValue_reference.xmi")
    types = shared_file("formats", "uima_cas_xmi", "important_dkpro_types.xml")
    with open(types, "rb") as f:
        ts = cassis.load_typesystem(f)
    with open(xmi, "rb") as f:
        cas = cassis.load_cas_from_xmi(f, typesystem=ts)
    peer = sorted((a.begin, a.end, a.value) for a in cas.select(NE))
    c = read_tsv3(xmi.with_suffix(".tsv"), label_feature="value")
    ours = spans(c, "ents")
    assert len(peer) == len(ours) == 10
    assert ours == peer
    assert c.texts[0] == cas.sofa_string


# -- synthetic files --------------------------------------------------------------------------------------------


def test_emoji_offsets_are_utf16(tmp_path: Path) -> None:
    """The spec's own example: an emoji advances the UTF-16 count by 2; the spans cover the right characters."""
    p = write(tmp_path, HEAD + "#Text=I like it \U0001F600 New York .\n"
              "1-1\t0-1\tI\t_\t_\t\n"
              "1-2\t2-6\tlike\t_\t_\t\n"
              "1-3\t7-9\tit\t_\t_\t\n"
              "1-4\t10-12\t\U0001F600\t*\tEMO\t\n"
              "1-5\t13-16\tNew\t*[1]\tLOC[1]\t\n"
              "1-6\t17-21\tYork\t*[1]\tLOC[1]\t\n"
              "1-7\t22-23\t.\t_\t_\t\n")
    with warnings.catch_warnings():
        warnings.simplefilter("error", CoveredTextWarning)
        c = read_tsv3(p, label_feature="value")
    text = c.texts[0]
    assert text == "I like it \U0001F600 New York ."
    got = {text[s:e]: lab for s, e, lab in spans(c, "spans:ann")}
    assert got == {"\U0001F600": "EMO", "New York": "LOC"}
    assert spans(c, "ents") == [(10, 11, "EMO"), (12, 20, "LOC")]


def test_several_sentences_gaps_sub_tokens_and_escapes(tmp_path: Path) -> None:
    p = write(tmp_path, HEAD +
              "#Sentence.id=s1\n#Text=Ms. Haag plays .\n"
              "1-1\t0-3\tMs.\t*[1]\tPER[1]|PERpart[2]\t\n"
              "1-2\t4-8\tHaag\t*[1]\tPER[1]\t\n"
              "1-3\t9-14\tplays\t_\t_\t\n"
              "1-3.1\t9-13\tplay\t_\ta\\|b\\[c\\]\\_\\*\\;\\->\\\\\t\n"
              "1-3.2\t13-14\ts\t_\t_\t\n"
              "1-4\t15-16\t.\t_\t_\t\n"
              "\n#Text=Bob\\tsaid .\n"
              "2-1\t20-23\tBob\t_\tX[3]\t\n"
              "2-2\t24-28\tsaid\tq\\|1\tX[3]\t\n"
              "2-3\t29-30\t.\t_\t_\t\n"
              "\n#Text=Next\n"
              "3-1\t30-34\tNext\t*\t\\_\t\n")
    with warnings.catch_warnings():
        warnings.simplefilter("error", CoveredTextWarning)
        c = read_tsv3(p, label_feature="value", features=["identifier"])
    # the gap before sentence 2 is filled with spaces; sentence 3 starts right after sentence 2 (line break dropped)
    assert c.texts[0] == "Ms. Haag plays .\n   Bob\tsaid .Next"
    text = c.texts[0]
    got = [(text[s:e], lab) for s, e, lab in spans(c, "ents")]
    assert got == [("Ms.", "PERpart"), ("Ms. Haag", "PER"), ("play", "a|b[c]_*;->\\"), ("Bob\tsaid", "X"),
                   ("Next", "_")]
    feats = c.get_set("ents").features
    assert {"identifier": "q|1"} in feats  # 'said' adds its identifier to the multi-token X[3]


def test_chain_layer_elements_are_spans(tmp_path: Path) -> None:
    p = write(tmp_path, "#FORMAT=WebAnno TSV 3.3\n"
              "#T_CH=de.tudarmstadt.ukp.dkpro.core.api.coref.type.CoreferenceLink|referenceType|referenceRelation\n"
              "\n\n#Text=He shot himself .\n"
              "1-1\t0-2\tHe\tpr[1]\tcoref->1-1\t\n"
              "1-2\t3-7\tshot\t_\t_\t\n"
              "1-3\t8-15\thimself\tpr[1]\t*->1-2\t\n"
              "1-4\t16-17\t.\t_\t_\t\n")
    c = read_tsv3(p, features=["*"])
    t = c.get_set("ents")
    assert spans(c, "ents") == [(0, 2, "CoreferenceLink"), (8, 15, "CoreferenceLink")]
    assert t.features == [{"referenceType": "pr", "referenceRelation": "coref"}, {"referenceType": "pr"}]


def test_token_form_that_differs_from_the_text_warns(tmp_path: Path) -> None:
    p = write(tmp_path, HEAD + "#Text=Ada met Bob\n1-1\t0-3\tAda\t_\t_\t\n1-2\t4-7\tmet\t_\t_\t\n"
              "1-3\t8-11\tRob\t*\tPER\t\n")
    with pytest.warns(CoveredTextWarning, match="token form"):
        c = read_tsv3(p)
    assert spans(c, "ents") == [(8, 11, "NamedEntity")]


def test_unescaping_helpers() -> None:
    assert unescape_value(r"a\|b\_c\*\[1\]\;\->\\\t") == "a|b_c*[1];->\\\t"
    assert unescape_text(r"a\tb\\c\r") == "a\tb\\c\r"
    assert unescape_text(r"caf\u00e9", minor=1) == "café"


@pytest.mark.parametrize("content, message", [
    ("", "empty file"),
    ("garbage\n", "WebAnno TSV 3"),
    ("#FORMAT=WebAnno TSV 2.0\n", "WebAnno TSV 3"),
    ("\x00\x01\x02 binary", "WebAnno TSV 3"),
    (HEAD + "1-1\t0-3\tAda\t_\t_\t\n", "outside a sentence"),
    (HEAD + "#Text=Ada\n1-1\t0-3\tAda\n", "expected 5 tab-separated fields"),
    (HEAD + "#Text=Ada\n1-1\t0-3\tAda\t_\t_\tX\tY\n", "declares 2"),
    (HEAD + "#Text=Ada\nx-1\t0-3\tAda\t_\t_\t\n", "token line"),
    (HEAD + "#Text=Ada\n1-1\t0-x\tAda\t_\t_\t\n", "token line"),
    (HEAD + "#Text=Ada\n1-1\t3-0\tAda\t_\t_\t\n", "end before"),
    (HEAD + "#Text=Ada\n1-1\t0-9\tAda\t_\t_\t\n", "beyond the text"),
    (HEAD + "#Text=Ada\n1-1\t0-3\tAda\t*[x]\tPER[x]\t\n", "not a number"),
    (HEAD + "#Text=Ada\n1-1\t0-3\tAda\t*\tPER]\t\n", "disambiguation"),
    (HEAD + "#Text=Ada\n1-1\t0-3\tAda\t_\t_\t\n\n#Text=Bob\n2-1\t1-4\tBob\t_\t_\t\n", "inside the text"),
    (HEAD + "#Text=\U0001F600 x\n1-1\t0-1\t\U0001F600\t*\tE\t\n", "surrogate pair"),
    (HEAD + "#Text=Ada\n\n1-1\t0-3\tAda\t_\t_\t\n", "without tokens"),
    (HEAD + "#Text=Ada\n1-1.1\t0-3\tAda\t_\t_\t\n", "sub-token"),
    (HEAD + "#Text=Ada\n", "without tokens"),
])
def test_malformed_input_is_a_located_input_error(tmp_path: Path, content: str, message: str) -> None:
    p = write(tmp_path, content)
    with pytest.raises(InputError, match=message) as err:
        read_tsv3(p)
    assert str(p) in str(err.value)


def test_not_utf8_is_an_input_error(tmp_path: Path) -> None:
    p = tmp_path / "x.tsv"
    p.write_bytes(b"#FORMAT=WebAnno TSV 3.3\n\n\n#Text=caf\xe9\n")
    with pytest.raises(InputError, match="UTF-8"):
        read_tsv3(p)


def test_folder_rules(tmp_path: Path) -> None:
    ok = HEAD + "#Text=Ada\n1-1\t0-3\tAda\t*\tPER\t\n"
    write(tmp_path / "a", ok, "d__u1.tsv")
    write(tmp_path / "a", HEAD + "#Text=Eve\n1-1\t0-3\tEve\t*\tPER\t\n", "d__u2.tsv")
    with pytest.raises(InputError, match="text differs"):
        read_tsv3(tmp_path / "a")
    write(tmp_path / "b", ok, "d__u1.tsv")
    write(tmp_path / "b" / "sub", ok, "d__u1.tsv")
    with pytest.raises(InputError, match="second file of user 'u1'"):
        read_tsv3(tmp_path / "b")
    (tmp_path / "empty").mkdir()
    with pytest.raises(InputError, match="no .tsv files"):
        read_tsv3(tmp_path / "empty")


def test_layers_option(tmp_path: Path) -> None:
    p = write(tmp_path, HEAD + "#Text=Ada\n1-1\t0-3\tAda\t*\tPER\t\n")
    assert len(read_tsv3(p, layers=[NE]).get_set("ents")) == 1
    with pytest.raises(ConfigError, match="Entity"):
        read_tsv3(p, layers=["Entity"])
    with pytest.raises(ConfigError, match="layers"):
        read_tsv3(p, layers="NamedEntity")


def test_auto_detection_through_read_corpus(tmp_path: Path) -> None:
    p = write(tmp_path, HEAD + "#Text=Ada\n1-1\t0-3\tAda\t*\tPER\t\n")
    assert detect_format(p) == "tsv3"
    c = read_corpus(p, label_feature="value", layers=["NamedEntity"])
    assert spans(c, "ents") == [(0, 3, "PER")]
    if SHARED_DATA.is_dir():
        assert detect_format(shared_file(*FMT, SHARED[0])) == "tsv3"
