"""What a file's beginning says it is, for the suffixes several span formats share (``.xml``, ``.json``, ``.jsonl``,
``.tsv``): read by :func:`spacy_anno_eval.io.detect_format` and by the registry's readers that claim such files
(:meth:`spacy_anno_eval.io.registry.Reader.claims`). Never an error: a file that cannot be told is ``None``."""

from __future__ import annotations

import os
from pathlib import Path

from ..errors import InputError
from .parse import head_bytes, open_binary

#: suffixes shared by several formats: the file's beginning tells (:func:`sniff_format`)
SNIFFED = (".xml", ".json", ".jsonl", ".tsv")


def _head(path: Path, size: int = 8192) -> str:
    try:
        return head_bytes(path, size).decode("utf-8", errors="replace").lstrip("\ufeff \t\r\n")
    except InputError:
        return ""


def _contains(path: Path, needle: bytes, chunk: int = 1 << 20) -> bool:
    """Whether the file holds ``needle``, read in chunks (``False`` when it cannot be read)."""
    tail = b""
    try:
        with open_binary(path) as f:
            while block := f.read(chunk):
                if needle in tail + block:
                    return True
                tail = block[-len(needle):]
    except (InputError, OSError):
        return False
    return False


def _first_json_keys(head: str) -> set[str]:
    """The keys of the first JSON object in ``head`` (a JSONL line, or the first item of a JSON list), as far as
    they can be told from a prefix."""
    import re

    from .parse import sniff_json

    line = head.split("\n", 1)[0] if not head.startswith("[") else head
    value = sniff_json(line)
    if value is None:  # a prefix of a longer document, or nested too deep to tell: the keys at depth one or
        # two, by their look
        return set(re.findall(r'"([A-Za-z_][\w.]*)"\s*:', head[:4096]))
    if isinstance(value, list):
        value = value[0] if value else {}
    return set(value) if isinstance(value, dict) else set()


def sniff_format(path: str | os.PathLike) -> str | None:
    """The format a file's beginning says it is, for suffixes several formats share (``.xml``, ``.json``,
    ``.jsonl``, ``.tsv``); ``None`` when it does not say."""
    p = Path(path)
    suffix = p.suffix.lower()
    if suffix == ".xml":
        from .xml import root_name

        return {"GateDocument": "gate", "collection": "bioc", "XMI": "xmi"}.get(root_name(p) or "")
    head = _head(p)
    if suffix == ".tsv":
        return "tsv3" if head.startswith("#FORMAT=WebAnno TSV 3") else None
    keys = _first_json_keys(head)
    if suffix == ".json":
        if "annotation_sets" in keys or head.startswith('{"annotation_sets"'):
            return "gate"
        if "documents" in keys and ("source" in keys or "date" in keys or "key" in keys):
            return "bioc"
        if keys & {"annotations", "completions", "predictions"} or ("data" in keys and "id" in keys):
            return "labelstudio"
        if head.startswith("{") and _contains(p, b'"annotation_sets"'):  # gatenlp may write a long text first
            return "gate"
        return None
    if suffix == ".jsonl":
        if keys & {"_annotator_id", "_session_id"}:
            return "prodigy"
        if "text" in keys and (keys & {"label", "labels", "entities", "annotations"} or '"start_offset"' in head) \
                and "spans" not in keys and not keys & {"_input_hash", "_task_hash", "answer"}:
            return "doccano"
        return "jsonl"
    return None


__all__ = ["SNIFFED", "sniff_format"]
