"""C1 controls and bidirectional overrides from logs or the model never reach the terminal raw."""

from __future__ import annotations

import json
import os
import pty
import re
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from react_engine.app.cli import main

ROOT = Path(__file__).resolve().parents[1]
RAW = re.compile("[\x80-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")
HOSTILE = "ev\u202eil\x9b2J\x85x"


def _reply(action: str, **params: object) -> str:
    return json.dumps({"reasoning": "r", "action": action, "params": params})


@pytest.fixture
def log(tmp_path: Path) -> Path:
    """Six lines, every other one from the host HOSTILE, each saying hello to it."""
    lines = [f"Nov 20 10:00:0{i} {HOSTILE if i % 2 else 'web01'} app[1]: hello {HOSTILE}\n" for i in range(6)]
    (tmp_path / "app.log").write_text("".join(lines), encoding="utf-8")
    return tmp_path / "app.log"


@pytest.mark.parametrize("output", ["table", "csv", "text"])
def test_table_csv_and_text_output_show_controls_escaped(fake_ollama, cli_home: Path, log: Path,
                                                         output: str) -> None:
    fake_ollama.push(_reply("top_values", field="host", n=5),
                     _reply("finalize_answer", answer=f"Top hosts: {HOSTILE} (3), web01 (3).",
                            value=[[HOSTILE, 3], ["web01", 3]]))
    result = CliRunner().invoke(main, ["ask", "top hosts", str(log), "--planner", "ollama", "--model", "qwen3:4b",
                                       "--no-trace", "--no-cache", "--output", output])
    assert "3" in result.stdout and "\\u202e" in result.stdout, result.output
    assert not RAW.search(result.stdout) and not RAW.search(result.stderr)


def test_chat_show_escapes_controls(cli_home: Path, log: Path) -> None:
    result = CliRunner().invoke(main, ["chat", str(log), "--no-cache", "--planner", "rules"], input="/show\n")
    assert "hello" in result.stdout and not RAW.search(result.output), result.output


def test_the_approval_prompt_escapes_controls(fake_ollama, tmp_path: Path, log: Path) -> None:
    fake_ollama.push(_reply("export_results", path=f"{HOSTILE}.csv", format="csv"),
                     _reply("finalize_answer", answer="Not exported.", value=None))
    env = {**os.environ, "OLLAMA_HOST": fake_ollama.host, "PYTHONPATH": str(ROOT), "XDG_CACHE_HOME": str(tmp_path)}
    leader, follower = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "react_engine", "ask", "export", str(log), "--planner", "ollama",
                             "--model", "qwen3:4b", "--no-trace", "--output-dir", str(tmp_path)],
                            stdin=follower, stdout=follower, stderr=follower, env=env, cwd=tmp_path)
    os.close(follower)
    seen, answered, deadline = b"", False, time.monotonic() + 60
    while time.monotonic() < deadline:
        ready, _, _ = select.select([leader], [], [], 0.5)
        if ready:
            try:
                chunk = os.read(leader, 65536)
            except OSError:
                break
            if not chunk:
                break
            seen += chunk
        if not answered and b"Allow?" in seen:
            os.write(leader, b"n\n")
            answered = True
        if proc.poll() is not None and not ready:
            break
    proc.wait(timeout=30)
    os.close(leader)
    text = seen.decode("utf-8", errors="replace")
    assert answered and "export_results" in text, text
    assert not RAW.search(text), text
