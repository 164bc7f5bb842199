"""The fixed tools the planner can call. Importing this package registers all of them."""

from react_engine.tools import (  # noqa: F401  (registration)
    entities,
    export,
    filters,
    finalize,
    never_seen,
    patterns,
    shares,
    statistics,
    stats,
    timeline,
    times,
    unusual,
)
from react_engine.tools.registry import REGISTRY, Params, Tool, ToolContext, ToolResult

__all__ = ["REGISTRY", "Params", "Tool", "ToolContext", "ToolResult"]
