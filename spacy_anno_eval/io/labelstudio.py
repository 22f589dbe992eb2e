"""Label Studio JSON exports: one set per user's annotations and per model version's predictions.

Format (Label Studio docs, ``docs/source/guide/export.md`` and ``task_format.md``, "Label Studio JSON format
of annotated tasks"): the export is a JSON list of tasks (a file holding one task object is read too, as are
the 0.x ``completions/<task id>.json`` files, and a folder of such ``.json`` files)::

    [{"id": 1, "data": {"text": "😀 Paris"},
      "annotations": [{"completed_by": 14, "was_cancelled": false,
                       "result": [{"type": "labels", "from_name": "ner", "to_name": "text",
                                   "value": {"start": 2, "end": 7, "text": "Paris", "labels": ["LOC"]}}]}],
      "predictions": [{"model_version": "v2", "score": 0.8, "result": [...]}]}]

Choices:

- **Documents** are tasks, keyed by the task ``id`` (as a string), else by the task's position in its file
  (``"0"``, ``"1"``, ...; in a folder ``"<file stem>:<position>"``). A folder's files are read in sorted order
  and a task id seen again must carry the same text.
- **Text**: ``data[text_key]`` when ``text_key`` is given; else ``data["text"]``; else the one string value of
  ``data`` when there is exactly one; anything else is an :class:`InputError` listing the keys of ``data``.
  A task without ``data`` is read as its own data (a bare ``{"text": ...}`` task).
- **Sets**: each annotation is one user's, named after ``completed_by``: its ``email`` when it is a dict with
  a non-empty one, else ``user<ID>`` (``completed_by: 14`` and ``{"id": 14}`` both give ``user14``; an export
  that gives the id in one place and the email in another gives two names: use one export). An annotation
  without ``completed_by`` (the 0.x layout, the editor's examples) belongs to the set ``annotator``.
  Predictions are one set per ``model_version``, named ``model:<version>`` (``model`` without a version);
  they are readable as ``spans:model:<version>`` but are no annotators, so ``iaa`` does not compare them
  unless named.
- **Layout 0.x**: ``completions`` instead of ``annotations``; a ``result`` (or ``results``) that is one
  region object, or a list holding lists of regions, is flattened one level. A 0.x completion marked
  ``skipped`` counts as cancelled.
- **Regions**: a result of type ``labels`` (``value.start``/``end``/``labels``, ``value.text``) gives one span
  per label of ``value.labels``. A region without labels, or whose ``source`` names another data field than
  the text read (``"$title"``), is left out with a note.
- **Document categories** (text classification; :attr:`Corpus.cats
  <spacy_anno_eval.annotations.table.Corpus.cats>`, spaCy's ``doc.cats`` layout): a result of type
  ``choices`` (``{"type": "choices", "from_name": "sentiment", "value": {"choices": ["Positive"]}}``) gives
  each chosen label 1.0; ``taxonomy`` (``"value": {"taxonomy": [["Archaea"], ["Bacteria", "Cocci"]]}``)
  each chosen path, its levels joined with ``/`` (``Bacteria/Cocci``). The choices of every control tag of a
  task go into one set of categories. Labels not chosen are not listed (the export does not hold the labeling
  config, which lists them). ``choices`` of one region (``perRegion``, with ``value.start``/``end``) classify
  a span, not the document, and other result types (``rating``, ``relation``, ``textarea``,
  ``hypertextlabels`` with XPath offsets, ...) are left out, with a note counting them per type.
- **Offsets** are code points (Label Studio stores code points since label-studio PR #1559); older exports
  may hold UTF-16 offsets, so ``value.text`` is checked against the text at the offsets: a mismatch gives one
  :class:`CoveredTextWarning` per file (offsets kept). Offsets beyond the text are a located error.
- **Features**: ``from_name`` (the control tag's name) and, for predictions, ``score`` (the region's own
  ``score``, else the prediction's). ``label_feature`` may name either.
- **Coverage**: an annotation covers its task for its user, even with an empty ``result`` (a finished
  annotation that found nothing); one with ``was_cancelled: true`` (a skipped task) does not, and a note
  counts them. A task that has no annotation of a user is not covered for that user. When a user has several
  annotations of one task, the last finished one (in file order) is read and a note counts the others
  (predictions of one model version alike).
- Drafts, reviews, history and ``meta`` are ignored. Errors (invalid JSON, a task that is no object, a
  region without integer offsets, ...) raise :class:`InputError` naming the file, the task and the region.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..annotations.table import Corpus
from ..errors import ConfigError, InputError
from .multiset import MultiSetBuilder, export_files
from .parse import json_file

#: task keys that are no task data (for a task without ``data``)
_TASK_KEYS = {"id", "annotations", "completions", "predictions", "drafts", "meta", "created_at", "updated_at",
              "inner_id", "total_annotations", "cancelled_annotations", "total_predictions", "comment_count",
              "unresolved_comment_count", "last_comment_updated_at", "project", "updated_by", "file_upload",
              "comment_authors", "agreement", "annotators", "is_labeled", "overlap", "task_path"}
#: the set of an annotation that does not say who made it
NO_USER = "annotator"
#: the result types that give the document categories
CATEGORY_TYPES = ("choices", "taxonomy")


def read_labelstudio(path: str | os.PathLike, *, selectors: Sequence[str] = ("ents",),
                     features: Sequence[str] | None = None, label_feature: str | None = None,
                     text_key: str | None = None, **options: Any) -> Corpus:
    """Read a Label Studio JSON export (a file or a folder of ``.json`` files) into a :class:`Corpus` with one
    set per user and per model version (see the module docstring).

    ``text_key`` names the ``data`` field holding the text when it is not ``text`` and ``data`` has several
    string fields.
    """
    if text_key is not None and (not isinstance(text_key, str) or not text_key):
        raise ConfigError(f"text_key must name a field of the tasks' data, got {text_key!r}")
    p = Path(path)
    files = export_files(p, (".json",), recursive=False, hint=" (a Label Studio export is a .json file)")
    builder = MultiSetBuilder(str(p), features=features, label_feature=label_feature, covered_field="value.text")
    reader = _Reader(builder, text_key)
    for f in files:
        reader.read_file(f, prefix=f"{f.stem}:" if p.is_dir() else "")
    reader.notes()
    return builder.build(selectors)


def _load(p: Path) -> Any:
    return json_file(p, expected="a Label Studio export is a JSON list of tasks")


def _name(v: Any) -> str:
    return type(v).__name__


class _Reader:
    """Reads tasks into one builder, counting what is left out."""

    def __init__(self, builder: MultiSetBuilder, text_key: str | None) -> None:
        self.b = builder
        self.text_key = text_key
        self.cancelled = 0
        self.replaced = 0
        self.ignored: Counter[str] = Counter()
        self.unlabelled = 0
        self.other_field = 0

    def read_file(self, p: Path, prefix: str) -> None:
        value = _load(p)
        tasks = value if isinstance(value, list) else [value]
        for i, task in enumerate(tasks):
            if not isinstance(task, dict):
                raise InputError(f"{p}, task [{i}]: expected a task object with \"data\" and \"annotations\", got "
                                 f"{_name(task)}; a Label Studio export is a JSON list of tasks")
            self.read_task(task, f"{prefix}{i}", str(p), i)

    def read_task(self, task: dict[str, Any], position: str, source: str, i: int) -> None:
        doc_id = str(task["id"]) if task.get("id") is not None else position
        loc = f"{source}, task [{i}] (id {doc_id!r})"
        text, field = self._text(task, loc)
        d = self.b.document(doc_id, text, source)
        records = task.get("annotations")
        if records is None:
            records = task.get("completions")
        for key, items in (("annotations", records), ("predictions", task.get("predictions"))):
            if items is None:
                continue
            if not isinstance(items, list):
                raise InputError(f"{loc}: \"{key}\" must be a list, got {_name(items)}")
            by_set: dict[str, list[tuple[int, dict[str, Any], bool]]] = {}
            for j, ann in enumerate(items):
                if not isinstance(ann, dict):
                    raise InputError(f"{loc}, {key}[{j}]: expected an annotation object, got {_name(ann)}")
                if key == "predictions":
                    version = ann.get("model_version")
                    name = f"model:{version}" if version not in (None, "") else "model"
                    cancelled = False
                else:
                    name = _user(ann.get("completed_by"), f"{loc}, {key}[{j}]")
                    cancelled = ann.get("was_cancelled") is True or ann.get("skipped") is True
                by_set.setdefault(name, []).append((j, ann, cancelled))
            for name, found in by_set.items():
                finished = [(j, ann) for j, ann, cancelled in found if not cancelled]
                if not finished:  # cancelled (skipped): the task is not annotated by this user
                    self.cancelled += 1
                    self.b.declare_set(name)
                    continue
                self.replaced += len(found) - 1
                j, ann = finished[-1]
                self.read_annotation(ann, name, key == "annotations", d, doc_id, text, field, f"{loc}, {key}[{j}]")

    def _text(self, task: dict[str, Any], loc: str) -> tuple[str, str]:
        data = task.get("data")
        if data is None:
            data = {k: v for k, v in task.items() if k not in _TASK_KEYS}
        if not isinstance(data, dict):
            raise InputError(f"{loc}: \"data\" must be an object holding the task's text, got {_name(data)}")
        if self.text_key is not None:
            key = self.text_key
        elif "text" in data:
            key = "text"
        else:
            strings = [k for k, v in data.items() if isinstance(v, str)]
            if len(strings) != 1:
                raise InputError(f"{loc}: cannot tell which field of \"data\" holds the text (fields: "
                                 f"{', '.join(map(repr, data)) or 'none'}); pass text_key")
            key = strings[0]
        text = data.get(key)
        if not isinstance(text, str):
            got = "no such field" if key not in data else f"a {_name(text)}"
            raise InputError(f"{loc}: data[{key!r}] must be the task's text, got {got} (fields: "
                             f"{', '.join(map(repr, data)) or 'none'})")
        return text, key

    def read_annotation(self, ann: dict[str, Any], name: str, annotator: bool, d: int, doc_id: str, text: str,
                        field: str, loc: str) -> None:
        self.b.cover(name, d, annotator)
        results = ann.get("result", ann.get("results"))
        if results is None:
            return
        if isinstance(results, dict):
            results = [results]
        if not isinstance(results, list):
            raise InputError(f"{loc}: \"result\" must be a list of regions, got {_name(results)}")
        flat: list[Any] = []
        for r in results:  # the 0.x extra nesting: a list of lists of regions
            flat.extend(r if isinstance(r, list) else [r])
        for k, region in enumerate(flat):
            self.read_region(region, name, annotator, ann.get("score"), d, text, field, f"{loc}, result[{k}]")

    def read_region(self, region: Any, name: str, annotator: bool, score: Any, d: int, text: str, field: str,
                    loc: str) -> None:
        if not isinstance(region, dict):
            raise InputError(f"{loc}: expected a region object, got {_name(region)}")
        kind = region.get("type")
        if isinstance(kind, str) and kind.lower() in CATEGORY_TYPES:
            self.read_choices(region, kind.lower(), name, annotator, d, loc)
            return
        if not isinstance(kind, str) or kind.lower() != "labels":
            self.ignored[str(kind)] += 1
            return
        source = region.get("source")
        if isinstance(source, str) and source.startswith("$") and source[1:] != field:
            self.other_field += 1
            return
        value = region.get("value")
        if not isinstance(value, dict):
            raise InputError(f"{loc}: a labels region needs a \"value\" object, got {_name(value)}")
        start, end = value.get("start"), value.get("end")
        for what, v in (("start", start), ("end", end)):
            if not isinstance(v, int) or isinstance(v, bool):
                raise InputError(f"{loc}: value.{what} must be an integer character offset, got {v!r}")
        labels = value.get("labels")
        if isinstance(labels, str):
            labels = [labels]
        if not isinstance(labels, list):
            raise InputError(f"{loc}: value.labels must be a list of labels, got {_name(labels)}")
        if not labels:
            self.unlabelled += 1
            return
        if not 0 <= start <= end <= len(text):
            raise InputError(f"{loc}: span [{start}, {end}) out of range for a text of {len(text)} characters "
                             f"(code points, end exclusive); check the file")
        recorded = value.get("text")
        feats: dict[str, Any] = {}
        if region.get("from_name") is not None:
            feats["from_name"] = region["from_name"]
        if not annotator:
            s = region.get("score", score)
            if s is not None:
                feats["score"] = s
        for label in labels:
            if not isinstance(label, str) or not label:
                raise InputError(f"{loc}: a label must be a non-empty string, got {label!r}")
            self.b.add(name, d, start, end, label, feats, recorded=recorded if isinstance(recorded, str) else None,
                       annotator=annotator)

    def read_choices(self, region: dict[str, Any], kind: str, name: str, annotator: bool, d: int,
                     loc: str) -> None:
        """A ``choices`` or ``taxonomy`` result: the document's categories (one region's choices, with
        offsets, are counted as left out)."""
        value = region.get("value")
        if not isinstance(value, dict):
            raise InputError(f"{loc}: a {kind} result needs a \"value\" object, got {_name(value)}")
        if value.get("start") is not None or value.get("end") is not None:
            self.ignored[f"{kind} (per region)"] += 1
            return
        items = value.get(kind)
        if isinstance(items, str):
            items = [items]
        if not isinstance(items, list):
            raise InputError(f"{loc}: value.{kind} must be a list, got {_name(items)}")
        for item in items:
            if kind == "taxonomy":
                path = item if isinstance(item, list) else [item]
                if not path or not all(isinstance(level, str) and level for level in path):
                    raise InputError(f"{loc}: a taxonomy choice is a list of non-empty strings (its path), got "
                                     f"{item!r:.60}")
                item = "/".join(path)
            if not isinstance(item, str) or not item:
                raise InputError(f"{loc}: a choice must be a non-empty string, got {item!r:.60}")
            self.b.categorise(name, d, item, 1.0, annotator=annotator, loc=loc)

    def notes(self) -> None:
        if self.cancelled:
            self.b.note(f"{self.cancelled} task(s) cancelled (skipped) by a user left out: they count as not "
                        f"annotated by that user")
        if self.replaced:
            self.b.note(f"{self.replaced} annotation(s) left out because the same user (or model version) has a "
                        f"later finished one of the same task")
        if self.ignored:
            kinds = ", ".join(f"{n} {k}" for k, n in sorted(self.ignored.items()))
            self.b.note(f"results that are neither text spans nor document categories left out ({kinds}); "
                        f"'labels' regions (spans) and 'choices'/'taxonomy' results (document categories) are "
                        f"read")
        if self.unlabelled:
            self.b.note(f"{self.unlabelled} region(s) without a label left out")
        if self.other_field:
            self.b.note(f"{self.other_field} region(s) on another data field than the text read left out "
                        f"(choose the field with text_key)")


def _user(completed_by: Any, loc: str) -> str:
    """The set name of an annotation's ``completed_by``: its email, else ``user<ID>``, else :data:`NO_USER`."""
    if completed_by is None:
        return NO_USER
    if isinstance(completed_by, dict):
        email = completed_by.get("email")
        if isinstance(email, str) and email.strip():
            return email.strip()
        completed_by = completed_by.get("id")
        if completed_by is None:
            return NO_USER
    if isinstance(completed_by, bool) or not isinstance(completed_by, (int, str)) or completed_by == "":
        raise InputError(f"{loc}: \"completed_by\" must be a user id or a user object, got {completed_by!r}")
    return f"user{completed_by}"


__all__ = ["NO_USER", "read_labelstudio"]
