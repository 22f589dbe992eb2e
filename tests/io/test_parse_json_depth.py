"""The JSON depth check stays linear on a truncated line full of escaped quotes: an unclosed string is one match to
the end of the text (the old pattern failed on it and was retried from every later quote: quadratic, 13.8 s on one
64 KiB line)."""

from __future__ import annotations

from spacy_anno_eval.io.parse import _JSON_STRING, json_depth


def test_an_unclosed_string_is_one_match_to_the_end():
    line = '{"a": "' + '\\"x' * 1000 + "[" * 300
    assert _JSON_STRING.sub('""', line) == '{"": ""'  # the brackets after it are inside the unclosed string
    assert json_depth(line) == 1


def test_brackets_inside_strings_still_do_not_count():
    assert json_depth('{"a": "[[[[", "b": [1, "]]"]}') == 2
    assert json_depth('["\\\\", [["x"]]]') == 3
