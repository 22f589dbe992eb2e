"""The contract cases every reader of a plugin registry (:class:`spacy_anno_eval.io.plugins.ReaderRegistry`: the
coreference and the extraction readers) is held to, written once: a path that does not exist, an empty or blank
file, the sample cut short or garbled, an unknown option. Bad input is an
:class:`~spacy_anno_eval.errors.InputError` naming the file, never a traceback. Each family's suite adds what is
its own (the sample's documents, folders, undecodable bytes, wrong JSON types)."""

from __future__ import annotations

import random
import warnings
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import pytest

from spacy_anno_eval.errors import ConfigError, InputError


class Contract:
    """The shared cases for one family: ``kind`` names its readers in messages, ``read_path(path, fmt,
    **options)`` is its read door, ``suffix(reader)`` the suffix its files are written with."""

    def __init__(self, kind: str, read_path: Callable[..., Any], suffix: Callable[[Any], str]) -> None:
        self.kind, self.read_path, self.suffix = kind, read_path, suffix

    def sample(self, reader: Any) -> bytes:
        data = reader.sample_bytes()
        if data is None:
            pytest.skip(f"the {self.kind} reader {reader.name!r} has no sample")
        return data

    def write(self, folder: Path, reader: Any, data: bytes, stem: str = "input") -> Path:
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"{stem}{self.suffix(reader)}"
        path.write_bytes(data)
        return path

    def read(self, reader: Any, path: Path) -> Any:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return self.read_path(path, reader.name)

    def refused(self, reader: Any, path: Path) -> InputError:
        """The :class:`InputError` reading ``path`` raises; it must name the path."""
        with pytest.raises(InputError) as caught:
            self.read(reader, path)
        assert path.name in str(caught.value), f"{reader.name}: the message names no input: {caught.value}"
        return caught.value

    def read_or_refused(self, reader: Any, path: Path) -> Any:
        """What was read, or the :class:`InputError` naming ``path``; anything else fails."""
        try:
            return self.read(reader, path)
        except InputError as err:
            assert path.name in str(err), f"{reader.name}: the message names no input: {err}"
            return err
        except Exception as err:  # noqa: BLE001 - the point of the case
            pytest.fail(f"{reader.name}: {type(err).__name__} instead of InputError: {err}"[:600])

    # -- the cases ------------------------------------------------------------------------------------------------

    def missing(self, reader: Any, tmp_path: Path) -> None:
        self.refused(reader, tmp_path / f"nosuch{self.suffix(reader)}")

    def empty(self, reader: Any, tmp_path: Path) -> None:
        err = self.refused(reader, self.write(tmp_path, reader, b""))
        assert "nothing to compare" in str(err), f"{reader.name}: an empty file's refusal says {err}"

    def blank(self, reader: Any, tmp_path: Path) -> None:
        self.refused(reader, self.write(tmp_path, reader, b"\n \n\t\n\n"))

    def truncated(self, reader: Any, tmp_path: Path) -> None:
        data = self.sample(reader)
        for cut in sorted({*range(1, len(data), max(1, len(data) // 40)), len(data) - 1, len(data) // 2}):
            self.read_or_refused(reader, self.write(tmp_path, reader, data[:cut], f"cut{cut}"))

    def garbled(self, reader: Any, tmp_path: Path, rounds: int) -> None:
        data = self.sample(reader)
        rng = random.Random(reader.name)
        for n in range(rounds):
            garbled = bytearray(data)
            for _ in range(rng.randint(1, 4)):
                at = rng.randrange(len(garbled))
                choice = rng.random()
                if choice < 0.4:
                    garbled[at] = rng.randrange(256)
                elif choice < 0.7:
                    del garbled[at]
                else:
                    garbled.insert(at, rng.choice(b'(){}[]|-_09\t\n#,:"x'))
            self.read_or_refused(reader, self.write(tmp_path, reader, bytes(garbled), f"garbled{n}"))

    def unknown_option(self, reader: Any, tmp_path: Path) -> None:
        takes = reader.options()
        if takes is None:
            pytest.skip(f"the {reader.name} reader takes any option (**options)")
        path = self.write(tmp_path, reader, reader.sample_bytes() or b"")
        with pytest.raises(ConfigError) as caught:
            self.read_path(path, reader.name, nosuch_option=1)
        message = str(caught.value)
        assert "nosuch_option" in message and all(o in message for o in takes), message

    @staticmethod
    def run_all(reader: Any, cases: dict[str, Callable[[Any, Path], None]], tmp_path: Path,
                skip: Iterable[str] = ()) -> None:
        """Every case on one reader (a plugin registered inside a test); a case's skip passes."""
        for name, case in cases.items():
            if name in skip:
                continue
            try:
                case(reader, tmp_path / name)
            except pytest.skip.Exception:
                pass
            except Exception as err:
                raise AssertionError(f"case {name}: {err}") from err
