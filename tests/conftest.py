"""Shared fixtures. `scripts/` is on sys.path, so tests can `import fake_ollama` (or any other script module)."""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

import pytest
from hypothesis import settings

if TYPE_CHECKING:
    from react_engine.frames import FrameCache

# Property tests have no deadline (speed is measured by the scripts/bench_* scripts, never by a timed test, so a
# busy machine cannot fail them). CI runs them with a fixed seed, so a run there is reproducible; locally they
# explore.
settings.register_profile("local", deadline=None)
settings.register_profile("ci", derandomize=True, deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "local")

ROOT = Path(__file__).resolve().parents[1]
sys.path.append(str(ROOT / "scripts"))  # after site-packages: a script never shadows a module


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
    from react_engine.evaluation.suite import load_suite
    from react_engine.frames import FrameCache
    from react_engine.logs.options import LoadOptions

    return FrameCache(LoadOptions(year=load_suite(ROOT / "evals" / "sample_suite.yaml").year, use_cache=False))


@pytest.fixture(scope="session")
def dask_scheduler() -> Iterator[str]:
    """The address of one scheduler with two single-threaded worker processes on loopback, shared by the tests
    that only ask questions of a cluster (those that kill, pause or starve workers start their own)."""
    pytest.importorskip("distributed", reason="needs the dask extra: pip install -e \".[dask]\"")
    from dask_cluster import dask_cluster

    with dask_cluster(2) as cluster:
        yield cluster.address


@pytest.fixture
def fake_ollama(fake_ollama_module: ModuleType, monkeypatch: pytest.MonkeyPatch) -> Iterator:
    """A running stand-in Ollama server with qwen3:4b and llama3.1:8b installed; OLLAMA_HOST points at it."""
    with fake_ollama_module.FakeOllama(models=["qwen3:4b", "llama3.1:8b"]) as server:
        monkeypatch.setenv("OLLAMA_HOST", server.host)
        yield server


@pytest.fixture
def plan_request():
    """Build a `PlanRequest` with a small view: `plan_request(prompt=..., prompt_tokens=...)`."""
    from react_engine.planners.base import ContextView, PlanRequest

    def make(prompt: str = "How many errors are there?", prompt_tokens: int = 8, system: str = "Reply in JSON."):
        view = ContextView(
            question=prompt, iteration=1, max_iterations=5, now=None, total_rows=3, row_count=3, columns=["message"]
        )
        return PlanRequest(system=system, prompt=prompt, prompt_tokens=prompt_tokens, view=view)

    return make
