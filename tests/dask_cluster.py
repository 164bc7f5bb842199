"""A real `dask scheduler` and `dask worker` processes on loopback, for tests that need a cluster of processes."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

DASK = Path(sys.executable).with_name("dask")


@dataclass
class Cluster:
    """The scheduler's address and the worker processes (each a single-threaded `dask worker`, no nanny)."""

    address: str
    workers: list[subprocess.Popen] = field(default_factory=list)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _stop(process: subprocess.Popen) -> None:
    process.terminate()
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


@contextmanager
def dask_cluster(workers: int = 2, *worker_args: str) -> Iterator[Cluster]:
    """A scheduler and `workers` workers (started with `worker_args` too), each its own process, connected (if not
    running: a worker may pause at once); all stopped afterwards."""
    import distributed

    port = _free_port()
    cluster = Cluster(f"tcp://127.0.0.1:{port}")
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
    scheduler = subprocess.Popen([str(DASK), "scheduler", "--host", "127.0.0.1", "--port", str(port),
                                  "--no-dashboard"], **quiet)
    try:
        for _ in range(workers):
            cluster.workers.append(subprocess.Popen([str(DASK), "worker", cluster.address, "--host", "127.0.0.1",
                                                     "--nthreads", "1", "--no-dashboard", "--no-nanny",
                                                     *worker_args], **quiet))
        with distributed.Client(cluster.address, timeout="60s") as client:
            deadline = time.monotonic() + 120
            while len(client.scheduler_info(n_workers=-1)["workers"]) < workers:
                assert time.monotonic() < deadline, f"{workers} Dask workers did not connect in 120 s"
                time.sleep(0.1)
        yield cluster
    finally:
        for process in reversed(cluster.workers):
            _stop(process)
        _stop(scheduler)
