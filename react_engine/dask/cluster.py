"""Connecting to a Dask cluster named by an address: `tcp://host:port`, `local` or `local:N`.

A process connects to each address once; the client (and a LocalCluster started for `local`) is closed when
the process exits.
"""

from __future__ import annotations

import atexit
import re
import time
from typing import TYPE_CHECKING, Any

from react_engine.errors import InputError, TimeLimitError
from react_engine.rows.bounded import Overdue, within

if TYPE_CHECKING:
    from distributed import Client

INSTALL_HINT = 'pip install -e ".[dask]"'
CONNECT_SECONDS = 10.0
_GRACE = 0.5  # past Client's own timeout, a connect is given up as hanging
_LOCAL = re.compile(r"local(?::(?P<workers>\d+))?")
_clients: dict[str, Client] = {}


def _require() -> None:
    try:
        import dask.dataframe  # noqa: F401
        import distributed  # noqa: F401
    except ImportError:
        raise InputError(f"--dask needs the dask extra: {INSTALL_HINT}") from None


def connect(address: Any, deadline: float | None = None) -> Client:
    """A client for `address`: an existing `distributed.Client` as is; `local[:N]` starts a LocalCluster with N
    worker processes (default 2); any other address is a running scheduler (`tcp://host:8786`), reached within
    CONNECT_SECONDS and by `deadline` (a `time.monotonic()` value)."""
    _require()
    from distributed import Client

    if isinstance(address, Client):
        return address
    text = str(address).strip()
    client = _clients.get(text)
    if client is None or client.status != "running":
        client = _clients[text] = _open(text, deadline)
    return client


def _open(text: str, deadline: float | None) -> Client:
    local = _LOCAL.fullmatch(text)
    if local:
        return _local(text, int(local["workers"] or 2))
    return _remote(text, deadline)


def _local(text: str, workers: int) -> Client:
    """A client of a cluster of `workers` processes started here."""
    from distributed import Client, LocalCluster

    if workers < 1:
        raise InputError(f"--dask {text}: give at least one worker, e.g. local:2")
    cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=":0")
    return Client(cluster)


def _remote(text: str, deadline: float | None) -> Client:
    """A client of the scheduler at `text`, connected within the run's time; a failure is told as an input error."""
    from distributed import Client

    if "://" not in text:
        raise InputError(f"--dask {text!r}: use tcp://HOST:PORT for a running scheduler, or local / local:N")
    left = CONNECT_SECONDS if deadline is None else deadline - time.monotonic()
    if left <= 0:  # the set-up (imports under load) used the run's time: no connection is tried past it
        raise TimeLimitError(f"--dask {text}: the run's time limit passed before connecting to the scheduler; "
                             "raise it with --timeout")
    limit = max(0.1, min(CONNECT_SECONDS, left - _GRACE))  # Client's own timeout, for a refused connection
    try:
        return within(lambda: Client(text, timeout=limit), limit + _GRACE, "dask-connect")
    except Overdue:
        waited = f"{limit:.1f}s" if limit >= CONNECT_SECONDS else "the run's time limit (raise it with --timeout)"
        raise InputError(f"--dask {text}: the address took the connection but did not answer within {waited}; "
                         "check that a Dask scheduler listens there (`dask scheduler`), or use --dask local") from None
    except MemoryError:  # a length prefix of exabytes: the first bytes of another protocol's message (HTTP ...)
        raise InputError(f"--dask {text}: the peer is not a Dask scheduler (it announced a message of impossible "
                         "size); check the address and port, or use --dask local") from None
    except (OSError, TimeoutError) as exc:
        raise InputError(f"--dask {text}: cannot reach the Dask scheduler ({_reason(exc)}); start one with "
                         "`dask scheduler` and `dask worker ADDRESS`, check the address, or use --dask local") \
            from None
    except ValueError as exc:
        raise InputError(f"--dask {text}: {_reason(exc)}; use tcp://HOST:PORT, or local / local:N") from None


@atexit.register
def _close_all() -> None:
    for client in _clients.values():
        cluster = client.cluster  # a LocalCluster started here, or None for a remote scheduler
        client.close()
        if cluster is not None:
            cluster.close()
    _clients.clear()


def _reason(exc: BaseException) -> str:
    return " ".join(str(exc).split()) or type(exc).__name__
