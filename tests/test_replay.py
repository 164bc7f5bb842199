"""Replay: a traced run re-runs to the same actions and answer; a changed reply is reported (exit 1)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from counting_planner import CountingPlanner, reply

from react_engine.app.cli import main
from react_engine.app.replay import recorded_replies, replay
from react_engine.loop.engine import Engine
from react_engine.planners.script import ScriptPlanner
from react_engine.tracing import open_tracer, read_trace


@pytest.fixture
def log_file(tmp_path: Path) -> Path:
    path = tmp_path / "app.log"
    path.write_text("".join(f"2026-11-20T10:{m:02d}:00Z web{m % 3} app: {'ERROR timeout' if m % 4 == 0 else 'ok'}\n"
                            for m in range(40)), encoding="utf-8")
    return path


def _traced_run(tmp_path: Path, log_file: Path, planner=None) -> str:
    engine = Engine(planner or CountingPlanner(), tracer_factory=lambda: open_tracer(tmp_path / "traces"))
    result = engine.ask('how many "timeout" lines?', [log_file])
    assert result.stop_reason == "stop" and result.value == 10
    return result.trace_file


def test_a_traced_run_replays_to_the_same_actions_and_answer(tmp_path: Path, log_file: Path) -> None:
    path = _traced_run(tmp_path, log_file)
    report = replay(path)
    assert report.identical and report.first_difference is None
    assert [a.action for a in report.replayed.actions] == ["search_logs", "get_log_count"]
    assert report.replayed.value == 10 and report.recorded.answer == report.replayed.answer


def test_recorded_replies_are_the_planner_replies_in_order(tmp_path: Path, log_file: Path) -> None:
    replies = [reply("filter_by_field", field="host", value="web1"), reply("get_log_count"),
               reply("finalize_answer", answer="There are 13 lines.", value=13)]
    engine = Engine(ScriptPlanner(replies), tracer_factory=lambda: open_tracer(tmp_path))
    result = engine.ask("how many lines from web1?", [log_file])
    assert [r.content for r in recorded_replies(read_trace(result.trace_file))] == replies
    assert replay(result.trace_file).identical


def _tamper(path: str, span_name: str, old: str, new: str) -> None:
    """Replace `old` by `new` in the string attributes (and event attributes) of the spans called `span_name`."""
    document = json.loads(Path(path).read_text())
    changed = 0
    for span in document["resourceSpans"][0]["scopeSpans"][0]["spans"]:
        if span["name"] != span_name:
            continue
        for item in span["attributes"] + [a for e in span["events"] for a in e["attributes"]]:
            value = item["value"].get("stringValue", "")
            if old in value:
                item["value"]["stringValue"] = value.replace(old, new)
                changed += 1
    assert changed
    Path(path).write_text(json.dumps(document))


def test_a_different_reply_is_reported_with_the_first_difference(tmp_path: Path, log_file: Path) -> None:
    path = _traced_run(tmp_path, log_file)
    _tamper(path, "planner", '"timeout"', '"ERROR"')  # the first recorded reply
    report = replay(path)
    assert not report.same_actions and not report.identical
    assert report.first_difference.startswith("action 1:")


def test_cli_replay_exit_codes_and_trace_show(tmp_path: Path, log_file: Path) -> None:
    path = _traced_run(tmp_path, log_file)
    runner = CliRunner()
    same = runner.invoke(main, ["replay", path])
    assert same.exit_code == 0 and "same actions and answer" in same.output
    shown = runner.invoke(main, ["trace", "show", path])
    assert shown.exit_code == 0
    lines = shown.output.splitlines()
    assert any("search_logs" in line and "timeout" in line for line in lines)
    assert "answer: There are 10 lines." in shown.output and "stop: stop · 3 iterations" in shown.output
    as_json = json.loads(runner.invoke(main, ["trace", "show", "--json", path]).output)
    assert [r["action"] for r in as_json["rows"]] == ["search_logs", "get_log_count", "finalize_answer"]
    _tamper(path, "ask", "There are 10 lines.", "There are 11 lines.")  # the recorded answer
    changed = runner.invoke(main, ["replay", path])
    assert changed.exit_code == 1 and "DIFFERENT" in changed.output


def test_replay_of_a_missing_trace_is_a_one_line_error(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["replay", str(tmp_path / "nope.json")])
    assert result.exit_code == 1 and "nope.json" in result.output and "Traceback" not in result.output



def _tamper_root(trace_file: str, **values: dict) -> None:
    """Replace attributes of the root `ask` span with OTLP-typed `values`."""
    data = json.loads(Path(trace_file).read_text(encoding="utf-8"))
    for scope in data["resourceSpans"][0]["scopeSpans"]:
        for span in scope["spans"]:
            if span["name"] == "ask":
                for attribute in span["attributes"]:
                    if attribute["key"] in values:
                        attribute["value"] = values[attribute["key"]]
    Path(trace_file).write_text(json.dumps(data), encoding="utf-8")


@pytest.mark.parametrize(("key", "value"), [("max_iterations", {"stringValue": "abc"}),
                                            ("paths", {"stringValue": "/etc/passwd"})])
def test_tampered_recorded_settings_are_a_one_line_error(tmp_path: Path, log_file: Path, key: str,
                                                         value: dict) -> None:
    path = _traced_run(tmp_path, log_file)
    _tamper_root(path, **{key: value})
    result = CliRunner().invoke(main, ["replay", path])
    assert result.exit_code == 1 and key in result.output and "Traceback" not in result.output
    assert len(result.output.strip().splitlines()) == 1
