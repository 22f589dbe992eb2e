"""The rules every annotation-tool reader shares (io/multiset.py, io/offsets.py, io/xml.py)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from spacy_anno_eval.errors import ConfigError, CoveredTextWarning, InputError, ZeroLengthWarning
from spacy_anno_eval.io.multiset import MultiSetBuilder
from spacy_anno_eval.io.offsets import Utf16Offsets, utf16_length
from spacy_anno_eval.io.xml import parse_xml, root_name

EMOJI_TEXT = "I \U0001F600 New York"  # the emoji is 1 code point, 2 UTF-16 code units


def test_utf16_offsets_after_an_emoji_move_back_by_one() -> None:
    o = Utf16Offsets(EMOJI_TEXT)
    assert len(o) == utf16_length(EMOJI_TEXT) == len(EMOJI_TEXT) + 1
    start, end = o.span(5, 13)  # "New York" in UTF-16 units
    assert EMOJI_TEXT[start:end] == "New York"
    assert o.to_utf16(start) == 5
    with pytest.raises(InputError, match="surrogate pair"):
        o.to_code_point(3)
    with pytest.raises(InputError, match="beyond the text"):
        o.to_code_point(99, "f.xml", "d1")


def test_bmp_text_needs_no_table() -> None:
    o = Utf16Offsets("plain")
    assert o.identity and o.span(1, 3) == (1, 3)


def _build(**kw) -> MultiSetBuilder:
    b = MultiSetBuilder("export.json", **kw)
    d0 = b.document("d0", "Ada Lovelace met Babbage")
    d1 = b.document("d1", "Nothing here")
    b.add("ann1", d0, 0, 12, "Person", {"value": "PER", "conf": 1}, recorded="Ada Lovelace")
    b.add("ann1", d0, 17, 24, "Person", {"value": "PER"}, recorded="Babbage")
    b.cover("ann1", d1)  # a finished, empty annotation
    b.add("ann2", d0, 0, 3, "Person", {"value": "PER"}, recorded="Ada")
    return b


def test_sets_coverage_and_annotators() -> None:
    c = _build().build(["spans:ann1"])
    assert c.found_sets == ["spans:ann1", "spans:ann2"]
    assert c.annotator_sets == ["spans:ann1", "spans:ann2"]
    assert len(c.get_set("spans:ann1")) == 2 and len(c.get_set("spans:ann2")) == 1
    assert c.covered("spans:ann1").tolist() == [True, True]
    assert c.covered("spans:ann2").tolist() == [True, False]  # never annotated d1
    assert c.window(1, 2).covered("spans:ann2").tolist() == [False]
    with pytest.raises(InputError, match="spans:ann1, spans:ann2"):
        c.get_set("ents")  # two sets: ents is ambiguous, and the message lists what exists


def test_one_set_is_also_ents() -> None:
    b = MultiSetBuilder("x.json")
    d = b.document("d", "Ada")
    b.add("only", d, 0, 3, "PER")
    c = b.build()
    assert c.get_set("ents").label_names().tolist() == ["PER"]
    assert c.get_set("ents") is not c.get_set("spans:only")


def test_label_feature_and_features() -> None:
    c = _build(label_feature="value", features=["Person->conf"]).build()
    t = c.get_set("spans:ann1")
    assert t.label_names().tolist() == ["PER", "PER"]
    assert t.features == [{"conf": 1}, {}]
    assert c.found_features == ["conf", "value"]


def test_covered_text_mismatch_warns_once_with_count_and_example() -> None:
    b = MultiSetBuilder("x.json", covered_field="value.text")
    d = b.document("d", "Ada met Bob")
    b.add("a", d, 0, 3, "PER", recorded="Eve")
    b.add("a", d, 8, 11, "PER", recorded="Rob")
    b.add("a", d, 4, 4, "PER")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        b.build()
    covered = [w for w in caught if issubclass(w.category, CoveredTextWarning)]
    assert len(covered) == 1 and "2 annotations" in str(covered[0].message) and "'Eve'" in str(covered[0].message)
    assert any(issubclass(w.category, ZeroLengthWarning) for w in caught)


def test_offsets_beyond_the_text_and_texts_that_differ_are_located_errors() -> None:
    b = MultiSetBuilder("x.json")
    d = b.document("d", "Ada")
    with pytest.raises(InputError, match=r"x.json, document 'd', span \[0, 9\)"):
        b.add("a", d, 0, 9, "PER")
    with pytest.raises(InputError, match="differs from the same document's text"):
        b.document("d", "Bob", source="other.json")


def test_xml_entities_are_refused(tmp_path) -> None:
    bomb = tmp_path / "bomb.xml"
    bomb.write_text('<?xml version="1.0"?>\n<!DOCTYPE r [<!ENTITY a "aaaa"><!ENTITY b "&a;&a;">]>\n<r>&b;</r>')
    with pytest.raises(InputError, match="entity 'a'"):
        parse_xml(bomb)
    ext = tmp_path / "ext.xml"
    ext.write_text('<?xml version="1.0"?>\n<!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]>\n<r>&x;</r>')
    with pytest.raises(InputError, match="refused"):
        parse_xml(ext)
    ok = tmp_path / "ok.xml"
    ok.write_text('<?xml version="1.0"?>\n<!DOCTYPE collection SYSTEM "BioC.dtd">\n<collection><a/></collection>')
    assert parse_xml(ok).tag == "collection" and root_name(ok) == "collection"
    bad = tmp_path / "bad.xml"
    bad.write_text("<r>\n<a></r>")
    with pytest.raises(InputError, match="line 2"):
        parse_xml(bad)


def test_coverage_array_is_boolean_per_document() -> None:
    c = _build().build()
    assert c.coverage is not None and c.coverage["spans:ann2"].dtype == np.bool_


def test_xml_with_an_unknown_encoding_is_an_input_error(tmp_path) -> None:
    f = tmp_path / "enc.xml"
    f.write_bytes(b'<?xml version="1.0" encoding="UTF-84"?>\n<r/>')
    with pytest.raises(InputError, match="invalid XML"):
        parse_xml(f)
    assert root_name(f) is None  # detection cannot tell; reading says why


def test_label_feature_of_one_type_reads_that_type_only() -> None:
    b = MultiSetBuilder("x.tsv", label_feature="NamedEntity->value")
    d = b.document("d", "Ada wrote")
    b.add("u", d, 0, 3, "NamedEntity", {"value": "PER"})
    b.add("u", d, 0, 3, "Lemma", {"value": "ada"})
    b.add("u", d, 4, 9, "Lemma", {"value": "write"})
    c = b.build()
    assert c.get_set("spans:u").label_names().tolist() == ["PER"]
    b = MultiSetBuilder("x.tsv", label_feature="Nope->value")
    b.add("u", b.document("d", "Ada"), 0, 3, "Lemma", {"value": "ada"})
    with pytest.raises(ConfigError, match="the types are: Lemma"):
        b.build()
