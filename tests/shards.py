"""Writing a key and a response corpus as DocBin shards and as one DocBin each (for the stream tests)."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from spacy.tokens import DocBin


def write_sharded(folder: Path, shards: Iterable[Iterable[tuple[Any, Any]]]) -> Path:
    """``folder/key/NN.spacy`` and ``folder/resp/NN.spacy`` for each shard of (key Doc, response Doc) pairs,
    and the same documents as ``folder/all_key.spacy`` and ``folder/all_resp.spacy``; returns ``folder``."""
    (folder / "key").mkdir()
    (folder / "resp").mkdir()
    all_k, all_r = DocBin(store_user_data=True), DocBin(store_user_data=True)
    for s, pairs in enumerate(shards):
        kb, rb = DocBin(store_user_data=True), DocBin(store_user_data=True)
        for k, r in pairs:
            for db in (kb, all_k):
                db.add(k)
            for db in (rb, all_r):
                db.add(r)
        kb.to_disk(folder / "key" / f"{s:02d}.spacy")
        rb.to_disk(folder / "resp" / f"{s:02d}.spacy")
    all_k.to_disk(folder / "all_key.spacy")
    all_r.to_disk(folder / "all_resp.spacy")
    return folder
