"""Build the Corpus QA report of the demo corpus and screenshot its HTML page with headless Chromium.

    python scripts/screenshot_report.py [--out docs/qa_report.png] [--tab diff] [--keep DIR]
    python scripts/screenshot_report.py --all DIR [--keep DIR]

Compares ``assets/demo/key.jsonl`` with ``assets/demo/response.jsonl``
(:func:`spacy_anno_eval.spans.engine.evaluate`), writes the reports into a temporary
folder (or ``--keep DIR``) and saves a PNG of the HTML page. With ``--all DIR``,
builds every HTML page kind through the ``anno-eval`` commands (:func:`build_pages`:
the QA page, the IAA matrix and a pair page for F-measure and for kappa, the
benchmark page with a regression) and saves one PNG per kind at 1400 and at
800 px wide into ``DIR``. Needs Chromium (Debian: ``apt-get install chromium``);
runs offline.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM_FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync",
                  "--hide-scrollbars")


def find_chromium() -> str | None:
    """The Chromium binary: ``$CHROMIUM``, /usr/bin/chromium, or chromium / chromium-browser on PATH."""
    for candidate in (os.environ.get("CHROMIUM"), "/usr/bin/chromium", shutil.which("chromium"),
                      shutil.which("chromium-browser")):
        if candidate and Path(candidate).is_file():
            return candidate
    return None


def chromium(args: list[str], chromium_bin: str, timeout: float = 120) -> subprocess.CompletedProcess:
    """Run headless Chromium with a throw-away profile."""
    with tempfile.TemporaryDirectory(prefix="anno-eval-chromium-") as profile:
        return subprocess.run([chromium_bin, *CHROMIUM_FLAGS, f"--user-data-dir={profile}", *args],
                              capture_output=True, text=True, timeout=timeout, check=False)


def build_report(out_dir: Path) -> Path:
    from spacy_anno_eval.report import write_reports
    from spacy_anno_eval.spans.engine import evaluate

    ev = evaluate(ROOT / "assets" / "demo" / "key.jsonl", ROOT / "assets" / "demo" / "response.jsonl")
    return write_reports(ev, out_dir, title="Corpus QA · demo corpus (key vs response)")["html"]


# ------------------------------------------------------------ every page kind ---

PAGE_KINDS = ("qa", "iaa-fmeasure", "iaa-fmeasure-pair", "iaa-kappa", "iaa-kappa-pair", "benchmark")
SIZES = ((1400, 900), (800, 900))


def _cli(*args: object) -> int:
    """Run ``anno-eval ARGS`` in this process; return its exit code (an internal error is raised)."""
    from typer.testing import CliRunner

    from spacy_anno_eval.cli.app import app

    result = CliRunner().invoke(app, [str(a) for a in args])
    if result.exit_code not in (0, 1):
        raise RuntimeError(f"anno-eval {' '.join(map(str, args))} exited {result.exit_code}:\n{result.output}")
    return result.exit_code


def _records(name: str) -> list[dict]:
    import json

    path = ROOT / "assets" / "demo" / name
    return [json.loads(line) for line in path.read_text(encoding="utf8").splitlines() if line.strip()]


def iaa_corpus(path: Path) -> Path:
    """The demo texts with three annotators as span groups: a1 the key, a2 the response, a3 the key with
    ORG read as LOC and each document's last span left out."""
    import spacy
    from spacy.tokens import DocBin

    nlp = spacy.blank("en")
    docs = []
    for key, response in zip(_records("key.jsonl"), _records("response.jsonl"), strict=True):
        doc = nlp(key["text"])
        doc.user_data["doc_id"] = key["meta"]["id"]
        third = [dict(s, label="LOC" if s["label"] == "ORG" else s["label"]) for s in key["spans"][:-1]]
        for name, spans in (("a1", key["spans"]), ("a2", response["spans"]), ("a3", third)):
            made = (doc.char_span(s["start"], s["end"], s["label"], alignment_mode="expand") for s in spans)
            doc.spans[name] = [s for s in made if s is not None]
        docs.append(doc)
    path.parent.mkdir(parents=True, exist_ok=True)
    DocBin(docs=docs, store_user_data=True).to_disk(path)
    return path


def _ruler(out: Path, drop: tuple[str, ...] = (), version: str = "1.0.0") -> Path:
    """An entity ruler made from the demo gold (without the labels in ``drop``), saved to ``out``."""
    import spacy

    nlp = spacy.blank("en")
    nlp.meta["name"], nlp.meta["version"] = "demo", version
    nlp.add_pipe("entity_ruler").add_patterns(
        [{"label": s["label"], "pattern": r["text"][s["start"]:s["end"]]}
         for r in _records("key.jsonl") for s in r["spans"] if s["label"] not in drop])
    nlp.to_disk(out)
    return out


def build_pages(out_dir: Path) -> dict[str, Path]:
    """Every HTML page kind, made by the ``anno-eval`` commands on the demo corpus, in ``out_dir``."""
    import json

    out_dir.mkdir(parents=True, exist_ok=True)
    key, response = ROOT / "assets" / "demo" / "key.jsonl", ROOT / "assets" / "demo" / "response.jsonl"
    pages = {"qa": out_dir / "qa.html"}
    _cli("qa", key, response, "--html", pages["qa"], "--quiet")
    pages["qa-errors"] = out_dir / "qa-errors.html"
    _cli("qa", key, response, "--html", pages["qa-errors"], "--confusion", "--ci", 200, "--buckets", "--quiet")
    corpus = iaa_corpus(out_dir / "iaa.spacy")
    for measure in ("fmeasure", "kappa"):
        folder = out_dir / f"iaa-{measure}"
        types = ("--types", "*") if measure == "kappa" else ()  # kappa: the categories are the labels
        _cli("iaa", corpus, "--sets", "spans:a1;spans:a2;spans:a3", *types, "--measure", measure,
             "--html", folder, "--quiet")
        pages[f"iaa-{measure}"] = folder / "index.html"
        pages[f"iaa-{measure}-pair"] = folder / "pair-0-2.html"
    bench = out_dir / "bench"
    for sub in ("clean", "marked"):
        (bench / sub).mkdir(parents=True, exist_ok=True)
    (bench / "clean" / "texts.jsonl").write_text(
        "".join(json.dumps({"text": r["text"], "meta": r["meta"]}) + "\n" for r in _records("key.jsonl")),
        encoding="utf8")
    shutil.copy(key, bench / "marked" / "gold.jsonl")
    good = _ruler(out_dir / "model-good")
    bad = _ruler(out_dir / "model-bad", drop=("LOC",), version="2.0.0")
    _cli("benchmark", "store", bench, "--model", good, "--quiet")
    pages["benchmark"] = out_dir / "benchmark.html"
    _cli("benchmark", "default", bench, "--model", bad, "--samples", 200, "--html", pages["benchmark"], "--quiet")
    return pages


def screenshot(page: Path, shot: Path, size: tuple[int, int], chromium_bin: str, fragment: str = "") -> bool:
    """Save a PNG of ``page`` (``#fragment``) at window ``size``; whether it was written."""
    shot.unlink(missing_ok=True)
    result = chromium([f"--screenshot={shot.resolve()}", f"--window-size={size[0]},{size[1]}",
                       "--virtual-time-budget=2000", page.resolve().as_uri() + (f"#{fragment}" if fragment else "")],
                      chromium_bin)
    if result.returncode != 0 or not shot.exists():
        print(result.stderr, file=sys.stderr)
        return False
    return True


def screenshot_all(out: Path, chromium_bin: str, keep: Path | None = None) -> list[Path]:
    """Build every page kind (:func:`build_pages`) and screenshot each at every size of :data:`SIZES`."""
    out.mkdir(parents=True, exist_ok=True)
    shots = []
    with tempfile.TemporaryDirectory(prefix="anno-eval-pages-") as tmp:
        pages = build_pages(keep or Path(tmp))
        for kind, page in pages.items():
            for size in SIZES:
                shot = out / f"{kind}-{size[0]}.png"
                if not screenshot(page, shot, size, chromium_bin):
                    raise RuntimeError(f"no screenshot of {page}")
                shots.append(shot)
    return shots


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "qa_report.png")
    parser.add_argument("--tab", default="corpus+diff",
                        help="tabs to show, joined by +: corpus, documents, diff, classification; or all")
    parser.add_argument("--size", default="1400,1000", help="window size WIDTH,HEIGHT")
    parser.add_argument("--keep", type=Path, help="write the reports here instead of a temporary folder")
    parser.add_argument("--all", type=Path, metavar="DIR",
                        help="screenshot every page kind at 1400 and 800 px into DIR (KIND-WIDTH.png)")
    args = parser.parse_args(argv)
    binary = find_chromium()
    if binary is None:
        print("Chromium not found (apt-get install chromium, or set $CHROMIUM)", file=sys.stderr)
        return 2
    if args.all is not None:
        shots = screenshot_all(args.all, binary, args.keep)
        print(f"{len(shots)} screenshots written to {args.all}")
        return 0
    with tempfile.TemporaryDirectory(prefix="anno-eval-report-") as tmp:
        html = build_report(args.keep or Path(tmp))
        args.out.parent.mkdir(parents=True, exist_ok=True)
        shot = args.out.resolve()
        shot.unlink(missing_ok=True)
        result = chromium([f"--screenshot={shot}", f"--window-size={args.size}",
                           "--virtual-time-budget=2000", f"{html.resolve().as_uri()}#{args.tab}"], binary)
        if result.returncode != 0 or not shot.exists():
            print(result.stderr, file=sys.stderr)
            return 1
    print(f"screenshot written to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
