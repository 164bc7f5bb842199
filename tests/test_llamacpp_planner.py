"""Choosing the llama.cpp planner, and running it on a real GGUF model in-process when one is installed."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from tiny_models import NO_CACHE, SYSLOG, real_model

from react_engine import Engine, Settings
from react_engine.contract.actions import parse_reply
from react_engine.errors import InputError
from react_engine.planners.factory import PlannerSpec, is_gguf, make_planner
from react_engine.planners.llamacpp import INSTALL_HINT


@pytest.mark.skipif(not hasattr(os, "sched_setaffinity"), reason="no CPU affinity on this platform")
def test_the_threads_follow_the_cpus_the_process_may_use() -> None:
    """Pinned to one CPU (taskset, a container), llama.cpp gets one thread, not one per CPU of the machine."""
    code = ("import os; os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]}); "
            "from react_engine.planners.llamacpp import usable_cpus; print(usable_cpus())")
    pinned = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert pinned.stdout.strip() == "1"


def test_gguf_names_select_llamacpp() -> None:
    assert is_gguf("models/gemma.GGUF") and not is_gguf("qwen3:4b") and not is_gguf(None)


def test_llamacpp_needs_a_gguf_path() -> None:
    with pytest.raises(InputError, match=r"needs --model PATH\.gguf"):
        make_planner(PlannerSpec(kind="llamacpp", model="qwen3:4b"))


@pytest.mark.parametrize("kind", ["llamacpp", "auto"])
def test_a_missing_model_file_is_named(tmp_path, kind) -> None:
    with pytest.raises(InputError, match=f"^{tmp_path / 'no.gguf'}: no such model file"):
        make_planner(PlannerSpec(kind=kind, model=str(tmp_path / "no.gguf")))


def test_a_modelfile_from_is_relative_to_the_modelfile(tmp_path) -> None:
    (tmp_path / "tiny.Modelfile").write_text("FROM ./weights/tiny.gguf\nPARAMETER temperature 0\n")
    with pytest.raises(InputError, match=f"^{tmp_path / 'weights' / 'tiny.gguf'}: no such model file"):
        make_planner(PlannerSpec(modelfile=tmp_path / "tiny.Modelfile"))


def test_without_the_extra_the_error_says_how_to_install(tmp_path, monkeypatch) -> None:
    (tmp_path / "m.gguf").write_bytes(b"GGUF")
    monkeypatch.setitem(sys.modules, "llama_cpp", None)  # as if llama-cpp-python were not installed
    with pytest.raises(InputError) as caught:
        make_planner(PlannerSpec(kind="llamacpp", model=str(tmp_path / "m.gguf")))
    message = str(caught.value)
    assert "\n" not in message and INSTALL_HINT in message and "-DGGML_NATIVE=OFF" in message


@pytest.mark.real_model
def test_modelfile_parameters_map_to_llama_cpp_and_the_model_loads_once(tmp_path) -> None:
    model = real_model()
    (tmp_path / "tiny.Modelfile").write_text(
        f"FROM {model}\nPARAMETER num_ctx 2048\nPARAMETER top_k 20\nPARAMETER num_keep 4\n"
        'SYSTEM "Reply with one JSON action."\nMESSAGE user hello\nMESSAGE assistant {"action": "get_log_count"}\n'
    )
    planner, notice = make_planner(PlannerSpec(modelfile=tmp_path / "tiny.Modelfile"))
    again, _ = make_planner(PlannerSpec(kind="llamacpp", modelfile=tmp_path / "tiny.Modelfile"))
    assert planner.name == "llamacpp" and planner.llama is again.llama  # loaded once per process
    assert planner.llama.n_ctx() == 2048 and planner.options["top_k"] == 20
    assert notice == f"{tmp_path / 'tiny.Modelfile'}: PARAMETER num_keep are not used by llama.cpp"
    request_messages = planner.messages(_request())
    assert [m["role"] for m in request_messages] == ["system", "user", "assistant", "user"]
    assert request_messages[0]["content"] == "Reply with one JSON action."


@pytest.mark.real_model
def test_a_gemma_gguf_without_a_chat_template_gets_gemma_turns_with_the_system_text_first() -> None:
    planner, _ = make_planner(PlannerSpec(kind="llamacpp", model=str(real_model(name="gemma3-270m"))))
    assert "tokenizer.chat_template" not in planner.llama.metadata  # llama-cpp-python would use Llama 2's turns
    assert planner.llama.chat_format == "gemma"
    assert planner.messages(_request()) == [{"role": "user", "content": "s\n\nHow many lines are there?"}]


def _request():
    from react_engine.contract.planner import ContextView, PlanRequest

    view = ContextView(question="q", iteration=1, max_iterations=3, now=None, total_rows=1, row_count=1, columns=[])
    return PlanRequest(system="s", prompt="How many lines are there?", prompt_tokens=10, view=view)


@pytest.mark.real_model
def test_every_reply_of_a_real_model_parses_and_each_run_stops() -> None:
    planner, _ = make_planner(PlannerSpec(kind="llamacpp", model=str(real_model())))
    questions = ["How many lines are there?", "How many error lines are there?", "Which host logs the most lines?"]
    for question in questions:
        result = Engine(planner, Settings(max_iterations=3)).ask(question, [str(SYSLOG)], load_options=NO_CACHE)
        assert result.stop_reason in ("stop", "tool_limit"), (question, result.message)
        for step in result.steps:
            assert step.reply is not None
            reply = parse_reply(step.reply)  # the grammar guarantees a contract-shaped action
            assert json.loads(step.reply)["action"] == reply.action
            assert step.usage.prompt_tokens and step.usage.completion_tokens
