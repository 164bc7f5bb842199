"""A model planner's run that ends without a verified answer is finished by the rules planner (stand-in servers)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from react_engine import Engine, Settings
from react_engine.app.cli import main
from react_engine.logs.options import LoadOptions
from react_engine.planners.factory import PlannerSpec, make_fallback
from react_engine.planners.ollama import OllamaPlanner
from react_engine.planners.openai import OpenAIPlanner
from react_engine.planners.retry import RetryPolicy
from react_engine.planners.rules import RulesPlanner

NO_CACHE = LoadOptions(use_cache=False)
SYSLOG = Path(__file__).resolve().parents[1] / "sample_logs" / "syslog" / "messages"
ONCE = RetryPolicy(max_attempts=1)


def _reply(action: str, **params) -> str:
    return json.dumps({"action": action, "params": params, "reasoning": "r"})


def _rules_answer(question: str):
    return Engine(RulesPlanner()).ask(question, [str(SYSLOG)], load_options=NO_CACHE)


def _ollama(fake) -> OllamaPlanner:
    return OllamaPlanner("qwen3:4b", host=fake.host, retry=ONCE)


def _openai(fake) -> OpenAIPlanner:
    return OpenAIPlanner("qwen3:4b", f"{fake.url}/v1", retry=ONCE)


@pytest.mark.parametrize("make", [_ollama, _openai], ids=["ollama", "openai"])
def test_a_run_that_hits_the_step_limit_is_answered_by_the_rules(fake_ollama, make) -> None:
    question = "How many lines?"
    fake_ollama.default = {"content": _reply("show_logs", n=3)}  # the model repeats itself until stopped
    planner = make(fake_ollama)
    result = Engine(planner, Settings(max_iterations=4), fallback=RulesPlanner()).ask(
        question, [str(SYSLOG)], load_options=NO_CACHE)
    alone = _rules_answer(question)
    assert result.stop_reason == "stop" and result.verified
    assert result.value == alone.value and result.answer == alone.answer
    assert result.planner == f"{planner.name}+rules"
    assert any(w.startswith(f"the {planner.name} planner ended with tool_limit") for w in result.warnings)
    model_steps = [s for s in result.steps if s.reply and "show_logs" in s.reply]
    assert model_steps and result.steps[: len(model_steps)] == model_steps  # the model's steps first, then the rules'
    assert [s.iteration for s in result.steps] == list(range(1, len(result.steps) + 1))
    assert result.statistics.llm_calls == len(fake_ollama.bodies(
        "/api/chat" if planner.name == "ollama" else "/v1/chat/completions"))
    planner.close()


def test_an_unverified_answer_gives_way_to_the_verified_one_with_a_warning(fake_ollama) -> None:
    fake_ollama.push(_reply("get_log_count"), _reply("finalize_answer", answer="There were 123456 lines.",
                                                     value=123456))
    planner = _ollama(fake_ollama)
    result = Engine(planner, fallback=RulesPlanner()).ask("How many lines?", [str(SYSLOG)], load_options=NO_CACHE)
    assert result.verified and result.value == _rules_answer("How many lines?").value
    assert any("unverified answer was set aside: There were 123456 lines." in w for w in result.warnings)
    planner.close()


def test_a_server_that_is_down_is_answered_by_the_rules(fake_ollama) -> None:
    planner = OllamaPlanner("qwen3:4b", host="127.0.0.1:9", retry=ONCE)  # nothing listens on the discard port
    result = Engine(planner, fallback=RulesPlanner()).ask("How many lines?", [str(SYSLOG)], load_options=NO_CACHE)
    assert result.verified and result.planner == "ollama+rules" and result.statistics.llm_calls == 0
    assert any("ended with error (Ollama is not reachable" in w for w in result.warnings)
    planner.close()


def test_a_verified_model_answer_is_kept(fake_ollama) -> None:
    lines = _rules_answer("How many lines?").value
    fake_ollama.push(_reply("get_log_count"), _reply("finalize_answer", answer=f"There are {lines} lines.",
                                                     value=lines))
    planner = _ollama(fake_ollama)
    result = Engine(planner, fallback=RulesPlanner()).ask("How many lines?", [str(SYSLOG)], load_options=NO_CACHE)
    assert result.verified and result.planner == "ollama" and len(fake_ollama.bodies("/api/chat")) == 2
    assert len(result.steps) == 2
    planner.close()


def test_a_question_the_rules_cannot_read_keeps_the_models_result(fake_ollama) -> None:
    fake_ollama.default = {"content": _reply("show_logs", n=3)}
    planner = _ollama(fake_ollama)
    result = Engine(planner, Settings(max_iterations=3), fallback=RulesPlanner()).ask(
        "Tell me a poem about the moon", [str(SYSLOG)], load_options=NO_CACHE)
    assert result.stop_reason == "tool_limit" and result.planner == "ollama"
    planner.close()


def test_strict_model_turns_the_fallback_off() -> None:
    spec = PlannerSpec(kind="ollama")
    model = OllamaPlanner("qwen3:4b", host="127.0.0.1:9")
    assert isinstance(make_fallback(spec, model), RulesPlanner)
    assert make_fallback(spec.model_copy(update={"strict_model": True}), model) is None
    assert make_fallback(spec, RulesPlanner()) is None
    model.close()


@pytest.mark.parametrize("strict", [False, True])
def test_the_cli_says_which_planners_answered(fake_ollama, cli_home, strict) -> None:
    fake_ollama.default = {"content": _reply("show_logs", n=3)}
    args = ["ask", "How many lines?", str(SYSLOG), "--planner", "ollama", "--json", "--no-cache",
            "--max-iterations", "3", *(["--strict-model"] if strict else [])]
    out = CliRunner().invoke(main, args, env={"OLLAMA_HOST": fake_ollama.host})
    data = json.loads(out.stdout)
    assert data["planner"] == ("ollama" if strict else "ollama+rules")
    assert data["verified"] is not strict


def test_a_model_that_used_all_the_time_still_gets_the_rules_answer(fake_ollama, fake_ollama_module) -> None:
    fake_ollama.push(fake_ollama_module.slow(600, _reply("get_log_count")))  # a hung server
    planner = _ollama(fake_ollama)
    result = Engine(planner, Settings(timeout_seconds=1.0), fallback=RulesPlanner()).ask(
        "How many lines?", [str(SYSLOG)], load_options=NO_CACHE)
    assert result.verified and result.planner == "ollama+rules"
    assert any("ended with time_limit" in w for w in result.warnings)
    assert result.statistics.execution_time_seconds < 1.0 + 5.0 + 2.0
    planner.close()


@pytest.mark.parametrize("fallback", [True, False], ids=["fallback", "strict"])
def test_a_repeated_call_hands_over_to_the_rules_at_once(fake_ollama, fallback) -> None:
    fake_ollama.default = {"content": _reply("get_log_count")}  # the same call again and again
    planner = _ollama(fake_ollama)
    result = Engine(planner, Settings(max_iterations=10), fallback=RulesPlanner() if fallback else None).ask(
        "How many lines?", [str(SYSLOG)], load_options=NO_CACHE)
    calls = len(fake_ollama.bodies("/api/chat"))
    if fallback:  # one repeat is enough: the model's run stops and the rules answer, with no more model calls
        assert calls == 2 and result.planner == "ollama+rules" and result.verified
        assert any("repeated the same call 1 time" in w for w in result.warnings)
    else:  # with no one to hand over to, the model is told and gets two more tries
        assert calls == 4 and result.stop_reason == "tool_limit" and result.planner == "ollama"
    planner.close()


def test_trace_show_labels_the_steps_of_each_planner(fake_ollama, cli_home) -> None:
    fake_ollama.default = {"content": _reply("get_log_count")}
    env = {"OLLAMA_HOST": fake_ollama.host}
    asked = CliRunner().invoke(main, ["ask", "How many lines?", str(SYSLOG), "--planner", "ollama", "--no-cache"],
                               env=env)
    assert asked.exit_code == 0, asked.output
    started = CliRunner().invoke(main, ["trace", "list"], env=env).stdout.split()[0]
    shown = CliRunner().invoke(main, ["trace", "show", started], env=env).stdout.splitlines()
    assert "planner: ollama+rules" in shown[1]
    labels = [i for i, line in enumerate(shown) if line.strip().startswith("— the ")]
    assert [shown[i].strip() for i in labels] == ["— the ollama planner —", "— the rules planner —"]
    assert "get_log_count" in shown[labels[0] + 1] and "finalize_answer" in shown[labels[1] + 2]
    data = json.loads(CliRunner().invoke(main, ["trace", "show", started, "--json"], env=env).stdout)
    assert [r["planner"] for r in data["rows"]] == ["ollama", "ollama", "rules", "rules"]


def test_a_model_value_other_than_the_one_the_reading_computes_gives_way_to_it(fake_ollama) -> None:
    question = "when was the first failed password?"
    alone = _rules_answer(question)
    calls = [s for s in alone.steps if s.kind == "tool"]
    last = calls[-1].value["last"]  # computed too (the span's end), but the last time, not the first asked for
    wrong = {"time": last["time"], "line": last["line"]}
    assert alone.verified and alone.value != wrong
    fake_ollama.push(*[_reply(s.action or "", **s.params) for s in calls],
                     _reply("finalize_answer", answer=f"The first failed password was at {last['time']}.", value=wrong))
    planner = _ollama(fake_ollama)
    result = Engine(planner, fallback=RulesPlanner()).ask(question, [str(SYSLOG)], load_options=NO_CACHE)
    assert result.verified and result.value == alone.value and result.planner == "ollama+rules"
    assert any("the value the tools computed for the question as read" in w for w in result.warnings)
    assert any(f"set aside: The first failed password was at {last['time']}" in w for w in result.warnings)
    planner.close()
    strict = _ollama(fake_ollama)  # with no fallback (--strict-model) the model's answer stands, unverified
    fake_ollama.push(*[_reply(s.action or "", **s.params) for s in calls],
                     _reply("finalize_answer", answer=f"The first failed password was at {last['time']}.", value=wrong))
    alone_model = Engine(strict, advisor=RulesPlanner()).ask(question, [str(SYSLOG)], load_options=NO_CACHE)
    assert alone_model.value == wrong and not alone_model.verified
    strict.close()


def test_a_partial_answer_of_the_rules_beats_no_answer_from_the_model(fake_ollama) -> None:
    question = "when was the first error?"  # the syslog sample has no severities and no "error": a partial answer
    alone = _rules_answer(question)
    assert alone.partial and alone.stop_reason == "stop"
    fake_ollama.default = {"content": _reply("show_logs", n=3)}  # the model never answers
    planner = _ollama(fake_ollama)
    result = Engine(planner, Settings(max_iterations=4), fallback=RulesPlanner()).ask(
        question, [str(SYSLOG)], load_options=NO_CACHE)
    assert result.planner == "ollama+rules" and result.partial and not result.verified
    assert result.answer == alone.answer and result.stop_reason == "stop"
    planner.close()
