"""WebAnno / INCEpTION TSV 3.x (``#FORMAT=WebAnno TSV 3.3``): one file per annotator and document.

Format: the WebAnno TSV 3.3 specification, ``webannotsv.adoc`` in the
INCEpTION repository (inception-io-webanno-tsv, user guide). A file is::

    #FORMAT=WebAnno TSV 3.3
    #T_SP=de.tudarmstadt.ukp.dkpro.core.api.ner.type.NamedEntity|identifier|value
    #T_RL=de.tudarmstadt.ukp.dkpro.core.api.syntax.type.dependency.Dependency|DependencyType|BT_...POS


    #Text=Ms. Haag plays .
    1-1<TAB>0-3<TAB>Ms.<TAB>*[1]<TAB>PER[1]|PERpart[2]<TAB>...
    1-2<TAB>4-8<TAB>Haag<TAB>*[1]<TAB>PER[1]<TAB>...

- **Header.** ``#T_SP=`` (span layers), ``#T_CH=`` (chain layers) and
  ``#T_RL=`` (relation layers) declare one column per feature, in order; a
  layer without features has one placeholder column. Span layers may hold
  slot features (``ROLE_...`` followed by the target type's column).
- **Text.** Each sentence has one ``#Text=`` line per line of its text
  (several for a sentence holding line breaks); the text is unescaped
  (``\\t``, ``\\n``, ``\\r``, ``\\f``, ``\\b``, ``\\\\`` and a backslash before a
  control character in 3.2+; Java escapes in 3.0/3.1). The document text is
  rebuilt as INCEpTION rebuilds it: each sentence's text followed by a line
  break, the gap up to the next sentence's first token filled with spaces
  (or that line break dropped when the next sentence starts right there);
  the line break after the last sentence is not part of the text. Text
  between sentences is not in the format: the rebuilt text has spaces or a
  line break there.
- **Offsets** (``begin-end`` of a token or sub-token ``1-3.1``) count UTF-16
  code units; they are converted to code points. Each token's form is
  compared with the rebuilt text at its offsets (one
  :class:`~spacy_anno_eval.errors.CoveredTextWarning` per file on mismatch).
- **Span values.** ``_``: no annotation in this column on this token;
  ``*``: an annotation whose feature is null (or a layer without features);
  ``A|B``: stacked annotations; ``VALUE[N]``: disambiguation id ``N`` -- the
  same id on several tokens is one multi-token annotation, from the first
  token's begin to the last one's end. The columns of one layer on one token
  describe the same annotation at the same stacking position. Values are
  unescaped (``\\\\ \\[ \\] \\| \\_ \\-> \\; \\t \\n \\*``).

Choices:

- **Label** = the layer's short name (``NamedEntity``, ``Span``, ``POS``);
  its features (short names: ``value``, ``identifier``) are the span's
  features, a null feature (``*``) being absent. ``label_feature="value"``
  makes INCEpTION's NER tag the label (a span without it keeps the layer
  name; the builder says how many).
- **Layers.** Every span and chain layer (and with ``relations=True`` every
  relation layer) is read into the same set by default; ``layers`` (full or
  short names) keeps only those named, e.g. ``layers=["NamedEntity"]`` so
  that POS and Lemma do not mix with entities. A name no file declares
  raises :class:`~spacy_anno_eval.errors.ConfigError`.
- **Chains** (``#T_CH``, coreference): each chain element is a span labelled
  with the layer's short name (``CoreferenceLink``), features
  ``referenceType`` and ``referenceRelation``; the file-local chain ids are
  not kept (they do not compare across annotators).
- **Relations** (``#T_RL``, e.g. DKPro ``Dependency`` or a custom relation
  layer: its feature columns, then the ``BT_<type>`` column naming the
  governor) are left out unless ``relations=True``: a relation joins two
  spans. One note counts those left out, naming their layers and the option
  (``--reader-option relations=true``). Read, a relation is what the XMI
  export of the same project holds (INCEpTION sets a relation's begin and end
  to those of its dependent), so the TSV3 and XMI exports give the same spans.
  **The rule:** a relation sits on the first token (or sub-token) of its
  dependent; each stacking position of the layer's columns on that unit is one
  relation. Its span is the dependent's: the ``BT_`` type's annotation whose
  disambiguation id is ``T`` when the governor reference reads
  ``SENT-TOK[S_T]`` with ``T > 0`` (a stacked or multi-token dependent), else
  the unit the relation sits on (INCEpTION's reader resolves it alike). Its
  label is the layer's short name (``Dependency``), its features the layer's
  feature columns (``DependencyType``, ``flavor``; the governor is not kept).
  A governor reference that is malformed, missing, or whose ``T`` names no
  annotation is a located :class:`~spacy_anno_eval.errors.InputError`.
  Slot targets are no spans: their columns are checked for their count only.
- **Sets and documents.** A file holds one annotator's annotation of one
  document. ``<doc>__<user>.tsv``: document ``doc``, set ``user``; a file in
  INCEpTION's export layout ``annotation/<doc>/<user>.tsv`` (or in a
  sub-folder of the folder read): document = its folder, set = the file stem;
  any other file: document and set = the file stem. A folder is read
  recursively in sorted order; the same document in several files must have
  the same text; a file present covers its document for its user, even with
  no annotation (INCEpTION's empty curation file).
- Malformed input (no ``#FORMAT`` line, a token line before any ``#Text``,
  missing columns, bad ids or offsets, a sentence overlapping the previous
  one) raises a located :class:`~spacy_anno_eval.errors.InputError`.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..annotations.table import Corpus
from ..errors import ConfigError, InputError, where
from .multiset import MultiSetBuilder, export_files
from .offsets import Utf16Offsets
from .parse import read_text

_FORMAT = re.compile(r"^#FORMAT=WebAnno TSV (\d+)\.(\d+)\s*$")
_UNIT_ID = re.compile(r"^(\d+)-(\d+)(?:\.(\d+))?$")
_OFFSETS = re.compile(r"^(\d+)-(\d+)$")
_CHAIN_LINK = re.compile(r"^(.*)->(\d+)-(\d+)$", re.DOTALL)
_GOVERNOR = re.compile(r"^(\d+-\d+(?:\.\d+)?)(?:\[(\d+)_(\d+)\])?$")
_BASE_TYPE = "BT_"
_VALUE_ESCAPES = {"\\": "\\", "[": "[", "]": "]", "|": "|", "_": "_", ";": ";", "t": "\t", "n": "\n", "*": "*"}
_TEXT_ESCAPES = {"t": "\t", "n": "\n", "f": "\f", "r": "\r", "b": "\b", "\\": "\\"}
_JAVA_ESCAPES = {**_TEXT_ESCAPES, '"': '"', "'": "'"}

# column kinds
_PRIMITIVE, _PLACEHOLDER, _ROLE, _SLOT_TARGET, _CHAIN_TYPE, _CHAIN_LINK_COL, _RELATION = (
    "primitive", "placeholder", "role", "slot_target", "chain_type", "chain_link", "relation")


@dataclass
class _Column:
    layer: str          # full type name
    kind: str
    feature: str | None  # short feature name


@dataclass
class _Ann:
    layer: str
    begin: int  # UTF-16
    end: int
    line: int
    features: dict[str, Any] = field(default_factory=dict)
    kept: bool = True  # False: a layer not asked for, parsed only to find the dependents of relations


@dataclass
class _Relation:
    """A relation as the unit it sits on gives it: the dependent is that unit, or the annotation ``target_id``."""

    layer: str
    begin: int  # UTF-16, of the unit
    end: int
    line: int
    features: dict[str, Any]
    target_layer: str | None  # the BT_ type
    target_id: int  # the dependent's disambiguation id; 0: the unit's own annotation


def short_name(type_name: str) -> str:
    """A UIMA type's short name: ``...ner.type.NamedEntity`` -> ``NamedEntity``."""
    return type_name.rsplit(".", 1)[-1]


def unescape_value(value: str) -> str:
    """A feature value as the TSV3 writer escaped it (``\\|``, ``\\[``, ``\\->``, ``\\t``, ...), unescaped."""
    if "\\" not in value:
        return value
    out, i, n = [], 0, len(value)
    while i < n:
        c = value[i]
        if c == "\\" and i + 1 < n:
            nxt = value[i + 1]
            if value.startswith("->", i + 1):
                out.append("->")
                i += 3
                continue
            if nxt in _VALUE_ESCAPES:
                out.append(_VALUE_ESCAPES[nxt])
                i += 2
                continue
        out.append(c)
        i += 1
    return "".join(out)


def unescape_text(text: str, minor: int = 3) -> str:
    """A ``#Text=`` line unescaped: TSV 3.2+ escapes ``\\t \\n \\f \\r \\b \\\\`` and puts a backslash before other
    control characters; 3.0/3.1 used Java string escapes (``\\uXXXX``, octal)."""
    if "\\" not in text:
        return text
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if c == "\\" and i + 1 < n:
            nxt = text[i + 1]
            if minor >= 2:
                if nxt in _TEXT_ESCAPES:
                    out.append(_TEXT_ESCAPES[nxt])
                    i += 2
                    continue
                if ord(nxt) < 32:
                    out.append(nxt)
                    i += 2
                    continue
            else:
                if nxt in _JAVA_ESCAPES:
                    out.append(_JAVA_ESCAPES[nxt])
                    i += 2
                    continue
                m = re.match(r"u+([0-9a-fA-F]{4})", text[i + 1:])
                if m:
                    out.append(chr(int(m.group(1), 16)))
                    i += 1 + m.end()
                    continue
                m = re.match(r"[0-3][0-7]{0,2}|[4-7][0-7]?", text[i + 1:])
                if m:
                    out.append(chr(int(m.group(0), 8)))
                    i += 1 + m.end()
                    continue
        out.append(c)
        i += 1
    return "".join(out)


def _split_unescaped(raw: str, sep: str) -> list[str]:
    """``raw`` split at each ``sep`` that no backslash escapes."""
    if sep not in raw:
        return [raw]
    parts, cur, i, n = [], [], 0, len(raw)
    while i < n:
        c = raw[i]
        if c == "\\" and i + 1 < n:
            cur.append(raw[i:i + 2])
            i += 2
            continue
        if c == sep:
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(c)
        i += 1
    parts.append("".join(cur))
    return parts


def _escaped_at(raw: str, pos: int) -> bool:
    """Whether the character at ``pos`` follows an odd run of backslashes."""
    k = pos - 1
    while k >= 0 and raw[k] == "\\":
        k -= 1
    return (pos - 1 - k) % 2 == 1


def _suffix(raw: str, where_: str) -> tuple[str, str | None]:
    """``VALUE[INFO]`` -> (``VALUE``, ``INFO``); a value without an unescaped bracket suffix -> (value, None)."""
    if not raw.endswith("]") or _escaped_at(raw, len(raw) - 1):
        return raw, None
    pos = raw.rfind("[")
    if pos < 0 or _escaped_at(raw, pos) or "]" in raw[pos + 1:-1]:
        raise InputError(f"{where_}: the value {raw!r} ends with ']' but has no '[N]' suffix; an unescaped ']' "
                         f"must close a disambiguation id")
    return raw[:pos], raw[pos + 1:-1]


def _int_id(info: str, raw: str, where_: str) -> int:
    if not info.isdigit():
        raise InputError(f"{where_}: the disambiguation id in {raw!r} is not a number")
    return int(info)


# -- one file -------------------------------------------------------------------------------------------------------


class _FileReader:
    """Parses one TSV3 file into its rebuilt text, its tokens and its annotations (UTF-16 offsets)."""

    def __init__(self, path: Path, doc_id: str, layers: set[str] | None, relations: bool = False) -> None:
        self.path, self.source, self.doc_id = path, str(path), doc_id
        self.layers_wanted = layers
        self.read_relations = relations
        self.relations: list[_Relation] = []
        self.left_out: dict[str, int] = {}  # relations not read, per layer (short name)
        self.columns: list[_Column] = []
        self.declared: list[str] = []
        self.minor = 3
        self.pieces: list[str] = []
        self.u16 = 0  # length of the text so far in UTF-16 code units
        self.tokens: list[tuple[int, int, str, int]] = []  # begin, end, form, line
        self.anns: list[_Ann] = []
        self._by_id: dict[tuple, _Ann] = {}

    def where(self, line: int) -> str:
        return where(self.source, self.doc_id, line)

    def read(self) -> None:
        data = read_text(self.path, "utf-8", fix="WebAnno TSV files are UTF-8: save it as UTF-8")
        lines = data.split("\n")
        lines = [ln[:-1] if ln.endswith("\r") else ln for ln in lines]
        if lines and lines[-1] == "":
            lines.pop()
        if not lines:
            raise InputError(f"{self.source}: empty file; a WebAnno TSV 3 file starts with '#FORMAT=WebAnno TSV 3.x'")
        m = _FORMAT.match(lines[0])
        if not m or m.group(1) != "3":
            raise InputError(f"{where(self.source, line=1)}: expected '#FORMAT=WebAnno TSV 3.x', got "
                             f"{lines[0][:60]!r}; this reader reads WebAnno TSV 3 only")
        self.minor = int(m.group(2))
        i = 1
        while i < len(lines) and lines[i].startswith(("#T_SP=", "#T_CH=", "#T_RL=")):
            self._header(lines[i], i + 1)
            i += 1
        self._body(lines, i)
        self._resolve_relations()

    def _header(self, line: str, lineno: int) -> None:
        kind = line[3:5]
        fields = [f for f in line[6:].split("|") if f]
        if not fields:
            raise InputError(f"{where(self.source, line=lineno)}: a layer declaration without a type name")
        layer = fields[0]
        self.declared.append(layer)
        feats = fields[1:]
        if not feats:
            self.columns.append(_Column(layer, _PLACEHOLDER if kind != "RL" else _RELATION, None))
            return
        prev = None
        for feat in feats:
            if kind == "RL":
                col = _Column(layer, _RELATION, feat)
            elif kind == "CH":
                col = _Column(layer, _CHAIN_LINK_COL if feat == "referenceRelation" else _CHAIN_TYPE, feat)
            elif feat.startswith("ROLE_"):
                col = _Column(layer, _ROLE, feat)
            elif prev is not None and prev.kind == _ROLE:
                col = _Column(layer, _SLOT_TARGET, feat)
            else:
                col = _Column(layer, _PRIMITIVE, feat)
            self.columns.append(col)
            prev = col

    def _wanted(self, layer: str) -> bool:
        return self.layers_wanted is None or layer in self.layers_wanted or short_name(layer) in self.layers_wanted

    def _body(self, lines: list[str], i: int) -> None:
        n_cols = len(self.columns)
        # the columns of each wanted relation layer, and of each span/chain layer wanted, or (relations read)
        # that may hold a relation's dependent: disambiguation ids are unique in the file, whatever the layer
        relation_groups: dict[str, list[tuple[int, _Column]]] = {}
        for k, col in enumerate(self.columns):
            if col.kind == _RELATION and self._wanted(col.layer):
                relation_groups.setdefault(col.layer, []).append((k, col))
        targets = self.read_relations and bool(relation_groups)
        groups: dict[str, list[tuple[int, _Column]]] = {}
        for k, col in enumerate(self.columns):
            if col.kind not in (_RELATION, _SLOT_TARGET) and (targets or self._wanted(col.layer)):
                groups.setdefault(col.layer, []).append((k, col))
        state = "between"  # between | header | tokens
        text_lines: list[str] = []
        seen_token = False
        for idx in range(i, len(lines)):
            line, lineno = lines[idx], idx + 1
            if line == "":
                if state == "header":
                    raise InputError(f"{self.where(lineno)}: a sentence header (#Text=) without tokens")
                state = "between"
                continue
            if line.startswith("#") and state in ("between", "header"):
                if state == "between":
                    text_lines = []
                state = "header"
                if line.startswith("#Text="):
                    text_lines.append(unescape_text(line[6:], self.minor))
                continue
            fields = line.split("\t")
            if len(fields) < 3 + n_cols:
                raise InputError(f"{self.where(lineno)}: expected {3 + n_cols} tab-separated fields (id, offsets, "
                                 f"token and {n_cols} annotation column(s) the header declares), found "
                                 f"{len(fields)}")
            if any(fields[3 + n_cols:]):
                raise InputError(f"{self.where(lineno)}: {len(fields) - 3} annotation columns but the header "
                                 f"declares {n_cols}")
            m_id, m_off = _UNIT_ID.match(fields[0]), _OFFSETS.match(fields[1])
            if not m_id or not m_off:
                raise InputError(f"{self.where(lineno)}: expected a token line 'SENT-TOK<TAB>BEGIN-END<TAB>TOKEN...'"
                                 f", got {line[:60]!r}")
            begin, end = int(m_off.group(1)), int(m_off.group(2))
            if begin > end:
                raise InputError(f"{self.where(lineno)}: token offsets {fields[1]} end before they begin")
            subtoken = m_id.group(3) is not None
            if state == "between":
                raise InputError(f"{self.where(lineno)}: a token line outside a sentence (expected a #Text= line "
                                 f"first)")
            if state == "header":
                if subtoken:
                    raise InputError(f"{self.where(lineno)}: a sentence starts with the sub-token {fields[0]}")
                if not text_lines:
                    raise InputError(f"{self.where(lineno)}: a sentence without #Text= line")
                self._start_sentence("\n".join(text_lines) + "\n", begin, lineno)
                state = "tokens"
            seen_token = True
            if not subtoken:
                self.tokens.append((begin, end, fields[2], lineno))
            self._unit(fields, begin, end, lineno, groups)
            if relation_groups:
                self._relations(fields, begin, end, lineno, relation_groups)
        if state == "header":
            raise InputError(f"{self.where(len(lines))}: the file ends in a sentence header without tokens")
        if seen_token and self.pieces and self.pieces[-1].endswith("\n"):
            self.pieces[-1] = self.pieces[-1][:-1]  # the line break after the last sentence is no text

    def _start_sentence(self, sentence: str, begin: int, lineno: int) -> None:
        if self.u16 > begin:
            if self.u16 == begin + 1 and self.pieces and self.pieces[-1].endswith("\n"):
                self.pieces[-1] = self.pieces[-1][:-1]  # no space between the sentences
                self.u16 -= 1
            else:
                raise InputError(f"{self.where(lineno)}: the sentence starts at offset {begin}, inside the text of "
                                 f"the sentences before it ({self.u16 - 1} UTF-16 code units)")
        if self.u16 < begin:
            self.pieces.append(" " * (begin - self.u16))
            self.u16 = begin
        self.pieces.append(sentence)
        self.u16 += len(sentence.encode("utf-16-le")) // 2

    def _unit(self, fields: list[str], begin: int, end: int, lineno: int,
              groups: dict[str, list[tuple[int, _Column]]]) -> None:
        loc = self.where(lineno)
        for layer, cols in groups.items():
            # the values at each stacking position, then the annotation they describe: the one whose id (or chain
            # element) some column gives there, else a new one on this unit alone
            stack: dict[int, list[tuple[_Column, str]]] = {}
            keys: dict[int, tuple] = {}
            for k, col in cols:
                raw = fields[3 + k]
                if raw == "_" or raw == "":
                    continue
                for pos, item in enumerate(_split_unescaped(raw, "|")):
                    if col.kind == _CHAIN_LINK_COL:
                        m = _CHAIN_LINK.match(item)
                        if not m or _escaped_at(item, m.start(2) - 2):
                            raise InputError(f"{loc}: the chain link {item!r} does not end in '->CHAIN-LINK'")
                        value: str = m.group(1)
                        keys.setdefault(pos, (layer, "chain", int(m.group(2)), int(m.group(3))))
                    else:
                        value, info = _suffix(item, loc)
                        if info is not None and col.kind != _CHAIN_TYPE:  # a chain type's [N] is the chain id
                            keys.setdefault(pos, (layer, _int_id(info, item, loc)))
                    stack.setdefault(pos, []).append((col, value))
            for pos, values in stack.items():
                key = keys.get(pos)
                ann = self._by_id.get(key) if key is not None else None
                if ann is None:
                    ann = _Ann(layer, begin, end, lineno, kept=self._wanted(layer))
                    self.anns.append(ann)
                    if key is not None:
                        self._by_id[key] = ann
                else:
                    ann.begin, ann.end = min(ann.begin, begin), max(ann.end, end)
                for col, value in values:
                    if col.kind in (_PRIMITIVE, _CHAIN_TYPE, _CHAIN_LINK_COL) and value != "*":
                        ann.features[col.feature] = unescape_value(value)

    def _relations(self, fields: list[str], begin: int, end: int, lineno: int,
                   groups: dict[str, list[tuple[int, _Column]]]) -> None:
        """The relations on one unit (their dependent's first unit): one per stacking position of each layer's
        columns, counted (left out) or kept with their features and the reference to their dependent."""
        loc = self.where(lineno)
        for layer, cols in groups.items():
            features: dict[int, dict[str, Any]] = {}
            governors: dict[int, str] = {}
            target_layer = None
            for k, col in cols:
                base = col.feature is not None and col.feature.startswith(_BASE_TYPE)
                if base:
                    target_layer = col.feature[len(_BASE_TYPE):]
                raw = fields[3 + k]
                if raw == "_" or raw == "":
                    continue
                for pos, item in enumerate(_split_unescaped(raw, "|")):
                    values = features.setdefault(pos, {})
                    if base:
                        governors[pos] = item
                    elif col.feature is not None and item != "*":
                        values[col.feature] = unescape_value(item)
            if not self.read_relations:
                if features:
                    self.left_out[short_name(layer)] = self.left_out.get(short_name(layer), 0) + len(features)
                continue
            for pos in sorted(features):
                governor = governors.get(pos)
                m = _GOVERNOR.match(governor) if governor is not None else None
                if m is None:
                    got = "none" if governor is None else repr(governor)
                    raise InputError(f"{loc}: a relation of {short_name(layer)} without a governor reference "
                                     f"(SENT-TOK or SENT-TOK[S_T] in its {_BASE_TYPE} column), got {got}")
                self.relations.append(_Relation(layer, begin, end, lineno, features[pos], target_layer,
                                                int(m.group(3) or 0)))

    def _resolve_relations(self) -> None:
        """Each relation read becomes an annotation on its dependent's span (the module docstring's rule)."""
        if not self.relations:
            return
        by_number = {key[1]: ann for key, ann in self._by_id.items() if len(key) == 2}
        for rel in self.relations:
            begin, end = rel.begin, rel.end
            if rel.target_id > 0:
                dependent = self._by_id.get((rel.target_layer, rel.target_id)) or by_number.get(rel.target_id)
                if dependent is None:
                    raise InputError(f"{self.where(rel.line)}: a relation of {short_name(rel.layer)} names its "
                                     f"dependent [{rel.target_id}], but no annotation of the file has that "
                                     f"disambiguation id; check the file")
                begin, end = dependent.begin, dependent.end
            self.anns.append(_Ann(rel.layer, begin, end, rel.line, rel.features))

    @property
    def text(self) -> str:
        return "".join(self.pieces)


# -- files, documents and sets --------------------------------------------------------------------------------------


def _tsv3_files(p: Path) -> list[tuple[Path, str, str]]:
    """(file, document id, set name) for a file or every ``.tsv`` file under a folder."""
    out = []
    for f in export_files(p, (".tsv",)):
        stem = f.stem
        if "__" in stem.strip("_"):
            doc, user = stem.rsplit("__", 1)
        elif f.parent.parent.name in ("annotation", "curation") or (p.is_dir() and f.parent != p):
            doc, user = f.parent.name, stem
        else:
            doc, user = stem, stem
        out.append((f, doc, user))
    return out


def read_tsv3(path: str | os.PathLike, *, selectors: Sequence[str] = ("ents",), features: Sequence[str] | None = None,
              label_feature: str | None = None, layers: Sequence[str] | None = None, relations: bool = False,
              **options: Any) -> Corpus:
    """Read a WebAnno / INCEpTION TSV 3 file, or a folder of them, into a :class:`Corpus` with one set per user.

    ``layers`` keeps only the layers named (full or short names); ``label_feature`` names the feature whose value
    is the label (``"value"`` for INCEpTION's named entities); ``relations=True`` reads each relation as the span
    of its dependent (else they are left out, with a note counting them). See the module docstring.
    """
    if not isinstance(relations, bool):
        raise ConfigError(f"relations must be true or false, got {relations!r}")
    if layers is not None:
        if isinstance(layers, str) or not all(isinstance(x, str) and x for x in layers):
            raise ConfigError(f"layers must be a list of layer names, got {layers!r}")
    wanted = set(layers) if layers is not None else None
    p = Path(path)
    builder = MultiSetBuilder(str(p), features=features, label_feature=label_feature,
                              covered_field="the token form")
    declared: set[str] = set()
    left_out: dict[str, int] = {}
    seen: dict[tuple[str, str], Path] = {}
    for f, doc_id, user in _tsv3_files(p):
        if (doc_id, user) in seen:
            raise InputError(f"{f}: a second file of user {user!r} for document {doc_id!r} (the first: "
                             f"{seen[doc_id, user]}); one file per user and document")
        seen[doc_id, user] = f
        reader = _FileReader(f, doc_id, wanted, relations)
        reader.read()
        declared.update(reader.declared)
        for name, n in reader.left_out.items():
            left_out[name] = left_out.get(name, 0) + n
        text = reader.text
        d = builder.document(doc_id, text, str(f))
        builder.cover(user, d)
        offsets = Utf16Offsets(text)
        for begin, end, form, line in reader.tokens:
            s, e = offsets.span(begin, end, str(f), doc_id, line)
            builder.covered_text.check(text, s, e, form, doc_id, line)
        for ann in reader.anns:
            if not ann.kept:
                continue
            s, e = offsets.span(ann.begin, ann.end, str(f), doc_id, ann.line)
            builder.add(user, d, s, e, short_name(ann.layer), ann.features, line=ann.line)
    if wanted is not None:
        known = declared | {short_name(x) for x in declared}
        missing = sorted(wanted - known)
        if missing:
            raise ConfigError(f"{p}: no file declares the layer(s) {', '.join(missing)}; the layers: "
                              f"{', '.join(sorted(declared)) or 'none'}")
    if left_out:
        builder.note(f"{sum(left_out.values())} relation annotation(s) ({', '.join(sorted(left_out))}) left out; "
                     f"--reader-option relations=true (Python: relations=True) reads each as the span of its "
                     f"dependent")
    return builder.build(selectors)


__all__ = ["read_tsv3", "short_name", "unescape_text", "unescape_value"]
