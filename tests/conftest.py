"""Shared fixtures. `scripts/` is on sys.path, so tests can `import fake_ollama` (or any other script module)."""

from __future__ import annotations

import importlib
import os
import sys
import time
from collections.abc import Generator, Iterator
from contextlib import ExitStack
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

import pytest
from hypothesis import settings

if TYPE_CHECKING:
    from react_engine.loop.frames import FrameCache

# Property tests have no deadline (speed is measured by the scripts/bench_* scripts, never by a timed test, so a
# busy machine cannot fail them). CI runs them with a fixed seed, so a run there is reproducible; locally they
# explore.
settings.register_profile("local", deadline=None)
settings.register_profile("ci", derandomize=True, deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "local")

ROOT = Path(__file__).resolve().parents[1]
sys.path.append(str(ROOT / "scripts"))  # after site-packages: a script never shadows a module
# Dask workers and schedulers of the tests (in this process or started from it) neither sample their own stacks
# every 10 ms nor time their event loop every 20 ms: an idle cluster of three processes then takes 3% of a CPU,
# not 13%, and a busy one less too. Neither is under test.
os.environ.setdefault("DASK_DISTRIBUTED__WORKER__PROFILE__ENABLED", "False")
os.environ.setdefault("DASK_DISTRIBUTED__ADMIN__TICK__INTERVAL", "1s")


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """`-n auto` (see pyproject.toml): one worker process per CPU this process may run on, and none (the tests run
    in this process) when it may run on one only, e.g. under `taskset -c 0`."""
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    return cpus if cpus > 1 else 0


_CLUSTER_FILES: set[Path] = set()  # the test files on the session's Dask cluster
_CLUSTER = ExitStack()  # that cluster while it runs


@pytest.hookimpl(tryfirst=True)  # before xdist reads the groups
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The test files on the session's Dask cluster run one after another, in one xdist worker (`--dist
    loadgroup`): one cluster serves them all and stops after the last (idle, it takes a tenth of a CPU)."""
    _CLUSTER_FILES.update(item.path for item in items if "dask_scheduler" in getattr(item, "fixturenames", ()))
    on = [item for item in items if item.path in _CLUSTER_FILES]
    if on:
        first = items.index(on[0])
        rest = [item for item in items if item.path not in _CLUSTER_FILES]
        items[:] = [*rest[:first], *on, *rest[first:]]
    for item in on:
        item.add_marker(pytest.mark.xdist_group("dask_scheduler"))


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> Generator[None, None, None]:
    """Stop the session's Dask cluster once no test file left to run needs it (after their fixtures' teardown)."""
    result = yield
    if nextitem is None or nextitem.path not in _CLUSTER_FILES:
        _CLUSTER.close()
    return result


@pytest.fixture(scope="session", autouse=True)
def _session_home(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Cache, data (traces) and state of this session (of this worker, under xdist), for every fixture and test
    that sets none of its own: they share the frames cached here, and never touch the developer's nor another
    worker's."""
    home = tmp_path_factory.mktemp("home")
    with pytest.MonkeyPatch.context() as patch:
        for name, sub in (("XDG_CACHE_HOME", "cache"), ("XDG_DATA_HOME", "data"), ("XDG_STATE_HOME", "state")):
            patch.setenv(name, str(home / sub))
        yield home


@pytest.fixture(autouse=True)
def _no_user_config(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Tests never read the developer's own config file or REACT_ENGINE_* settings."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path_factory.mktemp("config")))
    for name in [n for n in os.environ if n.startswith("REACT_ENGINE_")]:
        monkeypatch.delenv(name)


@pytest.fixture
def cli_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Cache, data (traces), config and state (chat history) under `tmp_path`, as a fresh user would have them."""
    for name, sub in (("XDG_CACHE_HOME", "cache"), ("XDG_DATA_HOME", "data"), ("XDG_CONFIG_HOME", "config"),
                      ("XDG_STATE_HOME", "state")):
        monkeypatch.setenv(name, str(tmp_path / sub))
    return tmp_path


@pytest.fixture(scope="session")
def fake_ollama_module() -> ModuleType:
    """The `scripts/fake_ollama.py` module (behaviour helpers: good, fenced, truncated, ...)."""
    return importlib.import_module("fake_ollama")


@pytest.fixture(scope="session")
def sample_suite_frames() -> FrameCache:
    """The logs of the bundled sample suite (evals/sample_suite.yaml), each set loaded once per session and shared:
    a run never changes the frame it is given."""
    from react_engine.app.evaluation.suite import load_suite
    from react_engine.logs.options import LoadOptions
    from react_engine.loop.frames import FrameCache

    return FrameCache(LoadOptions(year=load_suite(ROOT / "evals" / "sample_suite.yaml").year, use_cache=False))


@pytest.fixture(scope="session")
def dask_scheduler() -> Iterator[str]:
    """The address of one scheduler with two single-threaded worker processes on loopback, shared by the tests
    that only ask questions of a cluster (those that kill, pause or starve workers start their own); started by
    the first of them, stopped after the last (see `pytest_runtest_teardown`)."""
    pytest.importorskip("distributed", reason="needs the dask extra: pip install -e \".[dask]\"")
    from dask_cluster import dask_cluster

    yield _CLUSTER.enter_context(dask_cluster(2)).address
    _CLUSTER.close()  # a session cut short (-x, Ctrl-C)


@pytest.fixture
def fake_ollama(fake_ollama_module: ModuleType, monkeypatch: pytest.MonkeyPatch) -> Iterator:
    """A running stand-in Ollama server with qwen3:4b and llama3.1:8b installed; OLLAMA_HOST points at it."""
    with fake_ollama_module.FakeOllama(models=["qwen3:4b", "llama3.1:8b"]) as server:
        monkeypatch.setenv("OLLAMA_HOST", server.host)
        yield server


@pytest.fixture
def plan_request():
    """Build a `PlanRequest` with a small view: `plan_request(prompt=..., prompt_tokens=...)`."""
    from react_engine.contract.planner import ContextView, PlanRequest

    def make(prompt: str = "How many errors are there?", prompt_tokens: int = 8, system: str = "Reply in JSON."):
        view = ContextView(
            question=prompt, iteration=1, max_iterations=5, now=None, total_rows=3, row_count=3, columns=["message"]
        )
        return PlanRequest(system=system, prompt=prompt, prompt_tokens=prompt_tokens, view=view)

    return make


def _burn(seconds: float) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        pass


@pytest.fixture
def busy_core() -> Iterator[None]:
    """Another core kept busy meanwhile, as on a loaded machine: every step takes longer (start-up, imports), so
    a limit that holds here holds under load."""
    import multiprocessing

    burner = multiprocessing.get_context("spawn").Process(target=_burn, args=(300,), daemon=True)
    burner.start()
    yield
    burner.terminate()
    burner.join(10)
