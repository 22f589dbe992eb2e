"""A small file of each built-in coreference format, for the readers' contract suite
(``tests/coref/test_coref_reader_contract.py``) and for trying a reader by hand.

Each sample holds the same one document, ``d1``: ``Ada Lovelace wrote the notes . She published them .`` with
two entities, Ada Lovelace / She (tokens 0-1 and 6) and the notes / them (tokens 3-4 and 8). A function returns
the file's bytes, which the registry (:mod:`.readers`) writes under the reader's first suffix.
"""

from __future__ import annotations

import json

TOKENS = ("Ada", "Lovelace", "wrote", "the", "notes", ".", "She", "published", "them", ".")
SENTENCES = (TOKENS[:6], TOKENS[6:])
#: the sample's entities, as every reader returns them: mentions (first token, last token), inclusive
ENTITIES = (((0, 1), (6, 6)), ((3, 4), (8, 8)))
NAME = "d1"


def conll2012() -> bytes:
    """The CoNLL-2012 sample (``#begin document``, one token a line, brackets in the last column)."""
    brackets = {0: "(0", 1: "0)", 3: "(1", 4: "1)", 6: "(0)", 8: "(1)"}
    lines = [f"#begin document ({NAME}); part 000"]
    for i, token in enumerate(TOKENS):
        if i == len(SENTENCES[0]):
            lines.append("")
        lines.append(f"{NAME}\t0\t{i}\t{token}\t{brackets.get(i, '-')}")
    lines += ["", "#end document", ""]
    return "\n".join(lines).encode("utf-8")


def corefud() -> bytes:
    """The CorefUD 1.0 sample (CoNLL-U, ``Entity=`` in MISC)."""
    entity = {0: "(e1-person-1-", 1: "e1)", 3: "(e2-object-2-", 4: "e2)", 6: "(e1-person-1-)", 8: "(e2-object-1-)"}
    lines = [f"# newdoc id = {NAME}", "# global.Entity = eid-etype-head-other"]
    at = 0
    for n, sentence in enumerate(SENTENCES, 1):
        lines.append(f"# sent_id = {n}")
        for k, token in enumerate(sentence, 1):
            misc = f"Entity={entity[at]}" if at in entity else "_"
            lines.append("\t".join([str(k), token, "_", "_", "_", "_", "0", "_", "_", misc]))
            at += 1
        lines.append("")
    return ("\n".join(lines) + "\n").encode("utf-8")


def jsonl() -> bytes:
    """The JSON-lines sample: the document in e2e-coref's convention (token indices, end inclusive), then again
    as text with character offsets (end exclusive), named ``d2``."""
    text = " ".join(TOKENS)
    starts = [text.index(t, sum(len(x) + 1 for x in TOKENS[:i])) for i, t in enumerate(TOKENS)]
    chars = [[[starts[s], starts[e] + len(TOKENS[e])] for s, e in entity] for entity in ENTITIES]
    records = [{"doc_key": NAME, "sentences": [list(s) for s in SENTENCES], "clusters": [list(map(list, e))
                                                                                        for e in ENTITIES]},
               {"id": "d2", "text": text, "clusters": chars}]
    return "".join(json.dumps(r) + "\n" for r in records).encode("utf-8")


def docbin() -> bytes:
    """The DocBin sample: spaCy Docs with one span group per entity (``coref_clusters_1``, ``_2``)."""
    from spacy.tokens import Doc, DocBin, Span
    from spacy.vocab import Vocab

    doc = Doc(Vocab(), words=list(TOKENS), sent_starts=[i in (0, len(SENTENCES[0])) for i in range(len(TOKENS))])
    doc.user_data["doc_id"] = NAME
    for n, entity in enumerate(ENTITIES, 1):
        doc.spans[f"coref_clusters_{n}"] = [Span(doc, s, e + 1) for s, e in entity]
    return DocBin(store_user_data=True, docs=[doc]).to_bytes()


__all__ = ["ENTITIES", "NAME", "SENTENCES", "TOKENS", "conll2012", "corefud", "docbin", "jsonl"]
