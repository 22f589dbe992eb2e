"""Atomic file writes: nothing half-written, nothing lost.

Every file the toolkit writes (reports, DocBins, manifests) goes through
:func:`write_bytes`: the data goes to a temporary file in the target folder,
is flushed to disk, and then replaces the target with :func:`os.replace`
(atomic on POSIX and Windows). On any error the temporary file is removed and
an earlier file at ``path`` is left as it was. The new file gets the
permissions a plain ``open()`` would give it (0o666 less the umask; a file
replaced keeps its mode), not ``mkstemp``'s private 0o600.

What sits at the target decides how it is written (DESIGN.md, Contracts, "Writing"):

- a regular file, or nothing: atomically, as above;
- ``-``: standard output (``--json -``); a path that is the process's standard
  output or error (``/dev/stdout``), a character or block device
  (``/dev/null``) or a FIFO: written directly, in place, never replaced;
- a symlink: written through, the file it points to replaced atomically, the
  link kept;
- a folder (or a socket): refused with a :class:`~spacy_anno_eval.errors.ConfigError`.

A write that fails is an :class:`~spacy_anno_eval.errors.AnnoEvalError` of one
line naming the file (``cannot write out/r.json: Permission denied; ...``), as
is a text that UTF-8 cannot encode (a lone surrogate in an id).
:func:`check_outputs` refuses, before a command does any work, outputs that
cannot be written or that are one of its inputs.
"""

from __future__ import annotations

import glob
import json
import os
import stat
import sys
import tempfile
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, BinaryIO

from .errors import ConfigError, InputError


def umask() -> int:
    """The process's file-creation mask, read from /proc where possible (which changes nothing)."""
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


STDOUT = "-"
"""The output path that means standard output."""

_ATOMIC, _DIRECT, _STDOUT = "atomic", "direct", "stdout"


def _cannot_write(path: Any, err: OSError) -> ConfigError:
    """``err`` (an OSError met writing ``path``) as one line naming the output."""
    reason = err.strerror or str(err) or type(err).__name__
    return ConfigError(f"cannot write {os.fspath(path)}: {reason}; check the path, its folder and their "
                       f"permissions, or write the output elsewhere")


def _unencodable(path: Any, err: UnicodeEncodeError) -> InputError:
    """A text UTF-8 cannot encode (a lone surrogate) as one line naming the output and the character."""
    bad = err.object[err.start:err.end]
    near = " ".join(err.object[max(err.start - 40, 0):err.end + 20].split())  # the layout's spaces as one
    return InputError(f"cannot write {os.fspath(path)}: the output holds {bad!r}, which UTF-8 cannot encode (a "
                      f"lone surrogate), near {near!r}; fix the input (an id, label or text) that holds it")


def _std_fd(st: os.stat_result) -> int | None:
    """1 or 2 when ``st`` is the file of this process's standard output or error, else None."""
    for fd in (1, 2):
        try:
            other = os.fstat(fd)
        except OSError:
            continue
        if (other.st_dev, other.st_ino) == (st.st_dev, st.st_ino):
            return fd
    return None


def _target(path: str | os.PathLike) -> tuple[str, Path, int | None]:
    """How ``path`` is written: ``(kind, file, fd)``; ``kind`` is ``"stdout"`` (``-``), ``"direct"`` (a device, a
    FIFO, or the file of standard output/error, ``fd``, which is then written through) or ``"atomic"`` (a regular
    file or nothing yet; ``file`` is where a symlink points). Folders and sockets are refused."""
    if os.fspath(path) == STDOUT:
        return _STDOUT, Path(STDOUT), None
    target = Path(path)
    try:
        st = os.stat(target)  # through symlinks (and /proc's links such as /dev/stdout -> pipe:[...])
    except (FileNotFoundError, NotADirectoryError):  # nothing there yet (its folder may be missing, or a file)
        st = None
    except OSError as err:
        raise _cannot_write(path, err) from None
    if st is None or (stat.S_ISREG(st.st_mode) and _std_fd(st) is None):
        # a file replaced atomically: a symlink's target (resolved: its folder gets the temporary file)
        return _ATOMIC, Path(os.path.realpath(target)) if target.is_symlink() else target, None
    if stat.S_ISDIR(st.st_mode):
        raise ConfigError(f"cannot write {os.fspath(path)}: it is a folder; give a file path for this output "
                          f"(e.g. {os.path.join(path, 'report.json')})")
    fd = _std_fd(st)
    if fd is not None or stat.S_ISCHR(st.st_mode) or stat.S_ISBLK(st.st_mode) or stat.S_ISFIFO(st.st_mode):
        return _DIRECT, target, fd
    raise ConfigError(f"cannot write {os.fspath(path)}: it is not a file, a device or a FIFO (a socket?); "
                      f"give a file path, or - for standard output")


def is_stdout(path: str | os.PathLike | None) -> bool:
    """Whether writing ``path`` writes this process's standard output (``-``, ``/dev/stdout``, ...)."""
    if path is None:
        return False
    if os.fspath(path) == STDOUT:
        return True
    try:
        return _std_fd(os.stat(path)) == 1
    except OSError:
        return False


def temp_folder(path: str | os.PathLike) -> Path:
    """The folder for a temporary file that becomes ``path``: that of the file written (a symlink's target), or
    the system's temporary folder when ``path`` is written directly (standard output, a device, a FIFO)."""
    kind, target, _ = _target(path)
    return target.parent if kind == _ATOMIC else Path(tempfile.gettempdir())


@contextmanager
def _located(path: Any, *own: str) -> Iterator[None]:
    """Errors of writing ``path`` as one line naming it: an OSError without a file name or on one of ``own``
    (ours, not one the block happened to read) and a text UTF-8 cannot encode."""
    try:
        yield
    except UnicodeEncodeError as err:
        raise _unencodable(path, err) from err
    except OSError as err:
        if err.filename is not None and os.fspath(err.filename) not in own:
            raise
        raise _cannot_write(path, err) from err


@contextmanager
def open_atomic(path: str | os.PathLike) -> Iterator[BinaryIO]:
    """A binary file to write ``path`` through, piece by piece: it replaces ``path`` only when the block
    ends without an error (then flushed to disk); on an error the partial file is removed and an earlier
    file at ``path`` is left as it was. Parent folders are created.

    ``-`` is standard output; a device, a FIFO or the file of standard output is written in place (what the
    block wrote before an error stays written); a symlink is written through; a folder is refused (module
    docstring). Errors are :class:`~spacy_anno_eval.errors.AnnoEvalError` naming ``path``."""
    kind, target, fd = _target(path)
    if kind == _STDOUT:
        sys.stdout.flush()
        out = getattr(sys.stdout, "buffer", None)
        with _located(path), (os.fdopen(os.dup(1), "wb") if out is None else _kept(out)) as f:
            yield f
            f.flush()
        return
    if kind == _DIRECT:
        if fd is not None:
            (sys.stdout if fd == 1 else sys.stderr).flush()
        with _located(path, os.fspath(target)), \
                (os.fdopen(os.dup(fd), "wb") if fd is not None else open(target, "wb")) as f:
            yield f
            f.flush()
        return
    mode, owner = _mode_of(target)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        handle, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    except OSError as err:
        raise _cannot_write(path, err) from err
    try:
        with _located(path, tmp), os.fdopen(handle, "wb") as f:
            if owner is not None:
                try:
                    os.chown(tmp, *owner)
                except OSError:
                    pass  # not ours to give away: the file keeps its mode, and becomes ours
            os.chmod(tmp, mode)
            yield f
            f.flush()
            os.fsync(f.fileno())
        with _located(path, tmp, os.fspath(target)):
            os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


@contextmanager
def _kept(f: BinaryIO) -> Iterator[BinaryIO]:
    """``f`` as a context manager that leaves it open (standard output)."""
    yield f


def _mode_of(target: Path) -> tuple[int, tuple[int, int] | None]:
    """The mode of the file that replaces ``target`` (as ``open()`` would: an existing file's own, else 0o666 less
    the umask) and the owner to give it (an existing file's, when not ours; else None)."""
    try:
        st = os.stat(target)
    except OSError:
        return 0o666 & ~umask(), None
    owner = (st.st_uid, st.st_gid)
    if not hasattr(os, "chown") or owner == (os.geteuid(), os.getegid()):
        return stat.S_IMODE(st.st_mode) & 0o777, None
    return stat.S_IMODE(st.st_mode) & 0o777, owner


def write_bytes(path: str | os.PathLike, data: bytes) -> Path:
    """Write ``data`` to ``path`` atomically (creating parent folders); return the path. ``-``, devices, FIFOs
    and symlinks: see :func:`open_atomic`."""
    with open_atomic(path) as f:
        f.write(data)
    return Path(path)


def write_text(path: str | os.PathLike, text: str) -> Path:
    """Write ``text`` as UTF-8 with ``\\n`` line ends to ``path`` atomically (a text UTF-8 cannot encode, such as
    a lone surrogate, is an :class:`~spacy_anno_eval.errors.InputError` naming ``path``; nothing is written)."""
    try:
        data = text.encode("utf8")
    except UnicodeEncodeError as err:
        raise _unencodable(path, err) from err
    return write_bytes(path, data)


PathArg = str | os.PathLike | None

#: functions that add to a command's inputs the files their readers will open besides them (an XMI file's type
#: system): :mod:`spacy_anno_eval.io` registers the readers' declarations here when it is imported (this module,
#: below it, cannot import it), so that :func:`check_outputs` refuses them for every command
_INPUT_EXPANDERS: list[Callable[[Iterable[PathArg]], list[PathArg]]] = []


def register_input_expander(expand: Callable[[Iterable[PathArg]], list[PathArg]]) -> None:
    """Have :func:`check_outputs` count as inputs what ``expand(inputs)`` adds to them (once per function)."""
    if expand not in _INPUT_EXPANDERS:
        _INPUT_EXPANDERS.append(expand)


def _expand(inputs: Iterable[PathArg]) -> list[tuple[str, str]]:
    """The inputs that exist, as (given, real path), with the files their readers declare; a glob pattern
    (``--shards``) stands for its files."""
    if not _INPUT_EXPANDERS:
        import importlib

        importlib.import_module(__package__ + ".io")  # registers the readers' declared inputs (above)
    inputs = list(inputs)
    for expand in _INPUT_EXPANDERS:
        inputs = expand(inputs)
    out = []
    for given in inputs:
        if given is None or os.fspath(given) == STDOUT:
            continue
        name = os.fspath(given)
        names = [name] if os.path.lexists(name) or not glob.has_magic(name) else sorted(glob.glob(name))
        shown = given.describe() if hasattr(given, "describe") else None  # a reader's side file names its input
        out.extend((shown or n, os.path.realpath(n)) for n in names if os.path.exists(n))
    return out


def _writable_folder(output: str, folder: Path) -> None:
    """Refuse ``output`` when ``folder`` (where it goes) cannot be made or written."""
    existing = folder
    while not os.path.lexists(existing) and existing != existing.parent:
        existing = existing.parent
    if not existing.is_dir():
        raise ConfigError(f"cannot write {output}: {existing} is not a folder; write the output elsewhere")
    if not os.access(existing, os.W_OK | os.X_OK):
        raise ConfigError(f"cannot write {output}: the folder {existing} is not writable; write the output "
                          f"elsewhere or change the folder's permissions")


def _check_not_input(output: str, real: str, inputs: list[tuple[str, str]]) -> None:
    """Refuse ``output`` (real path ``real``) when it is one of ``inputs`` or lies inside an input folder."""
    for given, inp in inputs:
        same = real == inp or (os.path.exists(output) and os.path.samefile(output, inp))  # links: hard, symbolic
        if same:
            raise ConfigError(f"the output {output} is the input {given}: writing it would destroy the input; "
                              f"give another path for the output")
        if os.path.isdir(inp) and Path(real).is_relative_to(inp):
            raise ConfigError(f"the output {output} lies inside the input folder {given}: it could overwrite or "
                              f"add to the input; write it outside that folder")


def check_outputs(inputs: Iterable[PathArg], outputs: Iterable[PathArg] = (), *,
                  folders: Iterable[PathArg] = ()) -> bool:
    """Refuse, before a command does any work, outputs that cannot or must not be written; return whether one of
    them is standard output (the command then prints nothing else there: its tables would spoil the output).

    ``inputs``: the command's input files and folders (``None`` skipped; a glob pattern stands for its files),
    to which the files their readers declare are added (:func:`register_input_expander`: an XMI file's type
    system, a brat ``.ann``'s ``.txt``), so that no command needs to name them.
    ``outputs``: its output files (``None``: not asked for). Each is refused
    (:class:`~spacy_anno_eval.errors.ConfigError`, one line naming it) when it is a folder or a socket, is one of
    ``inputs`` (the same file: through a symlink or a hard link too) or lies inside an input folder, is the
    same file as another output, or its folder cannot be made or written. ``-``, devices and FIFOs are fine.
    ``folders``: its output folders (a report folder): refused when an existing file, ``-``, an input folder
    or inside one, or when they cannot be made or written.
    """
    given = _expand(inputs)
    for folder in folders:
        if folder is None:
            continue
        name = os.fspath(folder)
        if name == STDOUT:
            raise ConfigError(f"{name} is standard output, and this output is a folder of files; give a folder")
        if os.path.exists(name) and not os.path.isdir(name):
            raise ConfigError(f"cannot write the folder {name}: it is a file; give a folder (it is created when "
                              f"missing)")
        _check_not_input(name, os.path.realpath(name), given)
        _writable_folder(name, Path(os.path.realpath(name)))
    to_stdout = False
    seen: dict[str, str] = {}
    for output in outputs:
        if output is None:
            continue
        name = os.fspath(output)
        kind, target, fd = _target(output)  # refuses folders and sockets
        to_stdout = to_stdout or kind == _STDOUT or fd == 1
        if kind == _STDOUT:
            continue
        real = os.path.realpath(target)
        _check_not_input(name, real, given)
        if kind == _DIRECT:
            if not os.access(target, os.W_OK):
                raise ConfigError(f"cannot write {name}: permission denied; write the output elsewhere")
            continue
        if real in seen:
            raise ConfigError(f"the outputs {seen[real]} and {name} are the same file; give each its own path")
        seen[real] = name
        _writable_folder(name, target.parent)  # an atomic write makes its temporary file there
    return to_stdout


def spool(beside: str | os.PathLike, suffix: str = ".tmp") -> tuple[BinaryIO, Path]:
    """A temporary binary file, opened for writing, in the folder where ``beside`` is written (:func:`temp_folder`:
    that of the file, or the system's for standard output, a device, a FIFO), and its path: a large output is
    spooled there piece by piece, then copied into :func:`open_atomic`. The caller closes and removes it."""
    target = Path(beside)
    folder = temp_folder(target)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=suffix, dir=folder)
    except OSError as err:
        raise _cannot_write(beside, err) from err
    return os.fdopen(fd, "wb"), Path(name)


@contextmanager
def lock_folder(folder: str | os.PathLike, lock: Callable[[int], Any]) -> Iterator[None]:
    """Hold ``lock(fd)`` (an exclusive ``flock``) on ``folder`` while the block runs: on the folder itself, else
    (a file system that cannot lock folders, such as NFS) on a ``.lock`` file made in it with the permissions a
    plain ``open()`` gives. Closing the descriptor releases the lock."""
    fd = os.open(folder, os.O_RDONLY)
    try:
        try:
            lock(fd)
        except OSError:  # pragma: no cover - e.g. NFS, which emulates flock with write locks
            os.close(fd)
            fd = os.open(Path(folder) / ".lock", os.O_RDWR | os.O_CREAT, 0o666)
            lock(fd)
        yield
    finally:
        os.close(fd)


def drop_stdout() -> None:
    """Point standard output at the null device (after its reader went away: ``| head``), so that exiting does not
    fail again on the closed pipe."""
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # no real file under stdout (a test runner's buffer)
        pass


def tsv_cell(value: Any) -> str:
    """A TSV cell: ``None`` is empty; tabs and line breaks become spaces."""
    if value is None:
        return ""
    return " ".join(str(value).replace("\r\n", " ").replace("\r", " ").replace("\n", " ").split("\t"))


def rows_as_tsv(rows: Sequence[dict[str, Any]], columns: Sequence[str]) -> str:
    """Rows as TSV with a header line of ``columns`` (a missing key is an empty cell)."""
    lines = ["\t".join(columns)] + ["\t".join(tsv_cell(row.get(c)) for c in columns) for row in rows]
    return "\n".join(lines) + "\n"


def json_text(value: Any, *, indent: int | None = None, sort_keys: bool = False,
              default: Callable[[Any], Any] | None = None) -> str:
    """``value`` as strict JSON text, the one way the package turns a value into JSON for an output: NaN and
    infinite numbers (numpy's too) become ``null`` (:func:`~spacy_anno_eval.figures.json_safe`), and the encoder
    refuses any that remain (``allow_nan=False``), so no output can hold ``NaN`` or ``Infinity``, which are not
    JSON. UTF-8 is kept as it is (``ensure_ascii=False``); ``default`` turns what JSON cannot hold into what it
    can (``str``), as :func:`json.dumps`'s does.

    >>> json_text({"kappa": float("nan"), "label": "Café"})
    '{"kappa": null, "label": "Café"}'
    """
    from .figures import json_safe

    return json.dumps(json_safe(value), indent=indent, sort_keys=sort_keys, ensure_ascii=False, allow_nan=False,
                      default=default)


def write_json(path: str | os.PathLike, value: Any, *, indent: int | None = 2) -> Path:
    """Write ``value`` as strict JSON (:func:`json_text`) with a final line end to ``path`` atomically."""
    return write_text(path, json_text(value, indent=indent) + "\n")


def rows_as_jsonl(rows: Iterable[Any]) -> str:
    """Rows as JSON lines (strict JSON: :func:`json_text`; UTF-8 kept as is)."""
    return "".join(json_text(row) + "\n" for row in rows)


def write_jsonl(path: str | os.PathLike, rows: Iterable[Any]) -> Path:
    """Write ``rows`` as JSON lines (:func:`rows_as_jsonl`) to ``path`` atomically."""
    return write_text(path, rows_as_jsonl(rows))


def rows_as_csv(rows: Sequence[dict[str, Any]], columns: Sequence[str]) -> str:
    """Rows as CSV (RFC 4180 quoting, as Python's ``csv`` module writes it) with a header line of ``columns``;
    ``None`` is an empty cell."""
    import csv
    import io

    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(columns)
    writer.writerows([["" if row.get(c) is None else row.get(c) for c in columns] for row in rows])
    return out.getvalue()


def write_rows(path: Any, rows: Sequence[dict[str, Any]], columns: Sequence[str]) -> Any:
    """Write ``rows`` atomically by ``path``'s suffix: JSON lines for ``.jsonl``, CSV for ``.csv``, else TSV,
    each with a header."""
    suffix = Path(path).suffix.lower()
    if suffix == ".jsonl":
        return write_text(path, rows_as_jsonl(rows))
    return write_text(path, rows_as_csv(rows, columns) if suffix == ".csv" else rows_as_tsv(rows, columns))


def check_path(value: Any, what: str) -> Path:
    """``value`` as a :class:`~pathlib.Path`, or :class:`~spacy_anno_eval.errors.ConfigError` saying that
    ``what`` must be a file path (str or os.PathLike) and what was given instead."""
    from .errors import ConfigError

    if isinstance(value, (str, os.PathLike)) and os.fspath(value) != "":
        return Path(value)
    raise ConfigError(f"{what} must be a file path (str or os.PathLike), got {type(value).__name__} {value!r:.60}")

