"""Build the Corpus QA report of the demo corpus and screenshot its HTML page with headless Chromium.

    python scripts/screenshot_report.py [--out docs/qa_report.png] [--tab diff] [--keep DIR]

Compares ``assets/demo/key.jsonl`` with ``assets/demo/response.jsonl``
(:func:`spacy_anno_eval.spans.engine.evaluate`), writes the reports into a temporary
folder (or ``--keep DIR``) and saves a PNG of the HTML page. Needs Chromium
(Debian: ``apt-get install chromium``); runs offline.
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "qa_report.png")
    parser.add_argument("--tab", default="corpus+diff",
                        help="tabs to show, joined by +: corpus, documents, diff, classification; or all")
    parser.add_argument("--size", default="1400,1000", help="window size WIDTH,HEIGHT")
    parser.add_argument("--keep", type=Path, help="write the reports here instead of a temporary folder")
    args = parser.parse_args(argv)
    binary = find_chromium()
    if binary is None:
        print("Chromium not found (apt-get install chromium, or set $CHROMIUM)", file=sys.stderr)
        return 2
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
