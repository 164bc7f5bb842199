"""A planned tool call, built from the tool's own params model, and `Cannot`: a measure no tool computes yet."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from react_engine.tools import REGISTRY
from react_engine.tools.registry import Params

_ACTIONS: dict[type[Params], str] = {tool.params: name for name, tool in REGISTRY.items()}


@dataclass(frozen=True)
class Call:
    """One tool call of a plan, with the one-sentence reason sent as `reasoning`."""

    action: str
    params: dict[str, Any]  # only the parameters given, as a model would send them
    reasoning: str
    model: Params  # the same parameters, checked by the tool's own params model


def call(params: Params, reasoning: str) -> Call:
    """The call of the tool whose params model `params` is."""
    return Call(_ACTIONS[type(params)], params.model_dump(exclude_unset=True), reasoning, params)


@dataclass(frozen=True)
class Cannot:
    """A measure the tools cannot compute yet: `asked` names it for the answer ("a percentage")."""

    asked: str

    def sentence(self) -> str:
        return f"I cannot compute {self.asked} yet"
