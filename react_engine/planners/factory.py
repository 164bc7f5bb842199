"""Choosing and building a planner from command-line style options."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from react_engine.contract.planner import DEFAULT_MODEL, Advisor, Planner
from react_engine.errors import InputError

if TYPE_CHECKING:
    from react_engine.planners.modelfile import Modelfile

KINDS = ("auto", "rules", "ollama", "openai", "llamacpp", "anthropic", "script:FILE")
NAMED = ("ollama", "openai", "llamacpp", "anthropic")


class PlannerSpec(BaseModel):
    """Which planner to use and how to reach its model."""

    model_config = ConfigDict(extra="forbid")

    kind: str = Field("auto", description="auto | rules | ollama | openai | llamacpp | anthropic | script:FILE")
    model: str | None = Field(
        None, description=f"model name (default {DEFAULT_MODEL}, or the Modelfile's FROM), or a .gguf path"
    )
    modelfile: Path | None = Field(None, description="Modelfile whose FROM, SYSTEM and PARAMETERs are used")
    host: str | None = Field(None, description="Ollama server (default: OLLAMA_HOST, else 127.0.0.1:11434)")
    think: bool = Field(False, description="let thinking models think before replying")
    base_url: str | None = Field(None, description="OpenAI-compatible server URL, e.g. http://localhost:8080/v1")
    timeout: float = Field(120.0, gt=0, description="seconds to wait for one model reply")
    num_ctx: int | None = Field(None, ge=512, description="context window, overriding the Modelfile")
    strict_model: bool = Field(False, description="no rules-planner fallback when a model's run ends unverified")
    fallback: Literal["rules", "none"] | None = Field(
        None, description="rules: the rules planner answers also when a named planner's server or model cannot be "
        "had; none: never (as strict_model); unset: for auto always, for a named planner only after its replies")

    @property
    def named(self) -> bool:
        """Whether the user named a model planner (not auto, rules or a script)."""
        return self.kind in NAMED

    @field_validator("kind")
    @classmethod
    def _known_kind(cls, kind: str) -> str:
        if kind in KINDS[:-1] or (kind.startswith("script:") and len(kind) > len("script:")):
            return kind
        raise ValueError(f"unknown planner {kind!r}: use one of {', '.join(KINDS)}")


def is_gguf(name: str | None) -> bool:
    """Whether a model name is a path to a GGUF file (which selects the llama.cpp planner)."""
    return bool(name) and str(name).lower().endswith(".gguf")


def make_planner(spec: PlannerSpec) -> tuple[Planner, str | None]:
    """Build the planner `spec` asks for, plus a one-line notice for the user (or None).

    Each model client is imported only when its planner is chosen.
    """
    if spec.kind == "rules":
        return _rules(), None
    if spec.kind.startswith("script:"):
        from react_engine.planners.script import ScriptPlanner

        return ScriptPlanner.from_file(spec.kind.removeprefix("script:")), None
    return _model_planner(spec)


def _model_planner(spec: PlannerSpec) -> tuple[Planner, str | None]:
    """The planner of a model (its Modelfile read, when given), plus a notice for the user (or None)."""
    from react_engine.planners.modelfile import Modelfile  # a model planner's: the rules need none

    modelfile = Modelfile.read(spec.modelfile) if spec.modelfile else None
    model = spec.model or (modelfile.model if modelfile else None)
    if spec.kind == "openai":
        return _openai(spec, model, modelfile), None
    if spec.kind == "anthropic":
        from react_engine.planners.anthropic import AnthropicPlanner

        return AnthropicPlanner(model, timeout=spec.timeout, modelfile=modelfile), None
    if spec.kind == "llamacpp" or (spec.kind == "auto" and is_gguf(model)):
        return _llamacpp(spec, model, modelfile)
    return _ollama(spec, model or DEFAULT_MODEL, modelfile)


def _ollama(spec: PlannerSpec, model: str, modelfile: Modelfile | None) -> tuple[Planner, str | None]:
    """The Ollama planner; the rules planner instead, with the reason, when chosen automatically and the model
    cannot be had."""
    from react_engine.planners.ollama import OllamaPlanner, probe

    if spec.kind == "auto" and (reason := probe(model, spec.host)):
        return _rules(), f"{reason}: using the built-in rules planner"
    options = {"num_ctx": spec.num_ctx} if spec.num_ctx else None
    planner = OllamaPlanner(
        model, host=spec.host, timeout=spec.timeout, modelfile=modelfile, options=options, think=spec.think
    )
    return planner, _unused(spec.modelfile, modelfile, [])


def make_fallback(spec: PlannerSpec, planner: Planner) -> Planner | None:
    """The planner that finishes a model planner's run that ends without a verified answer: the rules planner,
    unless the model is to be judged alone (`strict_model`, `fallback` none) or `planner` calls no model."""
    return None if spec.strict_model or spec.fallback == "none" or not planner.calls_model else _rules()


def fallback_if_unreachable(spec: PlannerSpec) -> bool:
    """Whether the fallback also stands in for a model that cannot be had: for the automatic choice, not for a
    planner the user named (that ends the run with the reason), unless asked for with `fallback` rules."""
    return spec.fallback == "rules" or not spec.named


def make_advisor() -> Advisor:
    """What reads the question for every planner (the interpretation, a model's notes and suggested reply): the
    rules planner."""
    from react_engine.planners.rules import RulesPlanner

    return RulesPlanner()


def _unused(path: Path | None, modelfile: Modelfile | None, parameters: list[str]) -> str | None:
    """A notice naming the Modelfile instructions and PARAMETERs that the chosen planner does not apply."""
    if path is None or modelfile is None:
        return None
    parts = []
    if ignored := [n.upper() for n in ("template", "license", "adapters") if getattr(modelfile, n)]:
        parts.append(f"{', '.join(ignored)} apply only to a created model: "
                     f"run `react-engine models create {path}` to use them")  # fmt: skip
    if parameters:
        parts.append(f"PARAMETER {', '.join(parameters)} are not used by llama.cpp")
    return f"{path}: {'; '.join(parts)}" if parts else None


def _rules() -> Planner:
    from react_engine.planners.rules import RulesPlanner

    return RulesPlanner()


def _openai(spec: PlannerSpec, model: str | None, modelfile: Modelfile | None) -> Planner:
    base_url = spec.base_url or os.environ.get("OPENAI_BASE_URL")
    if not base_url:
        raise InputError("--planner openai needs --base-url URL (or OPENAI_BASE_URL), e.g. http://localhost:8080/v1")
    if not model:
        raise InputError("--planner openai needs --model NAME: the model id the server knows")
    from react_engine.planners.openai import OpenAIPlanner

    kwargs: dict[str, Any] = {"num_ctx": spec.num_ctx} if spec.num_ctx else {}
    return OpenAIPlanner(model, base_url, timeout=spec.timeout, modelfile=modelfile, **kwargs)


def _llamacpp(spec: PlannerSpec, model: str | None, modelfile: Modelfile | None) -> tuple[Planner, str | None]:
    if not is_gguf(model):
        raise InputError("--planner llamacpp needs --model PATH.gguf (or a Modelfile whose FROM is a .gguf path)")
    from react_engine.planners.llamacpp import LlamaCppPlanner

    path = Path(str(model)).expanduser()
    if not spec.model and spec.modelfile and not path.is_absolute():  # FROM is relative to the Modelfile
        path = spec.modelfile.parent / path
    options = {"num_ctx": spec.num_ctx} if spec.num_ctx else None
    planner = LlamaCppPlanner(path, modelfile=modelfile, options=options, timeout=spec.timeout)
    return planner, _unused(spec.modelfile, modelfile, planner.ignored)
