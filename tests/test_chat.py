"""`react-engine chat`: logs loaded once, follow-ups narrow from the previous answer; piped and under a real terminal."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from react_engine.app.cli import main
from react_engine.app.conversation import is_follow_up
from react_engine.logs import load

ROOT = Path(__file__).resolve().parents[1]
SYSLOG = ROOT / "sample_logs" / "syslog" / "messages"


pytestmark = pytest.mark.usefixtures("cli_home")


def act(action: str, **params) -> str:
    return json.dumps({"action": action, "params": params})


def counted(answer: str) -> list[str]:
    return [act("get_log_count"), act("finalize_answer", answer=answer)]


@pytest.mark.parametrize("question, expected", [
    ("how many of those are from web01?", True),
    ("and among them, which host is busiest?", True),
    ("Of these, how many are errors?", True),
    ("show those lines", True),
    ("how many errors?", False),
    ("which hosts are there?", False),
    ("how many lines mention thermostat?", False),
])
def test_follow_ups_are_recognised(question: str, expected: bool) -> None:
    assert is_follow_up(question) is expected


def test_piped_follow_ups_start_from_the_previous_answer_and_reset_goes_back_to_all(tmp_path: Path) -> None:
    frame = load([str(SYSLOG)])
    failed = frame["message"].str.contains("Failed password", case=False)
    bastion = frame["host"] == "bastion01"
    n_failed, n_both, n_bastion = int(failed.sum()), int((failed & bastion).sum()), int(bastion.sum())
    replies = [act("search_logs", value="Failed password"), *counted(f"{n_failed} failed"),
               act("filter_by_field", field="host", value="bastion01"), *counted(f"{n_both} of those"),
               act("filter_by_field", field="host", value="bastion01"), *counted(f"{n_bastion} lines"),
               act("filter_by_field", field="host", value="bastion01"), *counted(f"{n_bastion} after reset")]
    script = tmp_path / "replies.json"
    script.write_text(json.dumps(replies))
    questions = ["how many failed passwords?", "how many of those are from bastion01?",
                 "how many lines from bastion01?", "/show", "/reset", "how many of those are from bastion01?"]
    result = CliRunner().invoke(main, ["chat", str(SYSLOG), "--planner", f"script:{script}", "--no-trace", "--json"],
                                input="\n".join(questions) + "\n")
    assert result.exit_code == 0, result.stderr
    decoder, text, values = json.JSONDecoder(), result.stdout, []
    while text.strip():
        text = text.lstrip()
        if not text.startswith("{"):
            text = text.split("\n", 1)[1] if "\n" in text else ""
            continue
        obj, end = decoder.raw_decode(text)
        values.append(obj["steps"][-2]["value"])
        text = text[end:]
    assert values == [int(failed.sum()), int((failed & bastion).sum()), int(bastion.sum()), int(bastion.sum())]
    assert f"{int(bastion.sum()):,} of {len(frame):,} rows (from the previous answer)" in result.stdout
    assert "back to all" in result.stderr


def test_json_toggles_and_unknown_commands_show_help(tmp_path: Path) -> None:
    script = tmp_path / "replies.json"
    script.write_text(json.dumps(counted("n") * 2))
    result = CliRunner().invoke(main, ["chat", str(SYSLOG), "--planner", f"script:{script}", "--no-trace"],
                                input="how many lines?\n/json\nhow many lines?\n/what\n")
    first, rest = result.stdout.split("\n", 1)
    assert first == "n" and json.loads(rest[rest.index("{"):rest.rindex("}") + 1])["answer"] == "n"
    assert "output: json" in result.stderr


@pytest.mark.parametrize("typed, nearest", [("/shw", "/show"), ("/rest", "/reset"), ("/bogus", None)])
def test_an_unknown_command_is_named_with_the_nearest_one_and_the_list(typed: str, nearest: str | None) -> None:
    result = CliRunner().invoke(main, ["chat", str(SYSLOG), "--planner", "rules", "--no-trace"],
                                input=f"{typed}\n/help\n")
    assert result.exit_code == 0 and result.stdout.count("/reset") == 1  # /help's list on stdout, once
    assert f"unknown command {typed}" in result.stderr and "/reset" in result.stderr
    assert (f"did you mean {nearest}?" in result.stderr) if nearest else "did you mean" not in result.stderr


def test_a_piped_question_not_answered_makes_the_exit_code_1() -> None:
    result = CliRunner().invoke(main, ["chat", str(SYSLOG), "--planner", "rules", "--no-trace"],
                                input="how many lines?\nWhat is the meaning of life?\n")
    assert result.exit_code == 1 and result.stdout.startswith("4,200")


def test_chat_over_missing_logs_is_one_line() -> None:
    result = CliRunner().invoke(main, ["chat", "/nonexistent/x.log", "--planner", "rules"], input="q\n")
    assert result.exit_code == 1 and "x.log" in result.stderr and "Traceback" not in result.output


class Tmux:
    """A real terminal: a detached tmux session on a private socket, driven with send-keys / capture-pane."""

    def __init__(self, socket: Path, command: list[str], env: dict[str, str]) -> None:
        self.base = ["tmux", "-S", str(socket)]
        exports = [f"{k}={v}" for k, v in env.items()]
        subprocess.run([*self.base, "new-session", "-d", "-s", "chat", "-x", "120", "-y", "50",
                        "env", *exports, *command], check=True)

    def send(self, *keys: str) -> None:
        subprocess.run([*self.base, "send-keys", "-t", "chat", *keys], check=True)

    def screen(self) -> str:
        done = subprocess.run([*self.base, "capture-pane", "-p", "-t", "chat", "-S", "-200"], capture_output=True,
                              text=True)
        return done.stdout

    def wait_for(self, text: str, count: int = 1, limit: float = 60.0) -> str:
        """The screen once `text` shows `count` times (fails only if it never does within `limit` seconds)."""
        end = time.monotonic() + limit
        while time.monotonic() < end:
            screen = self.screen()
            if screen.count(text) >= count:
                return screen
            time.sleep(0.2)
        raise AssertionError(f"{text!r} did not appear {count}x; screen:\n{self.screen()}")

    def close(self) -> None:
        subprocess.run([*self.base, "kill-server"], capture_output=True)


@pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux (apt-get install -y tmux) to drive a terminal")
def test_chat_under_a_real_terminal_has_a_prompt_line_editing_and_history(tmp_path: Path) -> None:
    env = {k: os.environ[k] for k in ("XDG_CACHE_HOME", "XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME")}
    env |= {"PATH": os.environ["PATH"], "TERM": "xterm", "HOME": str(tmp_path)}
    command = [sys.executable, "-m", "react_engine", "chat", str(SYSLOG), "--planner", "rules", "--no-trace"]
    tmux = Tmux(tmp_path / "tmux.sock", command, env)
    try:
        tmux.wait_for("rows loaded")
        tmux.send("how many linex", "BSpace", "s?", "Enter")  # line editing: fix a typo before Enter
        tmux.wait_for("4,200 log lines")
        tmux.send("Up", "Enter")  # history: the same question again
        screen = tmux.wait_for("4,200 log lines", count=2)
        assert screen.count("? how many lines?") == 2 and "\\x1b" not in screen
        tmux.send("C-d")
        end = time.monotonic() + 30
        while time.monotonic() < end and not (Path(env["XDG_STATE_HOME"]) / "react-engine" / "chat_history").exists():
            time.sleep(0.2)
    finally:
        tmux.close()
    history = (Path(env["XDG_STATE_HOME"]) / "react-engine" / "chat_history").read_text()
    assert "how many lines?" in history


APP = ROOT / "sample_logs" / "app" / "app.jsonl"


def test_every_question_of_a_chat_replays_from_its_trace_follow_ups_on_the_earlier_answers(tmp_path: Path) -> None:
    traces = tmp_path / "traces"
    questions = "how many errors?\nhow many of those are from worker.email?\nhow many lines of those?\n"
    chat = CliRunner().invoke(main, ["chat", str(APP), "--planner", "rules", "--trace-dir", str(traces)],
                              input=questions)
    assert chat.exit_code == 0, chat.output
    files = sorted(traces.iterdir(), key=lambda p: p.stat().st_mtime_ns)
    assert len(files) == 3
    for number, path in enumerate(files):
        replayed = CliRunner().invoke(main, ["replay", str(path), "--json"])
        report = json.loads(replayed.stdout)
        assert replayed.exit_code == 0 and report["same_actions"] and report["same_answer"], replayed.output
        assert len(report["replayed"]["actions"]) >= 1 and len(report["replayed_first"]) == number
    frame = load([str(APP)])
    from_email = int(((frame["severity"] == "error") & (frame["component"] == "worker.email")).sum())
    assert json.loads(CliRunner().invoke(main, ["replay", str(files[1]), "--json"]).stdout)["replayed"]["value"] \
        == from_email


def test_a_follow_up_over_narrowed_rows_says_so_instead_of_all_lines() -> None:
    questions = "how many errors?\nhow many lines of those?\nhow many of those are from worker.email?\n"
    chat = CliRunner().invoke(main, ["chat", str(APP), "--planner", "rules", "--no-trace"], input=questions)
    answers = [line for line in chat.stdout.splitlines() if "log line" in line]
    assert "(all lines)" not in chat.stdout, chat.stdout
    assert answers[1].endswith("(of the previous answer's lines).")
    assert answers[2].endswith("(from worker.email; of the previous answer's lines).")
