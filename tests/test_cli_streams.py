"""Streams, exit codes and signals: results on stdout, everything else on stderr; 0/1/2/130; no tracebacks."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import click
import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from react_engine.app.cli import main
from react_engine.app.cli.terminal import safe, safe_json

ROOT = Path(__file__).resolve().parents[1]
SYSLOG = ROOT / "sample_logs" / "syslog" / "messages"
ESCAPES = "\x1b[2J\x1b]0;pwned\x07\x9b31m\x1bP+q\x1b\\\x7f"


@pytest.fixture(autouse=True)
def _isolated(cli_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with socket.socket() as s:  # a port nothing listens on: Ollama is "down"
        s.bind(("127.0.0.1", 0))
        monkeypatch.setenv("OLLAMA_HOST", f"127.0.0.1:{s.getsockname()[1]}")


def invoke(*args: str, **kwargs):
    return CliRunner().invoke(main, list(args), catch_exceptions=False, **kwargs)


def script(tmp_path: Path, *replies: dict) -> str:
    path = tmp_path / "replies.json"
    path.write_text(json.dumps([json.dumps(r) for r in replies]))
    return f"script:{path}"


def test_a_runtime_error_goes_to_stderr_and_leaves_stdout_empty(tmp_path: Path) -> None:
    result = invoke("ask", "how many errors?", str(tmp_path / "missing.log"), "--planner", "rules", "--no-trace")
    assert result.exit_code == 1
    assert result.stdout == ""
    errors = [line for line in result.stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 1 and "missing.log" in errors[0]


def test_with_json_the_object_stays_on_stdout_and_a_one_line_error_goes_to_stderr(tmp_path: Path) -> None:
    result = invoke("ask", "how many errors?", str(tmp_path / "missing.log"), "--planner", "rules", "--no-trace",
                    "--json")
    assert result.exit_code == 1
    assert json.loads(result.stdout)["stop_reason"] == "error"
    assert len(result.stderr.strip().splitlines()) == 1 and result.stderr.startswith("error:")


@pytest.mark.parametrize("args, problem", [
    (["--now", "yesterday-ish"], "--now"),
    (["--format", "nosuchformat"], "--format"),
    (["--output", "xml"], "--output"),
])
def test_bad_option_values_are_usage_errors(args: list[str], problem: str) -> None:
    result = invoke("ask", "how many errors?", str(SYSLOG), "--planner", "rules", "--no-trace", *args)
    assert result.exit_code == 2, result.output
    assert problem in result.stderr and "Traceback" not in result.stderr and result.stdout == ""


@pytest.mark.parametrize("question", ["", "   "])
def test_an_empty_question_is_a_usage_error(question: str) -> None:
    result = invoke("ask", question, str(SYSLOG), "--planner", "rules", "--no-trace")
    assert result.exit_code == 2 and "question is empty" in result.stderr


def test_quiet_drops_the_notices_but_keeps_the_answer() -> None:
    loud = invoke("ask", "How many lines are there?", str(SYSLOG), "--no-trace")
    quiet = invoke("ask", "How many lines are there?", str(SYSLOG), "--no-trace", "-q")
    assert "rules planner" in loud.stderr and "rules planner" not in quiet.stderr
    assert quiet.stderr == "" and quiet.stdout == loud.stdout and quiet.exit_code == loud.exit_code == 0
    assert invoke("-q", "ask", "How many lines are there?", str(SYSLOG), "--no-trace").stderr == ""


def _commands(group: click.Group, prefix: tuple[str, ...] = ()):
    ctx = click.Context(group, **group.context_settings)
    for name in group.list_commands(ctx):
        command = group.get_command(ctx, name)
        assert command is not None
        yield (*prefix, name), command
        if isinstance(command, click.Group):
            yield from _commands(command, (*prefix, name))


@pytest.mark.parametrize("path", [p for p, _ in _commands(main)], ids=" ".join)
def test_every_command_takes_dash_h_and_its_help_has_an_example(path: tuple[str, ...]) -> None:
    short, long = invoke(*path, "-h"), invoke(*path, "--help")
    assert short.exit_code == 0 and short.stdout == long.stdout
    assert "Example" in short.stdout and "react-engine " in short.stdout.split("Example", 1)[1]


def test_the_top_level_help_has_an_example() -> None:
    assert "Example" in invoke("-h").stdout


def test_escape_sequences_in_logs_and_answers_never_reach_the_terminal(tmp_path: Path) -> None:
    log = tmp_path / "evil.log"
    log.write_text(f"2026-11-20T10:00:00Z host app: ERROR login failed {ESCAPES}\n"
                   "2026-11-20T10:00:01Z host app: INFO fine\n")
    planner = script(tmp_path, {"action": "search_logs", "params": {"value": "login failed"}},
                     {"action": "get_log_count", "params": {}},
                     {"action": "finalize_answer", "params": {"answer": f"1 line {ESCAPES}", "value": 1}})
    for output in ("text", "json", "csv", "table"):
        result = invoke("ask", "how many failed logins?", str(log), "--planner", planner, "--output", output,
                        "--trace-dir", str(tmp_path / "t"))
        printed = result.stdout + result.stderr
        assert "\x1b" not in printed and "\x9b" not in printed and "\x07" not in printed, output
        assert result.exit_code == 0
    assert "\\x1b[2J" in invoke("ask", "q", str(log), "--planner", planner, "--no-trace").stdout  # shown, inert
    trace = next((tmp_path / "t").glob("*.json"))
    for args in ([], ["--json"]):
        shown = invoke("trace", "show", str(trace), *args).stdout
        assert "\x1b" not in shown and "\x9b" not in shown and "\x07" not in shown


def test_an_error_naming_a_hostile_path_is_inert(tmp_path: Path) -> None:
    result = invoke("inspect", str(tmp_path / "\x1b]0;pwned\x07.log"))
    assert result.exit_code == 1 and "\\x1b]0;pwned\\x07.log" in result.stderr
    assert "\x1b" not in result.stderr and "\x07" not in result.stderr


def test_safe_keeps_text_and_safe_json_keeps_the_value() -> None:
    assert safe("a\tb\nc ✓ é") == "a\tb\nc ✓ é"
    assert safe("\x1b[2J\x9b\x00") == "\\x1b[2J\\x9b\\x00"
    text = json.dumps({"answer": "x\x9by\x1b\x7f"}, ensure_ascii=False)
    assert json.loads(safe_json(text)) == {"answer": "x\x9by\x1b\x7f"}
    assert safe(safe_json(text)) == safe_json(text)  # nothing left for the terminal to act on


def _cli(*args: str, **kwargs) -> subprocess.Popen:
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    return subprocess.Popen([sys.executable, "-m", "react_engine", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env, **kwargs)


# From the first lines of `react_engine.__main__` on (heavy imports, planner probe, loading, the run), Ctrl-C
# gives 130 and one line. Only the interpreter's own start-up before that (site, ~50 ms) is out of our hands.
@pytest.mark.parametrize("delay", [0.5, 1.0, 1.5, 2.5])
def test_ctrl_c_during_start_up_exits_130_without_a_traceback(tmp_path: Path, delay: float) -> None:
    process = _cli("ask", "how many errors?", str(SYSLOG), "--planner", "rules", "--no-trace")
    time.sleep(delay)
    process.send_signal(signal.SIGINT)
    stdout, stderr = process.communicate(timeout=60)
    assert "Traceback" not in stderr and "KeyboardInterrupt" not in stderr
    # -SIGINT: killed before the interpreter installed any handler, which a shell reports as 130 too;
    # 0: the answer was already printed before the signal arrived
    assert process.returncode in (130, -signal.SIGINT, 0)
    if process.returncode != 0:  # nothing printed, or (signal during exit) the whole answer and its mark
        assert stdout == "" or "verified" in stdout.splitlines()[-1], stdout


def _before_our_code(stderr: str) -> bool:
    """Whether a traceback in `stderr` ended in Python's own start-up, before react-engine's code installed its
    Ctrl-C handler (the first statements of `react_engine.__main__`)."""
    source = (ROOT / "react_engine" / "__main__.py").read_text().splitlines()
    handler = next(n for n, line in enumerate(source, 1) if line.startswith("signal.signal(signal.SIGINT"))
    frames = re.findall(r'File "([^"]+)", line (\d+)', stderr)
    ours = [(path, int(line)) for path, line in frames if f"react_engine{os.sep}" in path]
    return bool(frames) and all(path.endswith("__init__.py") or (path.endswith("__main__.py") and line <= handler)
                                for path, line in ours)


def _started(tmp_path: Path, *args: str) -> subprocess.Popen:
    """The CLI, returned once the interpreter's own start-up (`site`, out of our hands) is done: a
    `sitecustomize` first on the path writes a byte to a pipe when `site` has run, just before the CLI's code."""
    (tmp_path / "sitecustomize.py").write_text(
        "import os\nos.write(int(os.environ['STARTED_FD']), b'!')\n")
    reader, writer = os.pipe()
    env = {**os.environ, "PYTHONPATH": str(tmp_path), "STARTED_FD": str(writer), "PYTHONUNBUFFERED": "1"}
    process = subprocess.Popen([sys.executable, "-m", "react_engine", *args], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, env=env, pass_fds=(writer,))
    os.close(writer)
    assert os.read(reader, 1) == b"!"
    os.close(reader)
    return process


# From the first line of react-engine's own code on, Ctrl-C at any moment gives 130 (or, once the answer is out,
# 0) and one line, even with the machine busy: the interpreter's own start-up is waited out (see `_started`).
@pytest.mark.parametrize("delay", [0.0, 0.02, 0.05, 0.1, 0.2, 0.3, 0.5, 0.8, 1.2])
def test_ctrl_c_at_any_moment_under_load_exits_130_without_a_traceback(tmp_path: Path, delay: float,
                                                                         busy_core) -> None:
    process = _started(tmp_path, "ask", "how many errors?", str(SYSLOG), "--planner", "rules", "--no-trace")
    time.sleep(delay)
    process.send_signal(signal.SIGINT)
    stdout, stderr = process.communicate(timeout=120)
    if _before_our_code(stderr):  # the signal beat react-engine's first line: Python's own start-up, rare
        return
    assert "Traceback" not in stderr and "KeyboardInterrupt" not in stderr, stderr
    assert process.returncode in (130, 0), stderr
    if process.returncode == 130:  # "interrupted" alone, or the run's own interrupted result
        assert "interrupted" in stderr and (stdout == "" or "verified" in stdout), (stdout, stderr)


def test_ctrl_c_while_reading_logs_exits_130_without_a_traceback(tmp_path: Path) -> None:
    reader, writer = os.pipe()  # stdin that never ends: the run waits on it
    process = _cli("ask", "how many errors?", "-", "--planner", "rules", "--no-trace", stdin=reader)
    os.write(writer, b"2026-11-20T10:00:00Z host app: ERROR one\n")
    time.sleep(3)  # start-up done: the loader is blocked on stdin
    process.send_signal(signal.SIGINT)
    stdout, stderr = process.communicate(timeout=60)
    os.close(reader)
    os.close(writer)
    assert process.returncode == 130, stderr
    assert "Traceback" not in stderr and stdout == ""


@given(text=st.text())
def test_nothing_safe_prints_can_act_on_a_terminal(text: str) -> None:
    shown = safe(text)
    assert not re.search(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]", shown)
    assert shown.replace("\\x", "") == re.sub(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]", lambda m: f"{ord(m.group()):02x}",
                                              text.replace("\\x", ""))  # each control character, shown in place


@given(text=st.text())
def test_safe_json_is_the_same_json_value_and_inert(text: str) -> None:
    encoded = safe_json(json.dumps({"answer": text}, ensure_ascii=False))
    assert json.loads(encoded) == {"answer": text} and safe(encoded) == encoded


@pytest.mark.parametrize(("raised", "code"), [("KeyboardInterrupt", 130), ("ValueError('kept')", 0)])
def test_ctrl_c_where_python_cannot_raise_still_ends_the_run(raised: str, code: int) -> None:
    # a finalizer stands for native code (pydantic-core building a validator) that can only report the exception
    probe = ("import react_engine.app.cli as cli\n"
             "class Finalized:\n"
             f"    def __del__(self): raise {raised}\n"
             "def command(**_): Finalized(); print('went on')\n"
             "cli.main = command\n"
             "from react_engine.__main__ import main\nmain()")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60)
    assert done.returncode == code, done.stderr
    if code:
        assert "Traceback" not in done.stderr and "interrupted" in done.stderr and done.stdout == ""
    else:  # any other error is reported as Python does, and the run goes on
        assert "Exception ignored" in done.stderr and "kept" in done.stderr and done.stdout == "went on\n"


def test_ctrl_c_raised_as_another_error_exits_130_without_a_traceback() -> None:
    code = ("import react_engine.app.cli as c, react_engine.__main__ as m\n"
            "def boom(**_):\n"
            "    try:\n        raise KeyboardInterrupt\n"
            "    except KeyboardInterrupt as e:\n        raise RuntimeError('Error calling __set_name__') from e\n"
            "c.main = boom\nm.main()\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 130 and "Traceback" not in done.stderr and "interrupted" in done.stderr


def test_the_timeout_bounds_reading_stdin_that_sends_a_line_then_nothing() -> None:
    reader, writer = os.pipe()  # the writer stays open: stdin never ends
    process = _cli("ask", "how many lines?", "-", "--planner", "rules", "--no-trace", "--timeout", "3", stdin=reader)
    os.write(writer, b"2026-11-20T10:00:00Z host app: ERROR one\n")
    try:
        stdout, stderr = process.communicate(timeout=60)  # ends with stdin still open
    finally:
        os.close(reader)
        os.close(writer)
    assert process.returncode == 1 and stdout == "" and "Traceback" not in stderr
    assert stderr.splitlines() == [stderr.strip()] and "time limit" in stderr and "--timeout" in stderr


@pytest.mark.parametrize(("limit", "said"), [(["--timeout", "4"], "time limit passed"),
                                             (["--max-input-size", "2M"], "larger than the input size limit")])
def test_endless_stdin_ends_at_the_run_limit_without_draining_it(limit: list[str], said: str) -> None:
    process = _cli("ask", "how many lines?", "-", "--planner", "rules", "--no-trace", *limit, stdin=subprocess.PIPE)
    assert process.stdin is not None
    line = "2026-11-20T10:00:00Z host app: ERROR one\n" * 1000
    written = 0
    try:
        while process.poll() is None and written < (8 << 30):
            process.stdin.write(line)
            written += len(line)
    except (BrokenPipeError, OSError):
        pass
    stdout, stderr = process.communicate(timeout=60)
    assert stdout == ""
    assert process.returncode == 1 and said in stderr and "Traceback" not in stderr, stderr
    assert written < (8 << 30)  # the run ended, and stopped reading, before all of it was sent


def test_a_missing_file_prints_one_error_line_and_no_planner_notice_or_footer(tmp_path: Path) -> None:
    result = invoke("ask", "how many errors?", str(tmp_path / "missing.log"), "--no-trace")  # auto, Ollama down
    assert result.exit_code == 1 and result.stdout == ""
    assert result.stderr.splitlines() == [f"error: {tmp_path / 'missing.log'}: no such file or directory; check the path"]
    answered = invoke("ask", "how many lines?", str(SYSLOG), "--no-trace")  # a run that loads: notice and footer
    assert "using the built-in rules planner" in answered.stderr and "— stop ·" in answered.stderr


def test_nothing_is_imported_before_the_entry_point_catches_ctrl_c() -> None:
    # every import before `react_engine.__main__` installs its handler is a moment a Ctrl-C prints a traceback
    # (typing, imported by the package for its annotations, took long enough on a loaded machine)
    probe = ("import sys\nbefore = set(sys.modules)\nimport react_engine\n"
             "print(sorted(set(sys.modules) - before))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert done.stdout.strip() == "['react_engine']", done.stdout + done.stderr
    source = (ROOT / "react_engine" / "__main__.py").read_text()
    first_import = re.search(r"^import (\w+)", source, re.M)
    assert first_import is not None and first_import.group(1) in ("os", "signal")
    assert source.index("signal.signal(signal.SIGINT") < source.index("import atexit")
