"""The store's contract (DESIGN.md "Contracts", stored baselines; issue 17 items 2 and 6).

- the name resolves to a complete baseline at every instant, even under ``kill -9`` during ``--force``;
- concurrent stores get distinct names and sequence numbers;
- temporaries of killed stores are removed by the next store;
- folders get normal permissions (0o777 less the umask);
- results for another corpus are refused at store time (exit 2, one line naming the document);
- baselines of the earlier layout still load.

The crash test forks a child per kill point that counts every rename, folder creation and removal,
file creation, write and fsync of a store and calls ``os._exit(9)`` at the k-th, for k = 1, 2, ... until
the store completes; after each kill the name must load a complete baseline (old, then from one point on
new) and the next store must leave no leftovers.
"""

from __future__ import annotations

import builtins
import io
import json
import multiprocessing
import os
import re
import shutil
import stat
import sys
import time
import traceback
from collections import Counter
from pathlib import Path

import pytest
from spacy.tokens import DocBin

from spacy_anno_eval.workflows.benchmark.layout import BenchmarkDir
from spacy_anno_eval.workflows.benchmark.run import run_benchmark
from spacy_anno_eval.workflows.benchmark.store import MANIFEST, get_baseline, list_baselines
from tests.workflows.benchmark.test_run import FAST, RECORDS, make_bench, ruler, run_cli, tree_bytes

pytestmark = pytest.mark.skipif(not hasattr(os, "fork") or sys.platform == "win32",
                                reason="flock and fork (POSIX)")

N_DOCS = len(RECORDS)  # 16 documents, 44 entities, 19 LOC
ALL, NO_LOC = 44, 44 - 19


def write_predictions(path: Path, records: list[dict]) -> Path:
    path.write_text("".join(json.dumps({"text": r["text"], "spans": r["spans"], "meta": r["meta"]}) + "\n"
                            for r in records), encoding="utf8")
    return path


def assert_no_leftovers(processed: Path) -> None:
    """No temporary folder, and every baseline folder holds its manifest and the data it names, nothing else."""
    assert not [p.name for p in processed.iterdir() if p.name.startswith(".")]
    for b in list_baselines(BenchmarkDir(processed.parent)):
        top = Path(b.manifest["data"]).parts[0]
        assert sorted(p.name for p in b.path.iterdir()) == sorted([MANIFEST, top]), b.path


def load_complete(bench: Path, name: str) -> dict:
    """The manifest of the baseline ``name``, after checking its data holds every document."""
    b = get_baseline(BenchmarkDir(bench), name)
    assert b.manifest["n_docs"] == N_DOCS
    if b.format == "docbin":
        n = sum(len(DocBin().from_disk(f)) for f in sorted(b.data.glob("*.spacy")))
    else:
        n = len(b.data.read_text(encoding="utf8").splitlines())
    assert n == N_DOCS, (b.path, n)
    return b.manifest


# ---------------------------------------------------------------------------
# permissions


@pytest.mark.parametrize("umask", [0o022, 0o002])
def test_folders_get_normal_permissions(tmp_path, umask):
    bench = make_bench(tmp_path / "bench")
    old = os.umask(umask)
    try:
        run_benchmark("store", bench, nlp=ruler(), name="v1", settings=FAST)
        run_benchmark("store", bench, nlp=ruler(), name="v1", settings=FAST)
        forced = run_benchmark("store", bench, nlp=ruler(), name="v1", force=True, settings=FAST)
    finally:
        os.umask(old)
    data = Path(forced.report["path"]) / forced.report["baseline"]["data"]
    folders = [bench / "processed" / "v1", bench / "processed" / "v1@2", bench / "processed" / "v1@2" / "docs",
               data.parent, data]
    for folder in folders:
        assert stat.S_IMODE(folder.stat().st_mode) == 0o777 & ~umask, folder
    for f in (bench / "processed").rglob("*"):
        if f.is_file():
            assert stat.S_IMODE(f.stat().st_mode) == 0o666 & ~umask, f


# ---------------------------------------------------------------------------
# leftovers of killed stores


def test_stale_temporaries_are_cleaned_by_the_next_store(tmp_path):
    bench = make_bench(tmp_path / "bench")
    processed = bench / "processed"
    run_benchmark("store", bench, nlp=ruler(), name="v1", settings=FAST)
    # what killed stores leave: a temporary folder, a forced baseline's unreferenced data folder
    (processed / ".tmp-v1-dead" / "docs").mkdir(parents=True)
    (processed / ".tmp-v1-dead" / "docs" / "docs-00000.spacy").write_bytes(b"half")
    (processed / "v1" / "v7-0123abcd" / "docs").mkdir(parents=True)
    # a live store's temporary folder (its lock held) is left alone
    live = processed / ".tmp-v2-live"
    live.mkdir()
    import fcntl

    fd = os.open(live, os.O_RDONLY)
    fcntl.flock(fd, fcntl.LOCK_EX)
    try:
        run_benchmark("store", bench, nlp=ruler(), name="v2", settings=FAST)
        assert sorted(p.name for p in processed.iterdir()) == [".tmp-v2-live", "v1", "v2"]
    finally:
        os.close(fd)
    run_benchmark("store", bench, nlp=ruler(), name="v3", settings=FAST)
    assert_no_leftovers(processed)
    assert [b.name for b in list_baselines(BenchmarkDir(bench))] == ["v1", "v2", "v3"]


def test_a_baseline_moved_aside_by_the_earlier_force_is_recovered(tmp_path):
    """The earlier ``--force`` renamed the old baseline to ``.old-NAME-*/NAME`` first; killed there, the
    name resolved to nothing. The next store moves it back."""
    bench = make_bench(tmp_path / "bench")
    processed = bench / "processed"
    run_benchmark("store", bench, nlp=ruler(), name="v1", settings=FAST)
    before = tree_bytes(processed / "v1")
    (processed / ".old-v1-x1y2").mkdir()
    os.rename(processed / "v1", processed / ".old-v1-x1y2" / "v1")
    run_benchmark("store", bench, nlp=ruler(), name="v2", settings=FAST)
    assert tree_bytes(processed / "v1") == before
    assert_no_leftovers(processed)


# ---------------------------------------------------------------------------
# concurrency


def _store_in_child(bench: Path, name: str, force: bool, barrier) -> None:
    from spacy_anno_eval.workflows.benchmark import store

    listing = store.list_baselines

    def slow_listing(*args, **kwargs):  # widen the window between reading the baselines and the rename
        found = listing(*args, **kwargs)
        time.sleep(0.05)
        return found

    store.list_baselines = slow_listing
    barrier.wait()
    run_benchmark("store", bench, nlp=ruler(), name=name, force=force, settings=FAST)


@pytest.mark.parametrize("force", [False, True])
def test_concurrent_stores_get_distinct_names_and_sequence_numbers(tmp_path, force):
    bench = make_bench(tmp_path / "bench")
    run_benchmark("store", bench, nlp=ruler(), name="v1", settings=FAST)
    ctx = multiprocessing.get_context("fork")
    barrier = ctx.Barrier(4)
    procs = [ctx.Process(target=_store_in_child, args=(bench, "v1", force, barrier)) for _ in range(4)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(60)
    assert [p.exitcode for p in procs] == [0] * 4
    baselines = list_baselines(BenchmarkDir(bench))
    sequences = [b.manifest["sequence"] for b in baselines]
    assert len(set(sequences)) == len(sequences)
    if force:
        assert [b.name for b in baselines] == ["v1"] and sequences == [5]
    else:
        assert sorted(b.name for b in baselines) == ["v1", "v1@2", "v1@3", "v1@4", "v1@5"]
        assert sorted(sequences) == [1, 2, 3, 4, 5]
        assert all(b.manifest["name"] == b.name for b in baselines)
    for b in baselines:
        load_complete(bench, b.name)
    assert_no_leftovers(bench / "processed")


# ---------------------------------------------------------------------------
# results for another corpus


def _other_text(records):
    out = [dict(r) for r in records]
    out[3]["text"] = out[3]["text"][:5] + "#" + out[3]["text"][6:]
    return out


def _other_id(records):
    out = [dict(r) for r in records]
    out[0]["meta"] = {**out[0]["meta"], "id": "renamed"}
    return out


@pytest.mark.parametrize(("change", "message"), [
    (lambda rs: rs[:-1], "document {last!r} of {bench}/clean/ is missing"),
    (_other_text, "document {fourth!r}: the text differs from {bench}/clean/ at character 5"),
    (lambda rs: [*rs, {"text": "Extra.", "spans": [], "meta": {"id": "extra"}}],
     "document 'extra' is not in {bench}/clean/"),
    (_other_id, "document {first!r} of {bench}/clean/ is missing"),
    ("marked", "document {fourth!r}: the text differs from {bench}/marked/ at character 5"),
])
def test_predictions_for_another_corpus_are_refused(tmp_path, change, message):
    bench = make_bench(tmp_path / "bench")
    run_benchmark("store", bench, nlp=ruler(), name="v1", settings=FAST)
    if change == "marked":  # clean/ and the results agree, marked/ has another text
        write_predictions(bench / "marked" / "gold.jsonl", _other_text(RECORDS))
        pred = write_predictions(tmp_path / "pred.jsonl", RECORDS)
    else:
        pred = write_predictions(tmp_path / "pred.jsonl", change(RECORDS))
    before = tree_bytes(bench / "processed")
    listing = sorted(p.name for p in (bench / "processed").iterdir())
    result = run_cli("store", bench, "--predictions", pred, "--name", "other")
    assert result.exit_code == 2, result.output
    assert len(result.output.strip().splitlines()) == 1, result.output
    ids = [r["meta"]["id"] for r in RECORDS]
    expected = message.format(bench=bench, first=ids[0], fourth=ids[3], last=ids[-1])
    assert expected in result.output and str(pred) in result.output, result.output
    assert tree_bytes(bench / "processed") == before
    assert sorted(p.name for p in (bench / "processed").iterdir()) == listing


def test_predictions_for_the_same_corpus_are_stored(tmp_path):
    bench = make_bench(tmp_path / "bench")
    pred = write_predictions(tmp_path / "pred.jsonl", RECORDS[::-1])  # order does not matter
    result = run_cli("store", bench, "--predictions", pred, "--name", "same")
    assert result.exit_code == 0, result.output
    assert load_complete(bench, "same")["n_entities"] == ALL


# ---------------------------------------------------------------------------
# the layout: baselines of the earlier code still load; a forced one loads in every mode


def test_earlier_and_forced_baselines_load(tmp_path):
    bench = make_bench(tmp_path / "bench")
    run_benchmark("store", bench, nlp=ruler(), name="v1", settings=FAST)
    processed = bench / "processed"
    assert sorted(p.name for p in (processed / "v1").iterdir()) == ["docs", MANIFEST]  # the earlier layout
    assert json.loads((processed / "v1" / MANIFEST).read_text())["data"] == "docs"
    run_benchmark("store", bench, nlp=ruler(drop=("LOC",)), name="v1", force=True, settings=FAST)
    manifest = load_complete(bench, "v1")
    assert re.fullmatch(r"v2-[0-9a-f]{8}/docs", manifest["data"]) and manifest["n_entities"] == NO_LOC
    report = run_benchmark("marked-vs-stored", bench, name="v1", settings=FAST).report["stored"]["report"]
    assert report["per_type"]["LOC"]["counts"]["missing"] == 19
    pred = write_predictions(tmp_path / "pred.jsonl", RECORDS)
    run_benchmark("store", bench, predictions=pred, name="v1", force=True, settings=FAST)
    manifest = load_complete(bench, "v1")
    assert re.fullmatch(r"v3-[0-9a-f]{8}/predictions.jsonl", manifest["data"])
    assert_no_leftovers(processed)
    report = run_benchmark("marked-vs-stored", bench, name="v1", settings=FAST).report["stored"]["report"]
    assert report["counts"]["correct"] == ALL


# ---------------------------------------------------------------------------
# the crash test


class _Killer:
    """Counts the store's file-system changes (see :data:`EVENTS`); ``os._exit(9)`` at the ``k``-th."""

    def __init__(self, k: int, log_path: Path) -> None:
        self.k, self.log_path, self.log = k, log_path, []

    def dump(self) -> None:
        with io.FileIO(os.fspath(self.log_path), "w") as f:  # not through the patched functions
            f.write(json.dumps(self.log).encode())

    def hit(self, event: str) -> None:
        self.log.append(event)
        if len(self.log) == self.k:
            self.dump()
            os._exit(9)

    def install(self) -> None:
        for fn in ("rename", "replace", "mkdir", "rmdir", "unlink", "fsync"):
            original = getattr(os, fn)

            def patched(*args, _original=original, _fn=fn, **kwargs):
                self.hit(f"os.{_fn}")
                return _original(*args, **kwargs)

            setattr(os, fn, patched)
        os_open = os.open

        def patched_os_open(path, flags, *args, **kwargs):
            if flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT):
                self.hit("os.open(write)")
            return os_open(path, flags, *args, **kwargs)

        os.open = patched_os_open
        io_open = io.open
        killer = self

        class Writing:
            def __init__(self, f):
                self._f = f

            def write(self, data):
                killer.hit("file.write")
                return self._f.write(data)

            def __getattr__(self, attr):
                return getattr(self._f, attr)

            def __enter__(self):
                return self

            def __exit__(self, *exc):
                return self._f.__exit__(*exc)

        def patched_open(file, mode="r", *args, **kwargs):
            if any(c in mode for c in "wax+"):
                if not isinstance(file, int):  # os.fdopen: the os.open was counted
                    self.hit("open(write)")
                return Writing(io_open(file, mode, *args, **kwargs))
            return io_open(file, mode, *args, **kwargs)

        io.open = builtins.open = patched_open


def _run_killed(k: int, store, log_path: Path) -> int:
    """Fork; the child runs ``store()`` with the killer armed at ``k`` (0: never); return its exit status."""
    pid = os.fork()
    if pid == 0:  # the child: never return into pytest
        code = 3
        killer = _Killer(k, log_path)
        try:
            killer.install()
            store()
            code = 0
        except BaseException:
            killer.log.append(traceback.format_exc())
        finally:
            killer.dump()
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status)


SCENARIOS = {
    # name: (how the template is prepared, the store that is killed, the name it stores to)
    "store": ("v1", lambda bench, pred: run_benchmark("store", bench, nlp=ruler(drop=("LOC",)), name="v1",
                                                      settings=FAST), "v1@2"),
    "store --force": ("v1", lambda bench, pred: run_benchmark("store", bench, nlp=ruler(drop=("LOC",)),
                                                              name="v1", force=True, settings=FAST), "v1"),
    "store --force --predictions": ("v1 forced", lambda bench, pred: run_benchmark(
        "store", bench, predictions=pred, name="v1", force=True, settings=FAST), "v1"),
}
KILL_POINTS: dict[str, list[str]] = {}


@pytest.mark.parametrize("scenario", list(SCENARIOS))
def test_kill_at_every_rename_and_write_leaves_a_complete_baseline(tmp_path, scenario):
    prepare, store, new_name = SCENARIOS[scenario]
    template = make_bench(tmp_path / "template")
    run_benchmark("store", template, nlp=ruler(), name="v1", settings=FAST)
    if prepare == "v1 forced":  # the old data in a vN-* folder, not docs/
        run_benchmark("store", template, nlp=ruler(), name="v1", force=True, settings=FAST)
    pred = write_predictions(tmp_path / "pred.jsonl", [{**r, "spans": []} for r in RECORDS])
    old_bytes = tree_bytes(template / "processed" / "v1")
    old_sequence = load_complete(template, "v1")["sequence"]
    started = time.perf_counter()
    outcomes = []
    k = 0
    while True:
        k += 1
        assert k < 200, "the store never completes"
        bench = tmp_path / f"k{k}"
        shutil.copytree(template, bench)
        code = _run_killed(k, lambda bench=bench: store(bench, pred), tmp_path / "log.json")
        log = json.loads((tmp_path / "log.json").read_text())
        if code == 0:  # completed before the k-th event: every kill point was tried
            KILL_POINTS[scenario] = log
            assert len(log) == k - 1
            break
        assert code == 9, log
        # the name loads a complete baseline: the old one, or (from one kill point on) the new one
        names = {b.name for b in list_baselines(BenchmarkDir(bench))}
        assert names in ({"v1"}, {"v1", new_name})
        manifest = load_complete(bench, new_name) if new_name in names and new_name != "v1" else None
        v1 = load_complete(bench, "v1")
        if new_name == "v1":
            is_new = v1["sequence"] != old_sequence
            if not is_new:
                assert tree_bytes(bench / "processed" / "v1").items() >= old_bytes.items()
        else:
            assert tree_bytes(bench / "processed" / "v1") == old_bytes
            is_new = manifest is not None
        outcomes.append(is_new)
        # the next store cleans up what the kill left
        run_benchmark("store", bench, nlp=ruler(), name="next", settings=FAST)
        assert_no_leftovers(bench / "processed")
        shutil.rmtree(bench)
    # kills before the switch leave the old baseline, after it the new one (the last kill points, syncing
    # the folders or removing the old data, come after the switch)
    assert outcomes == sorted(outcomes) and outcomes[0] is False and outcomes[-1] is True
    seconds = time.perf_counter() - started
    counts = Counter(e for e in KILL_POINTS[scenario] if not e.startswith("Traceback"))
    print(f"\n{scenario}: {k - 1} kill points in {seconds:.1f} s: {dict(counts)}\n  {KILL_POINTS[scenario]}")
