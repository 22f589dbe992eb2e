"""Reading annotation tools' exports: us vs the peer library, on the same generated files.

Generates one document (``--tokens`` tokens of text with an emoji now and
then, so UTF-16 offsets differ from code points) with three annotator sets of
``--spans`` annotations each, writes it as GATE XML and as UIMA CAS XMI, then
reads each file with the peer (gatenlp, dkpro-cassis) and with our reader and
prints the best time of ``--repeat`` runs, the annotation counts (which must
agree) and the ratio.

    python benchmarks/bench_readers.py [--tokens 200000] [--spans 20000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import random
import tempfile
import time
import warnings
from pathlib import Path
from xml.sax.saxutils import escape, quoteattr

from spacy_anno_eval.io import read_corpus
from spacy_anno_eval.io.offsets import Utf16Offsets


def text_and_spans(tokens: int, spans: int, seed: int = 0) -> tuple[str, dict[str, list[tuple[int, int, str]]]]:
    rng = random.Random(seed)
    words = [rng.choice(["Ada", "Lovelace", "met", "Babbage", "in", "London", "\U0001F600", "x", "."])
             for _ in range(tokens)]
    text = " ".join(words)
    starts, pos = [], 0
    for w in words:
        starts.append((pos, pos + len(w)))
        pos += len(w) + 1
    sets = {}
    for name in ("ann1", "ann2", "ann3"):
        picks = sorted(rng.sample(range(tokens), spans))
        sets[name] = [(starts[i][0], starts[i][1], rng.choice(["PER", "LOC", "ORG"])) for i in picks]
    return text, sets


def write_gate(path: Path, text: str, sets: dict[str, list[tuple[int, int, str]]]) -> None:
    u16 = Utf16Offsets(text)
    nodes = sorted({o for spans in sets.values() for s, e, _ in spans for o in (s, e)} | {0, len(text)})
    parts, last = [], 0
    for n in nodes:
        parts.append(escape(text[last:n]))
        parts.append(f'<Node id="{u16.to_utf16(n)}"/>')
        last = n
    out = ['<?xml version="1.0" encoding="UTF-8"?>', "<GateDocument version=\"3\">", "<GateDocumentFeatures>",
           "</GateDocumentFeatures>", "<TextWithNodes>" + "".join(parts) + "</TextWithNodes>"]
    ident = 0
    for name, spans in sets.items():
        out.append(f"<AnnotationSet Name={quoteattr(name)}>")
        for s, e, label in spans:
            out.append(f'<Annotation Id="{ident}" Type="{label}" StartNode="{u16.to_utf16(s)}" '
                       f'EndNode="{u16.to_utf16(e)}"></Annotation>')
            ident += 1
        out.append("</AnnotationSet>")
    out.append("</GateDocument>")
    path.write_text("\n".join(out), encoding="utf-8")


def write_xmi(path: Path, text: str, spans: list[tuple[int, int, str]]) -> None:
    u16 = Utf16Offsets(text)
    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           '<xmi:XMI xmlns:xmi="http://www.omg.org/XMI" xmlns:cas="http:///uima/cas.ecore" '
           'xmlns:type="http:///de/tudarmstadt/ukp/dkpro/core/api/ner/type.ecore" xmi:version="2.0">',
           '<cas:NULL xmi:id="0"/>']
    ids = []
    for i, (s, e, label) in enumerate(spans, 2):
        out.append(f'<type:NamedEntity xmi:id="{i}" sofa="1" begin="{u16.to_utf16(s)}" end="{u16.to_utf16(e)}" '
                   f'value="{label}"/>')
        ids.append(str(i))
    out.append(f'<cas:Sofa xmi:id="1" sofaNum="1" sofaID="_InitialView" mimeType="text" sofaString={quoteattr(text)}/>')
    out.append(f'<cas:View sofa="1" members="{" ".join(ids)}"/>')
    out.append("</xmi:XMI>")
    path.write_text("\n".join(out), encoding="utf-8")
    (path.parent / "TypeSystem.xml").write_text(
        '<?xml version="1.0" encoding="UTF-8"?><typeSystemDescription xmlns="http://uima.apache.org/resourceSpecifier">'
        "<types><typeDescription><name>de.tudarmstadt.ukp.dkpro.core.api.ner.type.NamedEntity</name>"
        "<supertypeName>uima.tcas.Annotation</supertypeName><features><featureDescription><name>value</name>"
        "<rangeTypeName>uima.cas.String</rangeTypeName></featureDescription></features></typeDescription>"
        "</types></typeSystemDescription>", encoding="utf-8")


def best(fn, repeat: int) -> tuple[float, int]:
    times, count = [], 0
    for _ in range(repeat):
        t = time.perf_counter()
        count = fn()
        times.append(time.perf_counter() - t)
    return min(times), count


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tokens", type=int, default=200_000)
    ap.add_argument("--spans", type=int, default=20_000)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    text, sets = text_and_spans(args.tokens, args.spans)
    folder = Path(tempfile.mkdtemp(prefix="bench-readers-"))
    gate, xmi = folder / "doc.xml", folder / "xmi" / "doc.xmi"
    xmi.parent.mkdir()
    write_gate(gate, text, sets)
    write_xmi(xmi, text, sets["ann1"])
    print(f"{args.tokens} tokens ({len(text)} characters), 3 sets x {args.spans} annotations")

    def ours(path: Path, fmt: str) -> int:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            c = read_corpus(path, fmt, selectors=("spans",))
        return sum(len(c.sets[s]) for s in c.found_sets if s.startswith("spans:"))

    def gatenlp_read() -> int:
        from gatenlp import Document

        doc = Document.load(str(gate), fmt="gatexml")
        return sum(len(doc.annset(n)) for n in doc.annset_names() if n)

    def cassis_read() -> int:
        import cassis

        with open(xmi.parent / "TypeSystem.xml", "rb") as f:
            ts = cassis.load_typesystem(f)
        with open(xmi, "rb") as f:
            cas = cassis.load_cas_from_xmi(f, typesystem=ts)
        return len(cas.select("de.tudarmstadt.ukp.dkpro.core.api.ner.type.NamedEntity"))

    for name, peer, fmt, path in (("GATE XML", ("gatenlp", gatenlp_read), "gate", gate),
                                  ("UIMA XMI", ("dkpro-cassis", cassis_read), "xmi", xmi)):
        t_peer, n_peer = best(peer[1], args.repeat)
        t_us, n_us = best(lambda: ours(path, fmt), args.repeat)  # noqa: B023
        print(f"{name:9} {peer[0]:13} {t_peer:7.3f} s ({n_peer} annotations)   us {t_us:7.3f} s ({n_us})   "
              f"ratio {t_peer / t_us:5.1f}x")


if __name__ == "__main__":
    main()
