"""Write the embedded demo corpus ``assets/demo/{key,response,train}.jsonl``.

The texts are written for this project (CC0): short news-style documents.

- ``key.jsonl`` (16 documents, ``d01``-``d16``): the gold annotation of the
  evaluation (test) documents;
- ``response.jsonl``: the output of an imaginary NER system ("v0") on the
  same documents, with the usual mistakes: boundary errors (partial), label
  confusions (incorrect), misses and false alarms;
- ``train.jsonl`` (48 documents, ``t01``-``t48``): more gold-annotated
  documents for the project's two model versions to learn from
  (``scripts/convert_jsonl.py`` splits them into train and dev). Some of their
  names recur in the test documents, most do not, so a model learnt from them
  generalises imperfectly, as real ones do.

Run ``python scripts/make_demo_corpus.py`` to rebuild the files; the project
ships its output.
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


# (id, text, gold spans): documents to learn from; a label per name is used consistently,
# except where the same name is a team (ORG) in a sports story and a country (LOC) elsewhere
TRAIN_DOCS = [
    ("t01", "Researchers at the University of Edinburgh published a study on North Sea cod stocks with funding "
            "from the Wellcome Trust.",
     [("University of Edinburgh", "ORG"), ("North Sea", "LOC"), ("Wellcome Trust", "ORG")]),
    ("t02", "Angela Merkel met Emmanuel Macron in Berlin to discuss the budget of the European Union.",
     [("Angela Merkel", "PER"), ("Emmanuel Macron", "PER"), ("Berlin", "LOC"), ("European Union", "ORG")]),
    ("t03", "NASA and the European Space Agency will share data from the Mars Sample Return mission.",
     [("NASA", "ORG"), ("European Space Agency", "ORG"), ("Mars Sample Return", "MISC")]),
    ("t04", "Flooding closed roads between Lagos and Ibadan on Monday, the Red Cross said.",
     [("Lagos", "LOC"), ("Ibadan", "LOC"), ("Red Cross", "ORG")]),
    ("t05", "The striker Erling Haaland scored twice as Manchester City beat Arsenal in London.",
     [("Erling Haaland", "PER"), ("Manchester City", "ORG"), ("Arsenal", "ORG"), ("London", "LOC")]),
    ("t06", "Physicists at CERN in Geneva announced a new measurement of the mass of the W boson.",
     [("CERN", "ORG"), ("Geneva", "LOC")]),
    ("t07", "Chimamanda Ngozi Adichie read from her new novel at the Hay Festival in Wales.",
     [("Chimamanda Ngozi Adichie", "PER"), ("Hay Festival", "MISC"), ("Wales", "LOC")]),
    ("t08", "Volvo Cars opened a battery plant near Gothenburg with support from the Swedish government.",
     [("Volvo Cars", "ORG"), ("Gothenburg", "LOC"), ("Swedish", "MISC")]),
    ("t09", "The Amazon River carries more water than the Nile, the Yangtze and the Mississippi combined.",
     [("Amazon River", "LOC"), ("Nile", "LOC"), ("Yangtze", "LOC"), ("Mississippi", "LOC")]),
    ("t10", "Serena Williams won the Wimbledon title for the seventh time.",
     [("Serena Williams", "PER"), ("Wimbledon", "MISC")]),
    ("t11", "The World Health Organization warned that cholera cases in Yemen were rising.",
     [("World Health Organization", "ORG"), ("Yemen", "LOC")]),
    ("t12", "Marie Curie and Pierre Curie shared the prize with Henri Becquerel.",
     [("Marie Curie", "PER"), ("Pierre Curie", "PER"), ("Henri Becquerel", "PER")]),
    ("t13", "Commuters in Vienna and Prague faced delays after a strike at Austrian Railways.",
     [("Vienna", "LOC"), ("Prague", "LOC"), ("Austrian Railways", "ORG")]),
    ("t14", "Google and Microsoft reported higher profits, lifting the Nasdaq in New York.",
     [("Google", "ORG"), ("Microsoft", "ORG"), ("Nasdaq", "ORG"), ("New York", "LOC")]),
    ("t15", "Ada Lovelace is remembered every October on Ada Lovelace Day.",
     [("Ada Lovelace", "PER"), ("Ada Lovelace Day", "MISC")]),
    ("t16", "The Danube and the Rhine are linked by a canal through Bavaria.",
     [("Danube", "LOC"), ("Rhine", "LOC"), ("Bavaria", "LOC")]),
    ("t17", "Kenyan runner Eliud Kipchoge won the Berlin Marathon in record time.",
     [("Kenyan", "MISC"), ("Eliud Kipchoge", "PER"), ("Berlin Marathon", "MISC")]),
    ("t18", "The Bank of England raised interest rates, and the pound rose against the dollar.",
     [("Bank of England", "ORG")]),
    ("t19", "Engineers from Siemens and Alstom are building the new metro line in Riyadh.",
     [("Siemens", "ORG"), ("Alstom", "ORG"), ("Riyadh", "LOC")]),
    ("t20", "Nelson Mandela was released from Victor Verster Prison near Cape Town in 1990.",
     [("Nelson Mandela", "PER"), ("Victor Verster Prison", "LOC"), ("Cape Town", "LOC")]),
    ("t21", "The Louvre in Paris lent two paintings by Rembrandt to the Rijksmuseum in Amsterdam.",
     [("Louvre", "ORG"), ("Paris", "LOC"), ("Rembrandt", "PER"), ("Rijksmuseum", "ORG"), ("Amsterdam", "LOC")]),
    ("t22", "Farmers from Punjab protested against the new law outside the parliament in New Delhi.",
     [("Punjab", "LOC"), ("New Delhi", "LOC")]),
    ("t23", "UNESCO added the old town of Porto to the World Heritage List in 1996.",
     [("UNESCO", "ORG"), ("Porto", "LOC"), ("World Heritage List", "MISC")]),
    ("t24", "Katalin Kariko and Drew Weissman developed the method at the University of Pennsylvania.",
     [("Katalin Kariko", "PER"), ("Drew Weissman", "PER"), ("University of Pennsylvania", "ORG")]),
    ("t25", "Ferries between Helsinki and Tallinn were cancelled because of ice on the Baltic Sea.",
     [("Helsinki", "LOC"), ("Tallinn", "LOC"), ("Baltic Sea", "LOC")]),
    ("t26", "The Olympic flame arrived in Athens before travelling on to Tokyo.",
     [("Olympic", "MISC"), ("Athens", "LOC"), ("Tokyo", "LOC")]),
    ("t27", "Toyota recalled thousands of cars sold in Canada and Mexico.",
     [("Toyota", "ORG"), ("Canada", "LOC"), ("Mexico", "LOC")]),
    ("t28", "Alan Turing's paper on computable numbers was published by the London Mathematical Society.",
     [("Alan Turing", "PER"), ("London Mathematical Society", "ORG")]),
    ("t29", "Supporters of Ghana and Senegal filled the stadium in Abidjan for the Africa Cup of Nations.",
     [("Ghana", "ORG"), ("Senegal", "ORG"), ("Abidjan", "LOC"), ("Africa Cup of Nations", "MISC")]),
    ("t30", "The Hubble Space Telescope photographed a comet as it passed Jupiter.",
     [("Hubble Space Telescope", "MISC"), ("Jupiter", "LOC")]),
    ("t31", "Wangari Maathai founded the Green Belt Movement in Nairobi.",
     [("Wangari Maathai", "PER"), ("Green Belt Movement", "ORG"), ("Nairobi", "LOC")]),
    ("t32", "Airbus delivered the first aircraft to Qantas at a ceremony in Toulouse.",
     [("Airbus", "ORG"), ("Qantas", "ORG"), ("Toulouse", "LOC")]),
    ("t33", "The Thames Barrier was closed twice this winter to protect London from tidal surges.",
     [("Thames Barrier", "LOC"), ("London", "LOC")]),
    ("t34", "Linus Torvalds released a new version of Linux from his home in Portland.",
     [("Linus Torvalds", "PER"), ("Linux", "MISC"), ("Portland", "LOC")]),
    ("t35", "Delegates from Brazil, India and South Africa met in Madrid ahead of the climate summit.",
     [("Brazil", "LOC"), ("India", "LOC"), ("South Africa", "LOC"), ("Madrid", "LOC")]),
    ("t36", "The Sydney Opera House was designed by the Danish architect Jorn Utzon.",
     [("Sydney Opera House", "LOC"), ("Danish", "MISC"), ("Jorn Utzon", "PER")]),
    ("t37", "Shares of Equinor fell in Oslo after the company cut its forecast.",
     [("Equinor", "ORG"), ("Oslo", "LOC")]),
    ("t38", "Dorothy Hodgkin worked out the structure of insulin at the University of Oxford.",
     [("Dorothy Hodgkin", "PER"), ("University of Oxford", "ORG")]),
    ("t39", "The Mekong flows from Tibet through Laos and Cambodia to Vietnam.",
     [("Mekong", "LOC"), ("Tibet", "LOC"), ("Laos", "LOC"), ("Cambodia", "LOC"), ("Vietnam", "LOC")]),
    ("t40", "Greenpeace activists climbed a rig operated by Shell in the North Sea.",
     [("Greenpeace", "ORG"), ("Shell", "ORG"), ("North Sea", "LOC")]),
    ("t41", "The novelist Haruki Murakami spoke at the Frankfurt Book Fair on Thursday.",
     [("Haruki Murakami", "PER"), ("Frankfurt Book Fair", "MISC")]),
    ("t42", "Workers at the Port of Rotterdam ended their strike after talks with the FNV union.",
     [("Port of Rotterdam", "ORG"), ("FNV", "ORG")]),
    ("t43", "The Atacama Desert in Chile is one of the driest places on Earth.",
     [("Atacama Desert", "LOC"), ("Chile", "LOC"), ("Earth", "LOC")]),
    ("t44", "Grace Hopper's team at Harvard University built the Mark I computer.",
     [("Grace Hopper", "PER"), ("Harvard University", "ORG"), ("Mark I", "MISC")]),
    ("t45", "Real Madrid signed a young midfielder from Benfica, the Lisbon club confirmed.",
     [("Real Madrid", "ORG"), ("Benfica", "ORG"), ("Lisbon", "LOC")]),
    ("t46", "Rain delayed the start of the Tour de France stage in the Pyrenees.",
     [("Tour de France", "MISC"), ("Pyrenees", "LOC")]),
    ("t47", "The International Monetary Fund praised reforms in Ghana and Kenya.",
     [("International Monetary Fund", "ORG"), ("Ghana", "LOC"), ("Kenya", "LOC")]),
    ("t48", "Jacinda Ardern visited Christchurch with leaders of the Muslim community.",
     [("Jacinda Ardern", "PER"), ("Christchurch", "LOC"), ("Muslim", "MISC")]),
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
    for name, docs, column in (("key", DOCS, 2), ("response", DOCS, 3), ("train", TRAIN_DOCS, 2)):
        lines = [json.dumps(record(d[0], d[1], d[column]), ensure_ascii=False) for d in docs]
        (out_dir / f"{name}.jsonl").write_text("\n".join(lines) + "\n", encoding="utf8")


if __name__ == "__main__":
    main()
