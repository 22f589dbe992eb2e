"""WebAnno TSV3 relation layers (io/tsv3.py, issue 26): left out with one warning naming the option, or with
``relations=True`` read as the span of their dependent, as the XMI export of the same INCEpTION project holds it.

The TSV/XMI pairs below are INCEpTION's own round-trip test suite
(``inception/inception-io-webanno-tsv/src/test/resources/tsv3-suite/<test>/reference.{tsv,xmi}``, repository
inception-project/inception, snapshot 55ba8ba6adf808116b518a227194694850b65259; Apache License 2.0). The TSV files
are verbatim; of each XMI only the annotations that are no structure are kept (its Token, Sentence and
DocumentMetaData elements, which the XMI reader leaves out, are dropped) and the namespace declarations are
reduced to those the kept elements use. The shared data holds no such pair with relations: its XMI files with
relations (``inception_mergecas_stackedrel*.xmi``) and its TSV3 files with relations are different documents.
"""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest

from spacy_anno_eval.errors import ConfigError, InputError
from spacy_anno_eval.io import read_corpus
from spacy_anno_eval.io.tsv3 import read_tsv3
from spacy_anno_eval.io.xmi import read_xmi
from tests.conftest import shared_file

FMT = ("formats", "webanno_tsv3")
_NS = ('xmlns:xmi="http://www.omg.org/XMI" xmlns:cas="http:///uima/cas.ecore" '
       'xmlns:custom="http:///webanno/custom.ecore" '
       'xmlns:type4="http:///de/tudarmstadt/ukp/dkpro/core/api/ner/type.ecore" '
       'xmlns:pos="http:///de/tudarmstadt/ukp/dkpro/core/api/lexmorph/type/pos.ecore" '
       'xmlns:dependency="http:///de/tudarmstadt/ukp/dkpro/core/api/syntax/type/dependency.ecore"')
_SENTENCE = "#Text=This is a test .\n"
_SOFA = '<cas:Sofa xmi:id="2" sofaNum="1" sofaID="_InitialView" mimeType="text" sofaString="{text}"/>'


def _xmi(elements: str, text: str = "This is a test .") -> str:
    return (f'<?xml version="1.0" encoding="UTF-8"?><xmi:XMI {_NS} xmi:version="2.0">\n{elements}\n'
            f'{_SOFA.format(text=text)}\n</xmi:XMI>\n')


PAIRS = {
    # a relation between two multi-token spans: the dependent is [2], "a test"
    "testSingleNonMultiTokenRelationWithoutFeatureValue": (
        "#FORMAT=WebAnno TSV 3.3\n#T_SP=webanno.custom.Span|value\n"
        "#T_RL=webanno.custom.Relation|value|BT_webanno.custom.Span\n\n\n" + _SENTENCE +
        "1-1\t0-4\tThis\t*[1]\t_\t_\t\n1-2\t5-7\tis\t*[1]\t_\t_\t\n1-3\t8-9\ta\t*[2]\t*\t1-1[1_2]\t\n"
        "1-4\t10-14\ttest\t*[2]\t_\t_\t\n1-5\t15-16\t.\t_\t_\t_\t\n",
        _xmi('<type4:NamedEntity xmi:id="9" sofa="2" begin="0" end="7"/>\n'
             '<type4:NamedEntity xmi:id="10" sofa="2" begin="8" end="14"/>\n'
             '<custom:Relation xmi:id="11" sofa="2" begin="8" end="14" Governor="9" Dependent="10"/>')),
    # two stacked relations on one unit, with typed features
    "testStackedNonMultiTokenRelationWithMultipleFeatureValues": (
        "#FORMAT=WebAnno TSV 3.3\n#T_SP=webanno.custom.Span|value\n"
        "#T_RL=webanno.custom.ComplexRelation|boolValue|integerValue|value|BT_webanno.custom.Span\n\n\n" + _SENTENCE +
        "1-1\t0-4\tThis\t*[1]\t_\t_\t_\t_\t\n1-2\t5-7\tis\t*[1]\t_\t_\t_\t_\t\n"
        "1-3\t8-9\ta\t*[2]\ttrue|false\t42|43\tnsubj|obj\t1-1[1_2]|1-1[1_2]\t\n"
        "1-4\t10-14\ttest\t*[2]\t_\t_\t_\t_\t\n1-5\t15-16\t.\t_\t_\t_\t_\t_\t\n",
        _xmi('<type4:NamedEntity xmi:id="9" sofa="2" begin="0" end="7"/>\n'
             '<type4:NamedEntity xmi:id="10" sofa="2" begin="8" end="14"/>\n'
             '<custom:ComplexRelation xmi:id="11" sofa="2" begin="8" end="14" Governor="9" Dependent="10" '
             'value="nsubj" boolValue="true" intValue="42"/>\n'
             '<custom:ComplexRelation xmi:id="12" sofa="2" begin="8" end="14" Governor="9" Dependent="10" '
             'value="obj" boolValue="false" intValue="43"/>')),
    # the dependent [3] is stacked under [1] and [2], which cover the whole sentence
    "testSingleStackedNonTokenOverlappingRelationWithoutFeatureValue": (
        "#FORMAT=WebAnno TSV 3.3\n#T_SP=webanno.custom.Span|value\n"
        "#T_RL=webanno.custom.Relation|value|BT_webanno.custom.Span\n\n\n" + _SENTENCE +
        "1-1\t0-4\tThis\t*[1]|*[2]\t_\t_\t\n1-2\t5-7\tis\t*[1]|*[2]\t_\t_\t\n1-3\t8-9\ta\t*[1]|*[2]\t_\t_\t\n"
        "1-4\t10-14\ttest\t*[1]|*[2]\t_\t_\t\n1-5\t15-16\t.\t*[1]|*[2]|*[3]|*[4]\t*\t1-1[1_3]\t\n",
        _xmi('<type4:NamedEntity xmi:id="9" sofa="2" begin="0" end="16"/>\n'
             '<type4:NamedEntity xmi:id="10" sofa="2" begin="0" end="16"/>\n'
             '<type4:NamedEntity xmi:id="11" sofa="2" begin="15" end="16"/>\n'
             '<type4:NamedEntity xmi:id="12" sofa="2" begin="15" end="16"/>\n'
             '<custom:Relation xmi:id="13" sofa="2" begin="15" end="16" Governor="9" Dependent="11"/>')),
    # DKPro Dependency: attached to tokens, no disambiguation id; the dependent is the unit
    "testDependencyWithValues": (
        "#FORMAT=WebAnno TSV 3.3\n#T_SP=de.tudarmstadt.ukp.dkpro.core.api.lexmorph.type.pos.POS|PosValue|coarseValue\n"
        "#T_RL=de.tudarmstadt.ukp.dkpro.core.api.syntax.type.dependency.Dependency|DependencyType|flavor|"
        "BT_de.tudarmstadt.ukp.dkpro.core.api.lexmorph.type.pos.POS\n\n\n" + _SENTENCE +
        "1-1\t0-4\tThis\tPOS1\t*\t_\t_\t_\t\n1-2\t5-7\tis\tPOS2\t*\t*\t*\t1-1\t\n1-3\t8-9\ta\t_\t_\t_\t_\t_\t\n"
        "1-4\t10-14\ttest\t_\t_\t_\t_\t_\t\n1-5\t15-16\t.\t_\t_\t_\t_\t_\t\n",
        _xmi('<pos:POS xmi:id="9" sofa="2" begin="0" end="4" PosValue="POS1"/>\n'
             '<pos:POS xmi:id="10" sofa="2" begin="5" end="7" PosValue="POS2"/>\n'
             '<dependency:Dependency xmi:id="11" sofa="2" begin="5" end="7" Governor="3" Dependent="4"/>')),
    # the governor is a sub-token
    "testSubTokenRelation2": (
        "#FORMAT=WebAnno TSV 3.3\n#T_SP=webanno.custom.Span|value\n"
        "#T_RL=webanno.custom.Relation|value|BT_webanno.custom.Span\n\n\n#Text=Test again\n"
        "1-1\t0-4\tTest\t_\t_\t_\t\n1-1.1\t0-1\tT\tOTH\t_\t_\t\n1-2\t5-10\tagain\tOTH\t*\t1-1.1\t\n",
        _xmi('<custom:Span xmi:id="7" sofa="2" begin="0" end="1" value="OTH"/>\n'
             '<custom:Span xmi:id="8" sofa="2" begin="5" end="10" value="OTH"/>\n'
             '<custom:Relation xmi:id="9" sofa="2" begin="5" end="10" Governor="7" Dependent="8"/>',
             text="Test again")),
}
RELATION_LABELS = {"Relation", "ComplexRelation", "Dependency"}


def _spans(corpus, name: str = "ents") -> list[tuple[int, int, str]]:
    t = corpus.get_set(name)
    return sorted((int(s), int(e), str(lab)) for s, e, lab in zip(t.start, t.end, t.label_names(), strict=True))


def _relations(corpus) -> list[tuple[int, int, str]]:
    return [s for s in _spans(corpus) if s[2] in RELATION_LABELS]


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def _quiet(read, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return read(*args, **kwargs)


@pytest.mark.parametrize("test", sorted(PAIRS))
def test_tsv3_and_xmi_exports_give_the_same_relation_spans(tmp_path: Path, test: str) -> None:
    tsv, xmi = PAIRS[test]
    ours = read_tsv3(_write(tmp_path, "doc.tsv", tsv), relations=True)
    peer = _quiet(read_xmi, _write(tmp_path, "doc.xmi", xmi), relations=True)
    assert ours.texts == peer.texts
    assert _relations(ours) and _relations(ours) == _relations(peer)


def test_a_stacked_dependent_is_found_by_its_disambiguation_id(tmp_path: Path) -> None:
    """Not the sentence-long spans [1] and [2] stacked on the same unit: the relation names [3]."""
    tsv, _ = PAIRS["testSingleStackedNonTokenOverlappingRelationWithoutFeatureValue"]
    corpus = read_tsv3(_write(tmp_path, "doc.tsv", tsv), relations=True)
    assert _relations(corpus) == [(15, 16, "Relation")]


def test_relation_features_are_kept_per_stacking_position(tmp_path: Path) -> None:
    tsv, _ = PAIRS["testStackedNonMultiTokenRelationWithMultipleFeatureValues"]
    corpus = read_tsv3(_write(tmp_path, "doc.tsv", tsv), relations=True, features=["*"], layers=["ComplexRelation"])
    t = corpus.get_set("ents")
    assert t.features == [{"boolValue": "true", "integerValue": "42", "value": "nsubj"},
                          {"boolValue": "false", "integerValue": "43", "value": "obj"}]
    assert _spans(corpus) == [(8, 14, "ComplexRelation"), (8, 14, "ComplexRelation")]  # layers: no Span


def test_left_out_relations_are_counted_in_one_warning_naming_the_option(tmp_path: Path) -> None:
    tsv, _ = PAIRS["testStackedNonMultiTokenRelationWithMultipleFeatureValues"]
    other, _ = PAIRS["testDependencyWithValues"]
    folder = tmp_path / "export"
    folder.mkdir()
    _write(folder, "doc__a.tsv", tsv)
    _write(folder, "doc2__a.tsv", other)
    with pytest.warns(UserWarning) as record:
        corpus = read_tsv3(folder)
    notes = [str(w.message) for w in record if "relation" in str(w.message)]
    assert notes == [f"{folder}: 3 relation annotation(s) (ComplexRelation, Dependency) left out; --reader-option "
                     f"relations=true (Python: relations=True) reads each as the span of its dependent"]
    assert not RELATION_LABELS & {s[2] for s in _spans(corpus)}


def test_a_layer_left_out_by_name_is_no_relation_left_out(tmp_path: Path) -> None:
    tsv, _ = PAIRS["testDependencyWithValues"]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        corpus = read_tsv3(_write(tmp_path, "doc.tsv", tsv), layers=["POS"])
    assert _spans(corpus) == [(0, 4, "POS"), (5, 7, "POS")]


def test_shared_dependencies_read_on_their_dependent_token() -> None:
    path = shared_file(*FMT, "relationLabelTest__user1.tsv")
    with pytest.warns(UserWarning, match=r"26 relation annotation\(s\) \(Dependency\) left out; --reader-option "
                                         r"relations=true \(Python: relations=True\)"):
        read_tsv3(path)
    corpus = read_corpus(path, relations=True, layers=["Dependency"], label_feature="DependencyType",
                         features=["flavor"])
    t = corpus.get_set("ents")
    text = corpus.texts[0]
    deps = {text[s:e]: lab for s, e, lab in zip(t.start, t.end, t.label_names(), strict=True)}
    assert len(t) == 26 and deps["sich"] == "OBJA" and deps["Heutzutage"] == "ADV"
    assert all(f == {"flavor": "basic"} for f in t.features)


@pytest.mark.parametrize("governor, message", [
    ("1-x", "without a governor reference"),
    ("_", "without a governor reference"),
    ("1-1[1_9]", r"names its dependent \[9\]"),
])
def test_a_bad_governor_reference_is_a_located_input_error(tmp_path: Path, governor: str, message: str) -> None:
    tsv = ("#FORMAT=WebAnno TSV 3.3\n#T_SP=webanno.custom.Span|value\n"
           "#T_RL=webanno.custom.Relation|value|BT_webanno.custom.Span\n\n\n#Text=a b\n"
           f"1-1\t0-1\ta\tX\t_\t_\t\n1-2\t2-3\tb\tY\tdep\t{governor}\t\n")
    path = _write(tmp_path, "doc.tsv", tsv)
    with pytest.raises(InputError, match=message) as err:
        read_tsv3(path, relations=True)
    assert f"{path}" in str(err.value) and "line 8" in str(err.value)
    assert len(_quiet(read_tsv3, path).get_set("ents")) == 2  # left out, the reference is not looked at


def test_relations_must_be_true_or_false(tmp_path: Path) -> None:
    tsv, _ = PAIRS["testDependencyWithValues"]
    with pytest.raises(ConfigError, match="relations must be true or false, got 'yes'"):
        read_tsv3(_write(tmp_path, "doc.tsv", tsv), relations="yes")
