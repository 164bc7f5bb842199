"""`react-engine models list|create|show` against the stand-in server."""

from __future__ import annotations

import socket

from click.testing import CliRunner

from react_engine.app.cli import main
from react_engine.planners.modelfile import Modelfile, bundled


def _run(host: str, *args: str):
    return CliRunner().invoke(main, ["models", *args], env={"OLLAMA_HOST": host})


def test_list_marks_which_bundled_modelfiles_are_ready(fake_ollama):
    result = _run(fake_ollama.host, "list")
    assert result.exit_code == 0, result.output
    for path in bundled():
        base = Modelfile.read(path).model
        row = next(line for line in result.output.splitlines() if line.strip().startswith(path.name))
        assert f"FROM {base} (installed)" in row if base in fake_ollama.models else "missing" in row
        assert f"react-{path.stem.lower()}: not created" in row
    installed = result.output.split("Installed in Ollama at")[1]
    assert all(f"  {name}" in installed for name in fake_ollama.models)


def test_create_sends_the_parsed_modelfile_and_list_then_shows_it(fake_ollama, tmp_path):
    path = tmp_path / "planner.Modelfile"
    path.write_text('FROM qwen3:4b\nSYSTEM """JSON only."""\nPARAMETER num_ctx 4096\nPARAMETER stop "<|im_end|>"\n'
                    "MESSAGE user hi\nLICENSE MIT\n")  # fmt: skip
    result = _run(fake_ollama.host, "create", str(path), "--name", "logbot")
    assert result.exit_code == 0, result.output
    assert "created logbot from qwen3:4b: use it with --model logbot" in result.output
    assert "success" in result.output
    body = fake_ollama.bodies("/api/create")[-1]
    assert body == {
        "model": "logbot",
        "from": "qwen3:4b",
        "system": "JSON only.",
        "parameters": {"num_ctx": 4096, "stop": ["<|im_end|>"]},
        "messages": [{"role": "user", "content": "hi"}],
        "license": ["MIT"],
        "stream": True,
    }
    assert "logbot" in _run(fake_ollama.host, "list").output.split("Installed in Ollama at")[1]


def test_create_default_name_and_missing_base(fake_ollama):
    path = next(p for p in bundled() if Modelfile.read(p).model not in fake_ollama.models)
    result = _run(fake_ollama.host, "create", str(path))
    assert result.exit_code == 1
    base = Modelfile.read(path).model
    assert result.output.strip() == (
        f"Error: model '{base}' not found: run `ollama pull {base}` or `react-engine models create modelfiles/...`"
    )
    assert fake_ollama.bodies("/api/create")[-1]["model"] == f"react-{path.stem.lower()}"


def test_create_reports_a_bad_modelfile_by_line(fake_ollama, tmp_path):
    path = tmp_path / "bad.Modelfile"
    path.write_text("FROM qwen3:4b\nPARAMETER temprature 0\n")
    result = _run(fake_ollama.host, "create", str(path))
    assert result.exit_code == 1 and result.output.count("\n") == 1
    assert f"{path}:2: unknown PARAMETER 'temprature'" in result.output
    assert not fake_ollama.bodies("/api/create")


def test_show_prints_details_and_context_length(fake_ollama):
    result = _run(fake_ollama.host, "show", "qwen3:4b")
    assert result.exit_code == 0, result.output
    assert "context       40960 tokens" in result.output and "thinking" in result.output
    missing = _run(fake_ollama.host, "show", "nope:1b")
    assert missing.exit_code == 1 and "model 'nope:1b' not found" in missing.output


def test_server_down_lists_bundled_then_a_notice_and_exits_0():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        host = f"127.0.0.1:{sock.getsockname()[1]}"
    result = _run(host, "list")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert all(any(p.name in line for line in lines) for p in bundled())
    assert "Installed in Ollama" not in result.stdout
    assert result.stderr.strip().splitlines() == [
        f"installed models unknown: Ollama is not reachable at http://{host}: start it with `ollama serve`, "
        "set OLLAMA_HOST, or use --planner rules"]  # fmt: skip
