"""The fixed tools the planner can call. Importing this package registers all of them."""

from react_engine.tools import (  # noqa: F401  (registration)
    answer,
    entities,
    export,
    filters,
    measures,
    patterns,
    shares,
    stats,
    timeline,
    times,
    unusual,
)
from react_engine.tools.base import REGISTRY, Params, Tool, ToolContext, ToolResult

__all__ = ["REGISTRY", "Params", "Tool", "ToolContext", "ToolResult"]
