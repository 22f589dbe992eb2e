"""Dask clients: one way to open and close a client for ``--dask local:N`` or a scheduler address.

Dask is the optional extra ``spacy-anno-eval[dask]``; nothing here imports it
until a client is asked for.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from .errors import InputError


def open_client(scheduler: str) -> tuple[Any, Any]:
    """A Dask client for ``"local:N"`` (and its cluster, to close) or a scheduler address."""
    try:
        from distributed import Client, LocalCluster
    except ImportError as err:
        raise InputError('--dask needs Dask: pip install "spacy-anno-eval[dask]"') from err
    if scheduler.startswith("local:"):
        try:
            n = int(scheduler.split(":", 1)[1])
        except ValueError:
            n = 0
        if n < 1:
            raise InputError(f"--dask {scheduler!r}: write local:N with N >= 1 workers")
        cluster = LocalCluster(n_workers=n, threads_per_worker=1, processes=True, dashboard_address=None)
        try:
            return Client(cluster), cluster
        except BaseException:
            cluster.close()
            raise
    return Client(scheduler), None


@contextmanager
def dask_client(scheduler: str | None, client: Any = None) -> Iterator[Any]:
    """``client`` when given, else a client for ``scheduler`` (:func:`open_client`) closed afterwards with
    its local cluster, else ``None`` (in-process)."""
    if client is not None or scheduler is None:
        yield client
        return
    client, cluster = open_client(scheduler)
    try:
        yield client
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


__all__ = ["dask_client", "open_client"]
