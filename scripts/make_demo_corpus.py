"""Write the embedded demo corpus ``assets/demo/{key,response}.jsonl``.

The texts are written for this project (CC0): short news-style documents with
a gold annotation (key) and the output of an imaginary NER system (response)
that makes the usual mistakes: boundary errors (partial), label confusions
(incorrect), misses and false alarms. Run ``python scripts/make_demo_corpus.py``
to rebuild the files; the project ships its output.
"""

from __future__ import annotations

import json
from pathlib import Path

# (id, text, key spans, response spans); a span is (surface, label) or (surface, label, occurrence)
DOCS = [
    ("d01", "Ada Lovelace wrote the first program for Charles Babbage's Analytical Engine in London.",
     [("Ada Lovelace", "PER"), ("Charles Babbage", "PER"), ("Analytical Engine", "MISC"), ("London", "LOC")],
     [("Ada Lovelace", "PER"), ("Charles Babbage's", "PER"), ("London", "LOC")]),
    ("d02", "The European Space Agency launched the probe from Kourou on Tuesday.",
     [("European Space Agency", "ORG"), ("Kourou", "LOC")],
     [("European Space Agency", "ORG"), ("Kourou", "LOC"), ("Tuesday", "MISC")]),
    ("d03", "Grace Hopper joined the Navy reserve and later worked at Remington Rand.",
     [("Grace Hopper", "PER"), ("Navy", "ORG"), ("Remington Rand", "ORG")],
     [("Grace Hopper", "PER"), ("Navy reserve", "ORG"), ("Remington Rand", "PER")]),
    ("d04", "Residents of Lagos and Accra watched the final between Nigeria and Ghana.",
     [("Lagos", "LOC"), ("Accra", "LOC"), ("Nigeria", "ORG"), ("Ghana", "ORG")],
     [("Lagos", "LOC"), ("Accra", "LOC"), ("Nigeria", "LOC"), ("Ghana", "LOC")]),
    ("d05", "Marie Curie received the Nobel Prize in Chemistry in 1911.",
     [("Marie Curie", "PER"), ("Nobel Prize in Chemistry", "MISC")],
     [("Marie Curie", "PER"), ("Nobel Prize", "MISC")]),
    ("d06", "The Rhine flows through Basel, Strasbourg and Cologne before reaching Rotterdam.",
     [("Rhine", "LOC"), ("Basel", "LOC"), ("Strasbourg", "LOC"), ("Cologne", "LOC"), ("Rotterdam", "LOC")],
     [("Rhine", "LOC"), ("Basel", "LOC"), ("Strasbourg", "LOC"), ("Rotterdam", "LOC")]),
    ("d07", "Alan Turing worked at Bletchley Park during the war and later at the University of Manchester.",
     [("Alan Turing", "PER"), ("Bletchley Park", "LOC"), ("University of Manchester", "ORG")],
     [("Alan Turing", "PER"), ("Bletchley Park", "ORG"), ("University of Manchester", "ORG")]),
    ("d08", "Shares of Nordwind Energy rose after the Oslo exchange opened.",
     [("Nordwind Energy", "ORG"), ("Oslo", "LOC")],
     [("Nordwind", "ORG"), ("Oslo exchange", "ORG")]),
    ("d09", "Katherine Johnson calculated trajectories for NASA missions.",
     [("Katherine Johnson", "PER"), ("NASA", "ORG")],
     [("Katherine Johnson", "PER"), ("NASA", "ORG")]),
    ("d10", "The Danube Festival in Vienna drew visitors from Budapest and Bratislava.",
     [("Danube Festival", "MISC"), ("Vienna", "LOC"), ("Budapest", "LOC"), ("Bratislava", "LOC")],
     [("Danube", "LOC"), ("Vienna", "LOC"), ("Budapest", "LOC"), ("Bratislava", "LOC")]),
    ("d11", "Tim Berners-Lee proposed the World Wide Web while working at CERN in Geneva.",
     [("Tim Berners-Lee", "PER"), ("World Wide Web", "MISC"), ("CERN", "ORG"), ("Geneva", "LOC")],
     [("Tim Berners", "PER"), ("World Wide Web", "MISC"), ("CERN", "ORG"), ("Geneva", "LOC")]),
    ("d12", "The mayor of Porto met representatives of the Harbour Workers Union on Friday.",
     [("Porto", "LOC"), ("Harbour Workers Union", "ORG")],
     [("Porto", "LOC"), ("Harbour Workers Union", "ORG"), ("Friday", "MISC")]),
    ("d13", "Hedy Lamarr co-invented a frequency-hopping system with George Antheil.",
     [("Hedy Lamarr", "PER"), ("George Antheil", "PER")],
     [("Hedy Lamarr", "PER")]),
    ("d14", "Fans of Real Sociedad travelled from San Sebastian to Madrid for the cup final.",
     [("Real Sociedad", "ORG"), ("San Sebastian", "LOC"), ("Madrid", "LOC")],
     [("Real Sociedad", "ORG"), ("San Sebastian", "LOC"), ("Madrid", "LOC")]),
    ("d15", "The Mekong River Commission met in Vientiane to discuss the new dams.",
     [("Mekong River Commission", "ORG"), ("Vientiane", "LOC")],
     [("Mekong River", "LOC"), ("Vientiane", "LOC")]),
    ("d16", "No named entities appear in this short sentence about the weather.",
     [],
     []),
]


def find(text: str, surface: str, occurrence: int = 0) -> tuple[int, int]:
    start = -1
    for _ in range(occurrence + 1):
        start = text.index(surface, start + 1)
    return start, start + len(surface)


def record(doc_id: str, text: str, spans: list[tuple]) -> dict:
    out = []
    for span in spans:
        start, end = find(text, span[0], *span[2:])
        out.append({"start": start, "end": end, "label": span[1]})
    return {"text": text, "spans": sorted(out, key=lambda s: (s["start"], s["end"])), "meta": {"id": doc_id}}


DEMO_DIR = Path(__file__).resolve().parents[1] / "assets" / "demo"


def main(out_dir: Path = DEMO_DIR) -> None:
    out_dir.mkdir(parents=True, exist_ok=True)
    for name, column in (("key", 2), ("response", 3)):
        lines = [json.dumps(record(d[0], d[1], d[column]), ensure_ascii=False) for d in DOCS]
        (out_dir / f"{name}.jsonl").write_text("\n".join(lines) + "\n", encoding="utf8")


if __name__ == "__main__":
    main()
