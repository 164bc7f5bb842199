"""The engine over the real Ollama client and HTTP: server metrics land on steps and in the statistics."""

from __future__ import annotations

import json
from pathlib import Path

from react_engine import Engine
from react_engine.logs.options import LoadOptions
from react_engine.planners.ollama import OllamaPlanner
from react_engine.tools import REGISTRY, Tool, ToolContext, ToolResult
from react_engine.tools.registry import Params
from react_engine.tools.results import Counted

NO_CACHE = LoadOptions(use_cache=False)

SYSLOG = Path(__file__).resolve().parents[1] / "sample_logs" / "syslog" / "messages"


def _reply(action: str, **params) -> dict:
    return {"reasoning": "r", "action": action, "params": params}


def test_steps_carry_server_metrics_and_the_estimator_is_calibrated(fake_ollama, fake_ollama_module) -> None:
    fake_ollama.push(fake_ollama_module.good(_reply("get_log_count")),
                     fake_ollama_module.good(_reply("finalize_answer", answer="Counted.")))
    planner = OllamaPlanner(model="qwen3:4b", host=fake_ollama.host, timeout=10)
    result = Engine(planner).ask("How many lines?", [str(SYSLOG)], load_options=NO_CACHE)
    assert result.stop_reason == "stop" and result.statistics.llm_calls == 2
    bodies = fake_ollama.bodies("/api/chat")
    assert len(bodies) == 2
    for step, body in zip(result.steps, bodies):
        assert step.usage.prompt_tokens and step.usage.completion_tokens and step.usage.requests == 1
        assert step.usage.total_ms and step.usage.total_ms > 0 and step.usage.prompt_ms is not None
        assert "\nQUESTION: How many lines?\n" in body["messages"][-1]["content"]
        assert json.dumps(body["format"]).count("$ref") == 0
    ratio = sum(s.usage.prompt_tokens for s in result.steps) / sum(s.prompt_tokens for s in result.steps)
    assert result.statistics.token_estimate_ratio == round(ratio, 3)
    assert result.statistics.completion_tokens_total == sum(s.usage.completion_tokens for s in result.steps)


def test_the_format_schema_holds_the_engines_own_tools(fake_ollama, fake_ollama_module) -> None:
    class WordParams(Params):
        word: str

    def count_word(params: WordParams, ctx: ToolContext) -> ToolResult:
        return ToolResult(value=Counted(0), summary="0")

    custom = Tool("count_word", "lines holding a word", WordParams, count_word, Counted)
    tools = {**{n: t for n, t in REGISTRY.items() if n != "export_results"}, "count_word": custom}
    planner = OllamaPlanner(model="qwen3:4b", host=fake_ollama.host, timeout=10)
    fake_ollama.push(fake_ollama_module.good(_reply("count_word", word="sshd")),
                     fake_ollama_module.good(_reply("finalize_answer", answer="None.")))
    Engine(planner, tools=tools).ask("How many lines say sshd?", [str(SYSLOG)], load_options=NO_CACHE)
    sent = json.dumps(fake_ollama.bodies("/api/chat")[0]["format"])
    assert '"count_word"' in sent and '"export_results"' not in sent and '"get_log_count"' in sent
