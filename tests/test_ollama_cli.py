"""`react-engine ask --planner ollama` end to end: the CLI, the real client and real HTTP to the stand-in server."""

from __future__ import annotations

import json
import socket
from pathlib import Path

import pytest
from click.testing import CliRunner

from react_engine.app.cli import main
from react_engine.planners.modelfile import Modelfile

ROOT = Path(__file__).resolve().parents[1]
APP_LOG = ROOT / "sample_logs" / "app" / "app.jsonl"
QUESTION = "How many error entries are there?"


@pytest.fixture(scope="module")
def app_log_truth() -> dict:
    """The generator's own counts for the sample app log."""
    return json.loads((ROOT / "sample_logs" / "ground_truth.json").read_text())["files"]["app/app.jsonl"]


@pytest.fixture(scope="module")
def errors_in_app_log(app_log_truth: dict) -> int:
    return app_log_truth["by_severity"]["error"]


def _action(action: str, params: dict, reasoning: str = "next step") -> dict:
    return {"reasoning": reasoning, "action": action, "params": params}


def _ask(host: str, *args: str) -> tuple[int, str]:
    """Exit code and stdout (the result); errors are on stderr, see `_ask_errors`."""
    code, stdout, _ = _run(host, *args)
    return code, stdout


def _ask_errors(host: str, *args: str) -> tuple[int, str]:
    """Exit code and stderr (notices and the one-line error)."""
    code, _, stderr = _run(host, *args)
    return code, stderr


def _run(host: str, *args: str) -> tuple[int, str, str]:
    """The model alone (--strict-model): no rules-planner answer after it fails (see test_fallback.py)."""
    result = CliRunner().invoke(
        main, ["ask", QUESTION, str(APP_LOG), "--planner", "ollama", "--strict-model", "--no-trace", "--no-cache",
               *args],
        env={"OLLAMA_HOST": host},
    )  # fmt: skip
    return result.exit_code, result.stdout, result.stderr


def test_ask_answers_through_think_tags_fences_and_a_transient_500(fake_ollama, fake_ollama_module,
                                                                    errors_in_app_log):  # fmt: skip
    fake = fake_ollama_module
    fake_ollama.push(
        fake.think_tagged(_action("filter_by_severity", {"levels": ["error"]})),
        fake.http_error(500),
        fake.fenced(_action("get_log_count", {})),
        fake.good(_action("finalize_answer", {"answer": f"There are {errors_in_app_log} error entries.",
                                              "value": errors_in_app_log})),
    )
    code, output = _ask(fake_ollama.host, "--model", "qwen3:4b", "--json")
    assert code == 0, output
    result = json.loads(output)
    assert result["stop_reason"] == "stop" and result["verified"] and result["value"] == errors_in_app_log
    assert [len(step["retries"]) for step in result["steps"]] == [0, 1, 0]
    assert result["steps"][0]["thinking"]
    bodies = fake_ollama.bodies("/api/chat")
    assert len(bodies) == 4
    for body in bodies:
        schema = json.dumps(body["format"])
        assert body["model"] == "qwen3:4b" and body["format"]["anyOf"]
        assert not [key for key in ('"$ref"', '"$defs"', '"oneOf"', '"const"') if key in schema]
        assert body["options"]["temperature"] == 0 and body["options"]["num_ctx"] == 8192


def test_modelfile_swap_sends_its_system_and_parameters(fake_ollama, app_log_truth):
    path = ROOT / "modelfiles" / "llama3.1-8b.Modelfile"
    modelfile = Modelfile.read(path)
    fake_ollama.push(json.dumps(_action("get_log_count", {})))
    fake_ollama.push(json.dumps(_action("finalize_answer", {"answer": "lines", "value": app_log_truth["lines"]})))
    code, output = _ask(fake_ollama.host, "--modelfile", str(path))
    assert code == 0, output
    for body in fake_ollama.bodies("/api/chat"):
        assert body["model"] == modelfile.model
        assert body["messages"][0] == {"role": "system", "content": modelfile.system}
        assert {k: body["options"][k] for k in modelfile.parameters} == modelfile.parameters


def test_truncated_twice_stops_with_length(fake_ollama, fake_ollama_module):
    fake_ollama.push(fake_ollama_module.empty(), fake_ollama_module.truncated(_action("get_log_count", {})))
    code, output = _ask(fake_ollama.host, "--json")
    assert code == 1
    result = json.loads(output)
    assert result["stop_reason"] == "length"
    assert result["statistics"]["llm_calls"] == 1  # the turn that ran out of room was still a model call


def test_server_down_is_one_clear_line_and_exit_1():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        host = f"127.0.0.1:{sock.getsockname()[1]}"
    code, output = _ask_errors(host)
    assert code == 1
    expected = (f"Ollama is not reachable at http://{host}: start it with `ollama serve`, set OLLAMA_HOST, "
                "or use --planner rules")  # fmt: skip
    errors = [line for line in output.splitlines() if line.startswith("error:")]
    assert len(errors) == 1 and expected in errors[0]
    assert "Traceback" not in output


def test_unknown_model_is_one_clear_line_and_exit_1(fake_ollama):
    code, output = _ask_errors(fake_ollama.host, "--model", "phi4:14b")
    assert code == 1
    errors = [line for line in output.splitlines() if line.startswith("error:")]
    assert len(errors) == 1 and "model 'phi4:14b' not found: run `ollama pull phi4:14b`" in errors[0]
    assert "Traceback" not in output
