"""react-engine: ask questions of your log files and get exact, checkable answers."""

from __future__ import annotations

from importlib import import_module

# not `typing.TYPE_CHECKING`: importing typing takes a few ms at start-up, where Ctrl-C cannot end the run cleanly yet
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from react_engine.contract.record import RunResult
    from react_engine.loop.engine import Engine
    from react_engine.settings import Settings

__version__ = "0.1.0"
__all__ = ["Engine", "RunResult", "Settings", "__version__"]
_HOMES = {"Engine": "react_engine.loop.engine", "RunResult": "react_engine.contract.record", "Settings": "react_engine.settings"}


def __getattr__(name: str) -> Any:
    """Import the public classes on first use, so `react_engine.logs` alone stays light."""
    if name in _HOMES:
        return getattr(import_module(_HOMES[name]), name)
    raise AttributeError(f"module 'react_engine' has no attribute {name!r}")
