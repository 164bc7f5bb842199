"""Planner span attributes in the OpenTelemetry GenAI semantic conventions (`gen_ai.*`)."""

from __future__ import annotations

from typing import Any

from react_engine.contract.planner import Planner, PlannerReply


def request_attributes(planner: Planner) -> dict[str, Any]:
    """What is asked of the model: the operation, the provider and the model requested."""
    return {"gen_ai.operation.name": "chat", "gen_ai.provider.name": planner.name,
            "gen_ai.request.model": planner.model or planner.name}


def usage_attributes(reply: PlannerReply) -> dict[str, Any]:
    """What the model server reported: tokens read and written, and why it stopped."""
    attributes: dict[str, Any] = {"gen_ai.usage.input_tokens": reply.usage.prompt_tokens,
                                  "gen_ai.usage.output_tokens": reply.usage.completion_tokens}
    if reply.done_reason:
        attributes["gen_ai.response.finish_reasons"] = [reply.done_reason]
    return attributes
