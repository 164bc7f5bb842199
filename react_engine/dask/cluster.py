"""Connecting to a Dask cluster named by an address: `tcp://host:port`, `local` or `local:N`."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from react_engine.errors import InputError

if TYPE_CHECKING:
    from distributed import Client

INSTALL_HINT = 'pip install -e ".[dask]"'
CONNECT_TIMEOUT = "10s"
_LOCAL = re.compile(r"local(?::(?P<workers>\d+))?")


def is_lazy(obj: Any) -> bool:
    """True for a Dask collection (a frame or series held on the cluster)."""
    return type(obj).__module__.startswith("dask.")


def _require() -> None:
    try:
        import dask.dataframe  # noqa: F401
        import distributed  # noqa: F401
    except ImportError:
        raise InputError(f"--dask needs the dask extra: {INSTALL_HINT}") from None


def connect(address: str | Client) -> Client:
    """A client for `address`: an existing `distributed.Client` as is, `local[:N]` starts a LocalCluster with N
    worker processes (default 2), and any other address is a running scheduler (`tcp://host:8786`)."""
    _require()
    from distributed import Client, LocalCluster

    if isinstance(address, Client):
        return address
    text = address.strip()
    local = _LOCAL.fullmatch(text)
    if local:
        workers = int(local["workers"] or 2)
        if workers < 1:
            raise InputError(f"--dask {text}: give at least one worker, e.g. local:2")
        cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None)
        return Client(cluster)
    if "://" not in text:
        raise InputError(f"--dask {text!r}: use tcp://HOST:PORT for a running scheduler, or local / local:N")
    try:
        return Client(text, timeout=CONNECT_TIMEOUT)
    except (OSError, TimeoutError) as exc:
        raise InputError(f"--dask {text}: cannot reach the Dask scheduler ({_reason(exc)}); start one with "
                         "`dask scheduler` and `dask worker ADDRESS`, check the address, or use --dask local") \
            from None
    except ValueError as exc:
        raise InputError(f"--dask {text}: {_reason(exc)}; use tcp://HOST:PORT, or local / local:N") from None


def _reason(exc: BaseException) -> str:
    return " ".join(str(exc).split()) or type(exc).__name__


@contextmanager
def connected(address: str | Client) -> Iterator[Client]:
    """`connect(address)` for the duration of a block; a client or local cluster opened here is closed after it."""
    client = connect(address)
    try:
        yield client
    finally:
        if client is not address:
            cluster = client.cluster
            client.close()
            if cluster is not None:  # a LocalCluster started by `connect`
                cluster.close()
