"""Scoring a large sharded corpus: time and peak memory, in-process and on a local Dask cluster.

What is run:

1. A synthetic corpus of ``--docs`` documents (default 1,000,000) is written as
   DocBin shards of ``--shard-size`` documents (default 10,000, so 100 shards)
   for a key and a response, under ``--data`` (default ``/tmp/anno_eval_scale``:
   ``key/part-NNNNN.spacy``, ``response/part-NNNNN.spacy`` and
   ``manifest.json``). A folder whose manifest has the same size, shard size
   and seed is reused as it is. Documents are short (19-23 tokens of blank
   English, ``spacy.blank("en")``'s vocab) with about 2 entities each (labels
   PER/ORG/LOC/MISC); each stores ``user_data["doc_id"]``
   (``DocBin(store_user_data=True)``). The response is a noisy copy: 75 % of
   the key's entities are kept, 10 % get a boundary shifted by a token, 7 %
   are relabelled, 8 % are dropped, and 15 % of the documents get a spurious
   one-token entity. Generation is seeded (numpy, one generator per shard)
   and runs one shard per task on a ``ProcessPoolExecutor``.

2. Each measurement runs in a fresh Python subprocess, so that its peak
   resident memory (``resource.getrusage(RUSAGE_SELF).ru_maxrss``) is its
   own:

   - ``in-process``: ``score_shards(key_dir, response_dir)`` then
     ``.report(per_doc=False)``;
   - ``dask local:N``: the same with a client opened by
     ``spacy_anno_eval.cluster.open_client("local:N")`` and passed as
     ``client=``. The time excludes starting the cluster (printed apart) and
     importing the package on the workers (done first with ``client.run``).
     The peak RSS in the table is the client process's; the workers are
     separate processes, whose current and peak RSS (before and after
     scoring) are read with ``client.run`` and printed under the table.

   - ``qa``: :func:`spacy_anno_eval.workflows.qa.run_qa` over the shards, writing the
     JSON report with every document's row and the HTML report (Annotation
     Diff spooled to disk); its sizes are printed under the table.

   - ``jsonl`` / ``jsonl-whole``: the same documents' entities as one JSONL
     file for the key and one for the response (generated once under
     ``data/jsonl``), scored read in chunks of 10,000 documents
     (``score_shards(..., sharded=False, docs_per_chunk=10_000)``) and read
     whole (``evaluate``); the two reports are compared byte for byte.

   The time is the wall time of ``score_shards`` + ``report`` (``qa``: of ``run_qa``); spans are key +
   response entities (counted when the corpus was generated). "base MB" is
   the RSS of the measuring process just before scoring (imports done).
   Both reports are written with ``spacy_anno_eval.report.json.write_json`` and
   compared byte for byte ("identical: True/False").

Run::

    python benchmarks/bench_scale.py --docs 20000 --shard-size 2000   # quick
    python benchmarks/bench_scale.py                                  # 1,000,000 docs, 100 shards

This is a benchmark, not a test: nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np
from bench_spans import LABELS, WORDS  # the same vocabulary as the span benchmark (run from benchmarks/)

MANIFEST = "manifest.json"
GENERATOR_VERSION = 1  # bump when the generated data changes

# ---------------------------------------------------------------------------
# generation


_VOCAB: Any = None
_PACKER: Any = None


def _init_worker() -> None:
    """Per generating process: one blank English vocab and one msgpack packer."""
    global _VOCAB, _PACKER
    import spacy
    from srsly.msgpack import _packer

    _VOCAB = spacy.blank("en").vocab
    _PACKER = _packer.Packer(use_bin_type=True)


def make_shard(index: int, first_doc: int, n_docs: int, seed: int, key_path: str, resp_path: str) -> tuple[int, int]:
    """Write one key shard and one response shard; return (key entities, response entities).

    Token layout of every document (so that no two entities overlap, even
    after a shift by one token): entity 1 starts at token 1-3, entity 2 (90 %
    of the documents) at token 12-15, both 1-3 tokens long; a one-token
    entity at token 8 in 10 % of the key documents; the response's spurious
    entity, if any, is at token 10.
    """
    from spacy.tokens import Doc, DocBin, Span

    if _VOCAB is None:
        _init_worker()
    vocab, packer = _VOCAB, _PACKER
    rng = np.random.default_rng([seed, index])
    n_lab = len(LABELS)
    lengths = rng.integers(19, 24, size=n_docs)
    word_idx = rng.integers(0, len(WORDS), size=(n_docs, 23))
    starts = np.stack([rng.integers(1, 4, size=n_docs), rng.integers(12, 16, size=n_docs)], axis=1)
    sizes = rng.integers(1, 4, size=(n_docs, 2))
    labels = rng.integers(0, n_lab, size=(n_docs, 3))
    has_second = rng.random(n_docs) < 0.9
    has_third = rng.random(n_docs) < 0.1
    u = rng.random((n_docs, 3))
    v = rng.random((n_docs, 3))
    spurious = rng.random(n_docs) < 0.15
    spurious_label = rng.integers(0, n_lab, size=n_docs)
    words_arr = np.array(WORDS, dtype=object)

    # Docs are added with store_user_data=False and their user data packed here:
    # DocBin.add calls srsly.msgpack_dumps, which looks up catalogue entry points on
    # every call (~0.5 ms per document). The bytes are the same as srsly's.
    key_bin = DocBin(attrs=["ENT_IOB", "ENT_TYPE"], store_user_data=False)
    resp_bin = DocBin(attrs=["ENT_IOB", "ENT_TYPE"], store_user_data=False)
    key_user, resp_user = [], []
    n_key = n_resp = 0
    for d in range(n_docs):
        n_tok = int(lengths[d])
        words = words_arr[word_idx[d, :n_tok]].tolist()
        key_ents = [(int(starts[d, 0]), int(starts[d, 0] + sizes[d, 0]), int(labels[d, 0]))]
        if has_third[d]:
            key_ents.append((8, 9, int(labels[d, 2])))
        if has_second[d]:
            key_ents.append((int(starts[d, 1]), int(starts[d, 1] + sizes[d, 1]), int(labels[d, 1])))
        resp_ents = []
        for j, (s, e, lab) in enumerate(key_ents):
            uu, vv = u[d, j], v[d, j]
            if uu < 0.75:
                pass
            elif uu < 0.85:
                if vv < 0.5:
                    s -= 1
                else:
                    e += 1
            elif uu < 0.92:
                lab = (lab + 1 + int(vv * (n_lab - 1))) % n_lab
            else:
                continue
            resp_ents.append((s, e, lab))
        if spurious[d]:
            resp_ents.append((10, 11, int(spurious_label[d])))
            resp_ents.sort()
        doc_id = f"doc{first_doc + d:08d}"
        for ents, out, user in ((key_ents, key_bin, key_user), (resp_ents, resp_bin, resp_user)):
            doc = Doc(vocab, words=words)
            doc.ents = [Span(doc, s, e, LABELS[lab]) for s, e, lab in ents]
            doc.user_data["doc_id"] = doc_id
            out.add(doc)
            user.append(packer.pack(doc.user_data))
        n_key += len(key_ents)
        n_resp += len(resp_ents)
    for out, user, path in ((key_bin, key_user, key_path), (resp_bin, resp_user, resp_path)):
        out.store_user_data = True
        out.user_data = user
        tmp = Path(path + ".part")
        tmp.write_bytes(out.to_bytes())
        tmp.replace(path)
    return n_key, n_resp


def ensure_corpus(data: Path, n_docs: int, shard_size: int, seed: int, jobs: int,
                  force: bool = False) -> dict[str, Any]:
    """The manifest of the corpus in ``data``, generating the corpus first unless it is there already."""
    n_shards = (n_docs + shard_size - 1) // shard_size
    width = max(5, len(str(n_shards - 1)))
    want = {"docs": n_docs, "shard_size": shard_size, "seed": seed, "shards": n_shards,
            "generator": GENERATOR_VERSION}
    key_dir, resp_dir = data / "key", data / "response"
    manifest_path = data / MANIFEST
    if manifest_path.exists() and not force:
        try:
            manifest = json.loads(manifest_path.read_text())
        except ValueError:
            manifest = {}
        names = [f"part-{i:0{width}d}.spacy" for i in range(n_shards)]
        present = all((key_dir / n).is_file() and (resp_dir / n).is_file() for n in names)
        if present and all(manifest.get(k) == v for k, v in want.items()):
            print(f"reusing {data} ({n_docs:,} documents in {n_shards} shards, manifest matches)")
            return manifest
    print(f"generating {n_docs:,} documents in {n_shards} shards of {shard_size:,} under {data} "
          f"({jobs} processes) ...", flush=True)
    if manifest_path.exists():
        manifest_path.unlink()
    for folder in (key_dir, resp_dir):
        folder.mkdir(parents=True, exist_ok=True)
        for old in folder.glob("part-*.spacy"):
            old.unlink()
    t0 = time.perf_counter()
    tasks = []
    for i in range(n_shards):
        first = i * shard_size
        name = f"part-{i:0{width}d}.spacy"
        tasks.append((i, first, min(shard_size, n_docs - first), seed, str(key_dir / name), str(resp_dir / name)))
    n_key = n_resp = 0
    if jobs > 1 and n_shards > 1:
        with ProcessPoolExecutor(max_workers=jobs, initializer=_init_worker) as pool:
            futures = [pool.submit(make_shard, *t) for t in tasks]
            for f in futures:
                k, r = f.result()
                n_key += k
                n_resp += r
    else:
        for t in tasks:
            k, r = make_shard(*t)
            n_key += k
            n_resp += r
    seconds = time.perf_counter() - t0
    size = sum(p.stat().st_size for folder in (key_dir, resp_dir) for p in folder.glob("part-*.spacy"))
    manifest = {**want, "key_spans": n_key, "response_spans": n_resp, "bytes": size,
                "generation_seconds": round(seconds, 3)}
    manifest_path.write_text(json.dumps(manifest, indent=2) + "\n")
    print(f"generated in {seconds:.1f} s ({n_docs / seconds:,.0f} documents/s; "
          f"{n_key:,} key + {n_resp:,} response entities; {size / 1e6:.1f} MB on disk)")
    return manifest


def ensure_jsonl(data: Path, n_docs: int, seed: int) -> dict[str, Any]:
    """One key and one response JSONL file of ``n_docs`` documents in ``data/jsonl`` (reused when there).

    Each line: ``{"text", "spans", "meta": {"id"}}``; 15-20 words of the span
    benchmark's vocabulary, two entities a document (one-word or two-word),
    the response dropping 10 % and relabelling 10 % of them. Seeded.
    """
    folder = data / "jsonl"
    manifest_path = folder / MANIFEST
    want = {"docs": n_docs, "seed": seed, "generator": GENERATOR_VERSION}
    if manifest_path.exists():
        manifest = json.loads(manifest_path.read_text())
        if all(manifest.get(k) == v for k, v in want.items()) and (folder / "key.jsonl").is_file():
            print(f"reusing {folder} ({n_docs:,} documents per JSONL file)")
            return manifest
    folder.mkdir(parents=True, exist_ok=True)
    print(f"generating {n_docs:,} documents as one JSONL file each for key and response ...", flush=True)
    t0 = time.perf_counter()
    rng = np.random.default_rng([seed, 7])
    words = np.array(WORDS, dtype=object)
    n_spans = 0
    with (folder / "key.jsonl").open("w", encoding="utf8") as kf, \
            (folder / "response.jsonl").open("w", encoding="utf8") as rf:
        for first in range(0, n_docs, 10_000):
            n = min(10_000, n_docs - first)
            lengths = rng.integers(15, 21, size=n)
            idx = rng.integers(0, len(words), size=(n, 20))
            pos = np.stack([rng.integers(0, 6, size=n), rng.integers(8, 13, size=n)], axis=1)
            size = rng.integers(1, 3, size=(n, 2))
            lab = rng.integers(0, len(LABELS), size=(n, 2))
            fate = rng.random((n, 2))
            for d in range(n):
                toks = words[idx[d, :lengths[d]]].tolist()
                starts = np.cumsum([0] + [len(t) + 1 for t in toks])
                key_spans, resp_spans = [], []
                for j in range(2):
                    a, b = int(pos[d, j]), int(pos[d, j] + size[d, j])
                    span = {"start": int(starts[a]), "end": int(starts[b] - 1), "label": LABELS[lab[d, j]]}
                    key_spans.append(span)
                    if fate[d, j] < 0.8:
                        resp_spans.append(span)
                    elif fate[d, j] < 0.9:
                        resp_spans.append({**span, "label": LABELS[(lab[d, j] + 1) % len(LABELS)]})
                text = " ".join(toks)
                meta = {"id": f"doc{first + d:08d}"}
                kf.write(json.dumps({"text": text, "spans": key_spans, "meta": meta}) + "\n")
                rf.write(json.dumps({"text": text, "spans": resp_spans, "meta": meta}) + "\n")
                n_spans += len(key_spans) + len(resp_spans)
    manifest = {**want, "spans": n_spans, "bytes": sum((folder / f).stat().st_size
                                                       for f in ("key.jsonl", "response.jsonl"))}
    manifest_path.write_text(json.dumps(manifest, indent=2) + "\n")
    print(f"generated in {time.perf_counter() - t0:.1f} s ({manifest['bytes'] / 1e6:.0f} MB)")
    return manifest


# ---------------------------------------------------------------------------
# measurement (in a child process)


def _mem() -> tuple[int, int]:
    """(current RSS, peak RSS) of this process in KB (Linux: ru_maxrss is in KB)."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    try:
        with open("/proc/self/statm") as f:
            current = int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") // 1024
    except OSError:
        current = -1
    return current, peak


def _warm() -> int:
    """Import what scoring a shard imports, so that neither the time nor "base MB" counts it.

    Besides the package, the DocBin reader imports ``spacy.strings`` (for
    ``hash_string``, which imports spaCy: ~80 MB) and srsly (doc ids).
    """
    import spacy.strings  # noqa: F401
    import srsly  # noqa: F401

    import spacy_anno_eval.io.docbin  # noqa: F401
    import spacy_anno_eval.spans.engine  # noqa: F401

    return os.getpid()


def child(mode: str, data: Path, workers: int, result_path: Path, report_path: Path) -> None:
    """One measurement; writes its figures as JSON to ``result_path`` and the report to ``report_path``."""
    from spacy_anno_eval.cluster import open_client
    from spacy_anno_eval.report.json import write_json
    from spacy_anno_eval.workflows.stream import score_shards

    _warm()
    key_dir, resp_dir = data / "key", data / "response"
    out: dict[str, Any] = {"mode": mode}
    client = cluster = None
    if mode == "dask":
        t0 = time.perf_counter()
        client, cluster = open_client(f"local:{workers}")
        client.run(_warm)
        out["cluster_seconds"] = time.perf_counter() - t0
        out["workers_before"] = {addr: list(m) for addr, m in client.run(_mem).items()}
    out["base_kb"] = _mem()[0]
    if mode in ("jsonl", "jsonl-whole"):
        from spacy_anno_eval.spans.engine import evaluate

        key, resp = data / "jsonl" / "key.jsonl", data / "jsonl" / "response.jsonl"
        t0 = time.perf_counter()
        if mode == "jsonl":
            ev = score_shards(key, resp, sharded=False, docs_per_chunk=10_000)
        else:
            ev = evaluate(str(key), str(resp))
        t1 = time.perf_counter()
        report = ev.report(per_doc=False)
        t2 = time.perf_counter()
        out.update(score_seconds=t1 - t0, report_seconds=t2 - t1, seconds=t2 - t0, n_docs=report["n_docs"],
                   current_kb=_mem()[0], peak_kb=_mem()[1])
        write_json(report, report_path)
        result_path.write_text(json.dumps(out))
        return
    if mode == "qa":
        from spacy_anno_eval.workflows.qa import run_qa

        paths = {"json": data / "qa.json", "html": data / "qa.html"}
        t0 = time.perf_counter()
        report, _, _ = run_qa(key_dir, resp_dir, paths=paths, measures=["strict", "lenient", "average"],
                              sharded=True)
        t2 = time.perf_counter()
        out.update(score_seconds=t2 - t0, report_seconds=0.0, seconds=t2 - t0, n_docs=report["n_docs"],
                   current_kb=_mem()[0], peak_kb=_mem()[1],
                   qa_bytes={k: p.stat().st_size for k, p in paths.items()})
        del report["per_doc"]
        write_json(report, report_path)
        result_path.write_text(json.dumps(out))
        return
    t0 = time.perf_counter()
    ev = score_shards(key_dir, resp_dir, client=client)
    t1 = time.perf_counter()
    report = ev.report(per_doc=False)
    t2 = time.perf_counter()
    out.update(score_seconds=t1 - t0, report_seconds=t2 - t1, seconds=t2 - t0, n_docs=report["n_docs"],
               current_kb=_mem()[0], peak_kb=_mem()[1])
    if client is not None:
        out["workers_after"] = {addr: list(m) for addr, m in client.run(_mem).items()}
        client.close()
        cluster.close()
    write_json(report, report_path)
    result_path.write_text(json.dumps(out))


def measure(mode: str, data: Path, workers: int) -> tuple[dict[str, Any] | None, Path]:
    """Run one measurement in a fresh subprocess; its figures (None when it failed) and its report's path."""
    result_path = data / f"result-{mode}.json"
    report_path = data / f"report-{mode}.json"
    for p in (result_path, report_path):
        if p.exists():
            p.unlink()
    cmd = [sys.executable, os.path.abspath(__file__), "--child", mode, "--data", str(data),
           "--workers", str(workers)]
    label = _label(mode, workers)
    print(f"measuring {label} ...", flush=True)
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0 or not result_path.exists():
        print(f"  [failed] {label}: exit {proc.returncode}")
        print("  " + "\n  ".join(proc.stderr.strip().splitlines()[-25:]))
        return None, report_path
    return json.loads(result_path.read_text()), report_path


def _label(mode: str, workers: int) -> str:
    return {"inproc": "in-process", "qa": "qa (JSON+HTML)", "jsonl": "JSONL, chunks",
            "jsonl-whole": "JSONL, whole"}.get(mode, f"dask local:{workers}")


def print_table(rows: list[tuple[str, dict[str, Any]]], n_spans: int) -> None:
    print(f"\n  {'mode':16s} {'docs':>10s} {'spans':>11s} {'seconds':>8s} {'docs/s':>10s} {'spans/s':>11s} "
          f"{'peak RSS MB':>11s} {'base MB':>8s}")
    for name, r in rows:
        sec = r["seconds"]
        spans = r.get("spans", n_spans)
        print(f"  {name:16s} {r['n_docs']:>10,d} {spans:>11,d} {sec:8.2f} {r['n_docs'] / sec:>10,.0f} "
              f"{spans / sec:>11,.0f} {r['peak_kb'] / 1024:>11.0f} {r['base_kb'] / 1024:>8.0f}")
    for name, r in rows:
        extra = f"  {name}: score_shards {r['score_seconds']:.2f} s, report {r['report_seconds']:.3f} s"
        if "qa_bytes" in r:
            extra = (f"  {name}: run_qa with the JSON report (every document) and the HTML report, "
                     + ", ".join(f"{k} {v / 1e6:.0f} MB" for k, v in r["qa_bytes"].items()))
        if "cluster_seconds" in r:
            extra += f"; starting the cluster {r['cluster_seconds']:.1f} s (not in the table)"
        print(extra)
        if "workers_after" in r:
            for addr, (cur, peak) in sorted(r["workers_after"].items()):
                before = r["workers_before"].get(addr, [0, 0])
                print(f"    worker {addr}: RSS {before[0] / 1024:.0f} MB before scoring, {cur / 1024:.0f} MB after, "
                      f"peak {peak / 1024:.0f} MB")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--docs", type=int, default=1_000_000, help="documents in the corpus (default 1,000,000)")
    parser.add_argument("--shard-size", type=int, default=10_000, help="documents per shard (default 10,000)")
    parser.add_argument("--data", type=Path, default=Path("/tmp/anno_eval_scale"),
                        help="folder of the generated shards (reused when its manifest matches)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                        help="processes generating shards (default: the number of cores)")
    parser.add_argument("--workers", type=int, default=2, help="Dask workers: local:N (default 2)")
    parser.add_argument("--modes", default="inproc,dask,qa,jsonl,jsonl-whole",
                        help="comma-separated: inproc, dask, qa, jsonl, jsonl-whole (default all)")
    parser.add_argument("--regenerate", action="store_true", help="generate the corpus even if it is there")
    parser.add_argument("--child", choices=("inproc", "dask", "qa", "jsonl", "jsonl-whole"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    data = args.data.resolve()
    if args.child:
        child(args.child, data, args.workers, data / f"result-{args.child}.json", data / f"report-{args.child}.json")
        return
    if args.docs < 1 or args.shard_size < 1:
        parser.error("--docs and --shard-size must be >= 1")
    manifest = ensure_corpus(data, args.docs, args.shard_size, args.seed, args.jobs, args.regenerate)
    n_spans = manifest["key_spans"] + manifest["response_spans"]
    rows, reports, jsonl_reports = [], [], []
    modes = [m.strip() for m in args.modes.split(",") if m.strip()]
    if any(m.startswith("jsonl") for m in modes):
        jsonl_manifest = ensure_jsonl(data, args.docs, args.seed)
    for mode in modes:
        if mode not in ("inproc", "dask", "qa", "jsonl", "jsonl-whole"):
            parser.error(f"--modes: unknown mode {mode!r}")
        result, report_path = measure(mode, data, args.workers)
        if result is not None:
            rows.append((_label(mode, args.workers), result))
            if mode in ("inproc", "dask"):
                reports.append(report_path)
            elif mode.startswith("jsonl"):
                result["spans"] = jsonl_manifest["spans"]
                jsonl_reports.append(report_path)
    print(f"\n{args.docs:,} documents, {manifest['shards']} shards of {args.shard_size:,}; "
          f"{manifest['key_spans']:,} key + {manifest['response_spans']:,} response spans")
    if rows:
        print_table(rows, n_spans)
    if len(jsonl_reports) == 2:
        same = jsonl_reports[0].read_bytes() == jsonl_reports[1].read_bytes()
        print(f"\n  JSONL report, chunks of 10,000 vs the whole file, identical: {same}")
    if len(reports) == 2:
        same = reports[0].read_bytes() == reports[1].read_bytes()
        print(f"\n  report(per_doc=False) JSON, in-process vs Dask, identical: {same}")
    elif len(reports) == 1:
        print("\n  in-process vs Dask identical: (only one of the two ran)")


if __name__ == "__main__":
    main()
