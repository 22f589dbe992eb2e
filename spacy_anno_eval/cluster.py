"""Dask clients: one way to open and close a client for ``--dask local:N`` or a scheduler address.

Dask is the optional extra ``spacy-anno-eval[dask]``; nothing here imports it
until a client is asked for.

While a client opened here runs, distributed's own logging (worker tracebacks of failed tasks, nanny
restarts, the scheduler giving a task up) is silenced, in this process and in the workers of a local
cluster: what went wrong reaches the caller as the exception the task raised, once.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
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
        cluster = LocalCluster(n_workers=n, threads_per_worker=1, processes=True, dashboard_address=None,
                               silence_logs=SILENT)
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
    with quiet_distributed():
        client, cluster = open_client(scheduler)
        try:
            yield client
        finally:
            if cluster is not None:
                _settle(client, cluster)
            client.close()
            if cluster is not None:
                cluster.close()


def _settle(client: Any, cluster: Any) -> None:
    """Wait (briefly) until the local cluster's workers are all up again: a worker the nanny is restarting
    after a crash, closed half-started, prints tracebacks of its own that no logging setting reaches."""
    try:
        client.wait_for_workers(len(cluster.worker_spec), timeout=10)
    except Exception:  # noqa: BLE001,S110 - closing anyway: a worker that does not come back is no error of ours
        pass


@contextmanager
def quiet_distributed() -> Iterator[None]:
    """Silence the ``distributed`` (and ``tornado``) loggers of this process while the block runs, restoring
    their levels afterwards."""
    try:
        import distributed  # noqa: F401 - importing it configures its loggers: silence them afterwards
    except ImportError:
        pass  # open_client says what to install
    names = ["distributed", "tornado"] + [n for n in logging.root.manager.loggerDict
                                          if n.startswith(("distributed.", "tornado."))]
    with ExitStack() as stack:
        for name in names:
            logger = logging.getLogger(name)
            stack.callback(logger.setLevel, logger.level)
            logger.setLevel(SILENT)
        yield


SILENT = logging.CRITICAL + 1  # above every level distributed logs at


__all__ = ["dask_client", "open_client"]
