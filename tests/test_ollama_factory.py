"""Choosing a planner: PlannerSpec, make_planner, the auto probe, and the shared click options."""

from __future__ import annotations

import json
import socket

import click
import pytest
from click.testing import CliRunner
from pydantic import ValidationError

from react_engine.app.cli.flags import planner_options
from react_engine.errors import InputError
from react_engine.planners.factory import PlannerSpec, make_planner
from react_engine.planners.ollama import OllamaPlanner, probe
from react_engine.planners.openai import OpenAIPlanner
from react_engine.planners.script import ScriptPlanner


def _closed_host() -> str:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return f"127.0.0.1:{sock.getsockname()[1]}"


@pytest.mark.parametrize("kind", ["auto", "rules", "ollama", "openai", "llamacpp", "anthropic", "script:replies.json"])
def test_known_kinds_are_accepted(kind):
    assert PlannerSpec(kind=kind).kind == kind


@pytest.mark.parametrize("kind", ["gpt", "script:", "Ollama"])
def test_unknown_kinds_are_refused(kind):
    with pytest.raises(ValidationError, match="unknown planner"):
        PlannerSpec(kind=kind)


def test_ollama_defaults_to_qwen3_4b(fake_ollama):
    planner, notice = make_planner(PlannerSpec(kind="ollama"))
    assert isinstance(planner, OllamaPlanner) and planner.model == "qwen3:4b" and notice is None
    assert planner.url == fake_ollama.url  # OLLAMA_HOST honoured


def test_modelfile_from_is_the_model_and_num_ctx_overrides(tmp_path):
    path = tmp_path / "m.Modelfile"
    path.write_text('FROM gemma3:4b\nSYSTEM "terse"\nPARAMETER num_ctx 4096\nPARAMETER num_predict 300\n')
    planner, notice = make_planner(PlannerSpec(kind="ollama", modelfile=path, num_ctx=16384))
    assert planner.model == "gemma3:4b" and planner.system_prompt == "terse" and notice is None
    assert planner.options["num_ctx"] == 16384 and planner.options["num_predict"] == 300
    named, _ = make_planner(PlannerSpec(kind="ollama", modelfile=path, model="react-gemma3-4b"))
    assert named.model == "react-gemma3-4b"


def test_template_in_a_modelfile_gets_a_notice(tmp_path):
    path = tmp_path / "t.Modelfile"
    path.write_text('FROM qwen3:4b\nTEMPLATE "{{ .Prompt }}"\n')
    _, notice = make_planner(PlannerSpec(kind="ollama", modelfile=path))
    assert notice and "TEMPLATE" in notice and f"models create {path}" in notice


def test_auto_uses_ollama_when_the_model_is_there(fake_ollama):
    planner, notice = make_planner(PlannerSpec(kind="auto", model="llama3.1:8b"))
    assert isinstance(planner, OllamaPlanner) and planner.model == "llama3.1:8b" and notice is None


def test_probe_reports_why_not(fake_ollama):
    assert probe("qwen3:4b") is None
    assert "model 'gemma3:4b' is not installed" in (probe("gemma3:4b") or "")
    host = _closed_host()
    assert probe("qwen3:4b", host=host) == f"Ollama is not reachable at http://{host}"


def test_auto_falls_back_to_rules_with_a_notice():
    host = _closed_host()
    planner, notice = make_planner(PlannerSpec(kind="auto", host=host))
    assert planner.name == "rules" and not planner.calls_model
    assert notice == f"Ollama is not reachable at http://{host}: using the built-in rules planner"


def test_script_kind_reads_the_file(tmp_path):
    path = tmp_path / "r.json"
    path.write_text(json.dumps(["{}"]))
    planner, _ = make_planner(PlannerSpec(kind=f"script:{path}"))
    assert isinstance(planner, ScriptPlanner) and planner.replies == ["{}"]


def test_openai_needs_base_url_and_model(monkeypatch):
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    with pytest.raises(InputError, match="--base-url"):
        make_planner(PlannerSpec(kind="openai", model="m"))
    with pytest.raises(InputError, match="--model"):
        make_planner(PlannerSpec(kind="openai", base_url="http://x/v1"))
    planner, _ = make_planner(PlannerSpec(kind="openai", base_url="http://x/v1/", model="m"))
    assert isinstance(planner, OpenAIPlanner) and planner.base_url == "http://x/v1"


@click.command()
@planner_options
def show_spec(planner_spec: PlannerSpec) -> None:
    click.echo(planner_spec.model_dump_json())


def test_click_options_build_a_spec(tmp_path):
    path = tmp_path / "m.Modelfile"
    path.write_text("FROM qwen3:8b\n")
    args = ["--planner", "ollama", "--model", "qwen3:8b", "--modelfile", str(path), "--think",
            "--request-timeout", "9", "--num-ctx", "4096"]  # fmt: skip
    result = CliRunner().invoke(show_spec, args, env={"OLLAMA_HOST": "10.0.0.5:11434"})
    assert result.exit_code == 0, result.output
    spec = PlannerSpec.model_validate_json(result.output)
    assert spec == PlannerSpec(kind="ollama", model="qwen3:8b", modelfile=path, host="10.0.0.5:11434", think=True,
                               timeout=9, num_ctx=4096)  # fmt: skip


def test_click_options_defaults_and_bad_planner():
    result = CliRunner().invoke(show_spec, [], env={"OLLAMA_HOST": None, "OPENAI_BASE_URL": None})
    assert PlannerSpec.model_validate_json(result.output) == PlannerSpec()
    bad = CliRunner().invoke(show_spec, ["--planner", "gpt4"])
    assert bad.exit_code == 2 and "'gpt4': use one of auto, rules, ollama, openai, llamacpp, anthropic, script:FILE" in bad.output
