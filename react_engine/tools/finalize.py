"""The terminal action: the planner's final answer."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from react_engine.tools.registry import Params, ToolContext, ToolResult, tool
from react_engine.tools.results import Stated


class FinalizeAnswerParams(Params):
    answer: str = Field(min_length=1, description="the answer in one or two sentences")
    value: Any = Field(None, description="the number, list or text the answer rests on, as computed by a tool")


@tool("finalize_answer", "the final answer; value = the tool result it states", FinalizeAnswerParams, Stated,
      terminal=True)
def finalize_answer(params: FinalizeAnswerParams, ctx: ToolContext) -> ToolResult:
    return ToolResult(value=Stated(params.value), summary=" ".join(params.answer.split()))
