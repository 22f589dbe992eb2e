"""Dask clients: one way to open and close a client for ``--dask local:N`` or a scheduler address.

The address is checked once, by :func:`check_scheduler`, before any work (the CLI's ``--dask`` option calls it
as it parses the option; :func:`open_client` calls it too): ``local:N`` with a whole N >= 1, or a scheduler
address ``host:port`` or ``PROTOCOL://host:port`` (protocols tcp, tls, ws, wss, ucx; an IPv6 host in brackets,
``[::1]:8786``; port 1-65535), which is what ``distributed.Client`` connects to. Anything else is a
:class:`~spacy_anno_eval.errors.ConfigError` saying which forms are accepted.

Dask is the optional extra ``spacy-anno-eval[dask]``; nothing here imports it
until a client is asked for.

While a client opened here runs, distributed's own logging (worker tracebacks of failed tasks, nanny
restarts, the scheduler giving a task up) is silenced, in this process and in the workers of a local
cluster: what went wrong reaches the caller as the exception the task raised, once.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from typing import Any

from .errors import ConfigError, InputError

#: the protocols of a scheduler address (distributed's comm backends that connect to a host and port)
PROTOCOLS = ("tcp", "tls", "ws", "wss", "ucx")
_ADDRESS = re.compile(r"(?:(?P<protocol>[A-Za-z][A-Za-z0-9+.-]*)://)?(?P<host>\[[0-9A-Fa-f:.]+\]|[^\s:/\[\]@]+)"
                      r":(?P<port>[0-9]{1,5})")


def check_scheduler(scheduler: Any) -> str:
    """``scheduler`` checked: ``local:N`` (N >= 1 local worker processes) or a scheduler address ``host:port`` /
    ``PROTOCOL://host:port`` (:data:`PROTOCOLS`; port 1-65535). Return it; raise
    :class:`~spacy_anno_eval.errors.ConfigError` saying which forms are accepted otherwise.

    >>> check_scheduler("tcp://10.0.0.5:8786"), check_scheduler("local:2")
    ('tcp://10.0.0.5:8786', 'local:2')
    """
    accepted = (f"give local:N (N >= 1 local workers) or a scheduler address host:port or PROTOCOL://host:port "
                f"(e.g. tcp://10.0.0.5:8786; protocols {', '.join(PROTOCOLS)})")
    if not isinstance(scheduler, str):
        raise ConfigError(f"--dask (scheduler=) must be a string, got {scheduler!r}; {accepted}")
    if scheduler.startswith("local:"):
        count = scheduler.split(":", 1)[1]
        if not (count.isascii() and count.isdigit() and int(count) >= 1):
            raise ConfigError(f"--dask {scheduler!r}: the number of local workers must be a whole number >= 1; "
                              f"{accepted}")
        return scheduler
    match = _ADDRESS.fullmatch(scheduler)
    if match is None:
        raise ConfigError(f"--dask {scheduler!r} is not a Dask address; {accepted}")
    if (match["protocol"] or "tcp") not in PROTOCOLS:
        raise ConfigError(f"--dask {scheduler!r}: unknown protocol {match['protocol']!r}; {accepted}")
    if not 1 <= int(match["port"]) <= 65535:
        raise ConfigError(f"--dask {scheduler!r}: port {match['port']} is not in 1-65535; {accepted}")
    return scheduler


def open_client(scheduler: str) -> tuple[Any, Any]:
    """A Dask client for ``"local:N"`` (and its cluster, to close) or a scheduler address (checked first,
    :func:`check_scheduler`)."""
    check_scheduler(scheduler)
    try:
        from distributed import Client, LocalCluster
    except ImportError as err:
        raise InputError('--dask needs Dask: pip install "spacy-anno-eval[dask]"') from err
    if scheduler.startswith("local:"):
        n = int(scheduler.split(":", 1)[1])
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


__all__ = ["PROTOCOLS", "check_scheduler", "dask_client", "open_client"]
