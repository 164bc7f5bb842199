"""Choosing and building a planner from command-line style options."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

from react_engine.errors import InputError
from react_engine.planners.base import Planner
from react_engine.planners.modelfile import Modelfile

KINDS = ("auto", "rules", "ollama", "openai", "script:FILE")
DEFAULT_MODEL = "qwen3:4b"


class PlannerSpec(BaseModel):
    """Which planner to use and how to reach its model."""

    model_config = ConfigDict(extra="forbid")

    kind: str = Field("auto", description="auto | rules | ollama | openai | script:FILE")
    model: str | None = Field(None, description=f"model name (default {DEFAULT_MODEL}, or the Modelfile's FROM)")
    modelfile: Path | None = Field(None, description="Modelfile whose FROM, SYSTEM and PARAMETERs are used")
    host: str | None = Field(None, description="Ollama server (default: OLLAMA_HOST, else 127.0.0.1:11434)")
    think: bool = Field(False, description="let thinking models think before replying")
    base_url: str | None = Field(None, description="OpenAI-compatible server URL, e.g. http://localhost:8080/v1")
    timeout: float = Field(120.0, gt=0, description="seconds to wait for one model reply")
    num_ctx: int | None = Field(None, ge=512, description="context window, overriding the Modelfile")

    @field_validator("kind")
    @classmethod
    def _known_kind(cls, kind: str) -> str:
        if kind in KINDS[:-1] or (kind.startswith("script:") and len(kind) > len("script:")):
            return kind
        raise ValueError(f"unknown planner {kind!r}: use one of {', '.join(KINDS)}")


def make_planner(spec: PlannerSpec) -> tuple[Planner, str | None]:
    """Build the planner `spec` asks for, plus a one-line notice for the user (or None)."""
    if spec.kind == "rules":
        return _rules(), None
    if spec.kind.startswith("script:"):
        from react_engine.planners.script import ScriptPlanner

        return ScriptPlanner.from_file(spec.kind.removeprefix("script:")), None
    if spec.kind == "openai":
        return _openai(spec), None
    from react_engine.planners.ollama import OllamaPlanner, probe  # the ollama client is imported only when used

    modelfile = Modelfile.read(spec.modelfile) if spec.modelfile else None
    model = spec.model or (modelfile.model if modelfile else DEFAULT_MODEL)
    if spec.kind == "auto" and (reason := probe(model, spec.host)):
        return _rules(), f"{reason}: using the built-in rules planner"
    options = {"num_ctx": spec.num_ctx} if spec.num_ctx else None
    planner = OllamaPlanner(
        model, host=spec.host, timeout=spec.timeout, modelfile=modelfile, options=options, think=spec.think
    )
    ignored = [name for name in ("template", "license", "adapters") if modelfile and getattr(modelfile, name)]
    notice = None
    if ignored:
        notice = (
            f"{spec.modelfile}: {', '.join(n.upper() for n in ignored)} apply only to a created model: "
            f"run `react-engine models create {spec.modelfile}` to use them"
        )
    return planner, notice


def _rules() -> Planner:
    from react_engine.planners.rules import RulesPlanner

    return RulesPlanner()


def _openai(spec: PlannerSpec) -> Planner:
    base_url = spec.base_url or os.environ.get("OPENAI_BASE_URL")
    if not base_url:
        raise InputError("--planner openai needs --base-url URL (or OPENAI_BASE_URL), e.g. http://localhost:8080/v1")
    if not spec.model:
        raise InputError("--planner openai needs --model NAME: the model id the server knows")
    from react_engine.planners.openai import OpenAIPlanner

    system = Modelfile.read(spec.modelfile).system if spec.modelfile else None
    kwargs: dict[str, Any] = {"num_ctx": spec.num_ctx} if spec.num_ctx else {}
    return OpenAIPlanner(spec.model, base_url, timeout=spec.timeout, system_prompt=system, **kwargs)
