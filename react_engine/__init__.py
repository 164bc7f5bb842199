"""react-engine: ask questions of your log files and get exact, checkable answers."""

from react_engine.engine import Engine
from react_engine.result import RunResult
from react_engine.settings import Settings

__all__ = ["Engine", "RunResult", "Settings"]
