"""The loop's contract, driven by scripted replies over a small synthetic log."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
import threading
import time

import pandas as pd
import pytest

from react_engine import Engine, Settings
from react_engine.contract.planner import Planner, PlannerReply, PlanRequest
from react_engine.errors import PlannerConnectionError
from react_engine.loop.approval import Approver
from react_engine.loop.stops import explain
from react_engine.planners.script import ScriptPlanner
from react_engine.tools import REGISTRY, Params, Tool, ToolResult
from react_engine.tools.results import Counted


def a(action: str, **params) -> str:
    return json.dumps({"reasoning": "r", "action": action, "params": params})


def final(answer: str, value=None) -> str:
    return a("finalize_answer", answer=answer, value=value)


@pytest.fixture
def frame() -> pd.DataFrame:
    n = 60
    hosts = ["MAWED07T01", "MAWED07T02", "NYBRK03T01"]
    sev = ["info", "error", "warning"]
    return pd.DataFrame({
        "timestamp": pd.date_range("2026-11-20T10:00", periods=n, freq="min", tz="UTC"),
        "severity": [sev[i % 3] for i in range(n)],
        "level_raw": [sev[i % 3].upper() for i in range(n)],
        "host": [hosts[i % 3] for i in range(n)],
        "component": ["CMTS"] * n,
        "pid": [None] * n,
        "message": [("T3 time-out" if i % 4 == 0 else "ok") + f" #{i}" for i in range(n)],
        "source": ["cmts.log"] * n,
        "line": list(range(1, n + 1)),
        "raw": [f"line {i} " + ("T3 time-out" if i % 4 == 0 else "ok") for i in range(n)],
    })


def run(frame, replies, settings=None, **kw):
    planner = ScriptPlanner(replies)
    result = Engine(planner, settings or Settings(), **kw).ask("How many T3 timeouts?", frame=frame)
    return result, planner


def test_answer_is_computed_verified_and_cited(frame) -> None:
    expected = int(frame["raw"].str.contains("T3 time-out").sum())
    result, _ = run(frame, [a("search_logs", value="t3 time-out"), final(f"There were {expected} T3 timeouts.",
                                                                          expected)])
    assert result.stop_reason == "stop" and result.answered
    assert result.value == expected and result.verified
    assert result.evidence and all("T3 time-out" in e.text for e in result.evidence)
    assert [s.action for s in result.steps] == ["search_logs", "finalize_answer"]
    assert result.steps[0].rows_out == expected
    assert result.statistics.tool_calls == 1 and result.statistics.iterations == 2
    assert result.now == frame["timestamp"].max().isoformat()


def test_invented_number_is_not_verified(frame) -> None:
    result, _ = run(frame, [a("search_logs", value="T3"), final("There were 999 T3 timeouts.", 999)])
    assert result.stop_reason == "stop" and not result.verified
    assert any("999" in w for w in result.warnings)


def test_one_bad_reply_causes_exactly_one_reask(frame) -> None:
    result, planner = run(frame, ["not json at all", a("search_logs", value="T3"), final("done", None)])
    assert len(planner.requests) == 3
    assert "not a valid action" in (planner.requests[1].view.feedback or "")
    assert planner.requests[2].view.feedback is None
    assert [s.kind for s in result.steps] == ["invalid_reply", "tool", "final"]


def test_consecutive_invalid_replies_stop_with_error(frame) -> None:
    result, planner = run(frame, ["{", "nope", "still nope", "never reached"])
    assert result.stop_reason == "error" and "max_json_parse_retries=3" in result.message
    assert len(planner.requests) == 3


def test_unknown_tool_is_told_the_valid_names(frame) -> None:
    _, planner = run(frame, [a("run_python", code="import os"), final("x")])
    assert "search_logs" in planner.requests[1].view.feedback


def test_invalid_params_come_back_as_loc_msg_items(frame) -> None:
    _, planner = run(frame, [a("search_logs", valu="T3"), final("x")])
    assert "{loc: valu" in planner.requests[1].view.feedback


def test_intent_without_action_gets_a_nudge(frame) -> None:
    result, planner = run(frame, ["I'll search the logs for T3 timeouts.", a("search_logs", value="T3"),
                                  final("found them", None)])
    assert "do it now" in planner.requests[1].view.feedback
    assert result.steps[0].kind == "nudge"


def test_repeated_call_is_not_rerun_and_third_repeat_stops(frame) -> None:
    call = a("search_logs", value="T3")
    result, planner = run(frame, [call, call, call, call, final("x")])
    kinds = [s.kind for s in result.steps]
    assert kinds == ["tool", "repeat", "repeat", "repeat"]
    assert result.stop_reason == "tool_limit" and result.partial
    assert result.statistics.tool_calls == 1
    assert "already ran search_logs" in planner.requests[2].view.feedback


def test_same_call_on_other_rows_is_not_a_repeat(frame) -> None:
    result, _ = run(frame, [a("search_logs", value="T3"), a("reset_filters"), a("search_logs", value="T3"),
                            final("x")])
    assert [s.kind for s in result.steps] == ["tool", "tool", "tool", "final"]


def test_max_iterations_gives_partial_unverified_fallback(frame) -> None:
    replies = [a("search_logs", value=v) for v in ("T3", "time", "out", "#")]
    result, _ = run(frame, replies, Settings(max_iterations=3))
    assert result.stop_reason == "tool_limit" and result.partial and not result.verified
    assert "max_iterations (3)" in result.message
    assert result.value == result.steps[-1].value


def test_empty_result_suggests_alternatives_and_widening(frame) -> None:
    _, planner = run(frame, [a("filter_by_time", start="now-1s", end="now-1s"), final("x", 1)])
    hint = planner.requests[1].view.feedback
    assert "0 rows" in hint and "now-4s" in hint and "reset_filters" in hint


def test_giving_up_after_one_approach_is_nudged_then_accepted(frame) -> None:
    nothing = final("No matching logs were found.")
    result, planner = run(frame, [a("search_logs", value="zzz"), nothing, nothing, nothing, nothing],
                          Settings(max_retry_attempts=3))
    assert [s.kind for s in result.steps] == ["tool", "nudge", "nudge", "nudge", "final"]
    assert "trying only" in planner.requests[2].view.feedback
    assert result.stop_reason == "stop"


def test_side_effect_is_denied_without_approval(frame, tmp_path) -> None:
    target = tmp_path / "out.csv"
    call = a("export_results", path=str(target), format="csv")
    result, planner = run(frame, [call, call], output_dir=tmp_path)
    assert not target.exists()
    assert result.stop_reason == "approval_denied"
    assert "denied" in planner.requests[1].view.feedback


def test_side_effect_runs_when_approved(frame, tmp_path) -> None:
    result, _ = run(frame, [a("search_logs", value="T3"), a("export_results", path="out.csv", format="csv"),
                            final("exported")], output_dir=tmp_path, approver=Approver(pre_approved=["export_results"]))
    assert (tmp_path / "out.csv").exists()
    assert result.stop_reason == "stop"


class _Slow(Params):
    seconds: float = 5.0


class _Boom(Params):
    n: int = 0


def _slow_tools(calls: list[float]) -> dict[str, Tool]:
    def slow(params: _Slow, ctx) -> ToolResult:
        calls.append(params.seconds)
        time.sleep(params.seconds)
        return ToolResult(value=Counted(1), summary="slow done")

    def boom(params: _Boom, ctx) -> ToolResult:
        raise RuntimeError("kaput")

    return {**REGISTRY, "slow": Tool("slow", "sleeps", _Slow, slow, Counted), "boom": Tool("boom", "fails", _Boom, boom, Counted)}


def _stuck_tools(release: threading.Event, timeout: float | None = None) -> dict[str, Tool]:
    def stuck(params: _Boom, ctx) -> ToolResult:
        release.wait()
        return ToolResult(value=Counted(1), summary="done")

    return {**REGISTRY, "stuck": Tool("stuck", "blocks", _Boom, stuck, Counted, timeout=timeout)}


def test_a_tool_past_its_timeout_is_abandoned_on_a_daemon_thread_and_reported(frame) -> None:
    release = threading.Event()
    try:
        result, planner = run(frame, [a("stuck"), final("gave up")], Settings(tool_timeout_seconds=0.2),
                              tools=_stuck_tools(release))
        workers = [t for t in threading.enumerate() if t.name.startswith("tool-stuck")]
        assert workers and all(t.daemon for t in workers)  # the interpreter does not wait for them at exit
    finally:
        release.set()
    assert not result.steps[0].ok and "abandoned" in result.steps[0].error
    assert "stuck failed" in planner.requests[1].view.feedback
    assert any("stuck" in w and "abandoned" in w for w in result.warnings)


def test_a_tool_carries_its_own_tighter_timeout(frame) -> None:
    release = threading.Event()
    try:
        result, _ = run(frame, [a("stuck"), final("gave up")], Settings(tool_timeout_seconds=600),
                        tools=_stuck_tools(release, timeout=0.1))
    finally:
        release.set()
    assert "took longer than 0.1s" in result.steps[0].error


def test_the_process_exits_while_an_abandoned_tool_still_runs(tmp_path) -> None:
    script = tmp_path / "stuck.py"
    script.write_text(textwrap.dedent("""
        import json, threading
        import pandas as pd
        from react_engine import Engine, Settings
        from react_engine.planners.script import ScriptPlanner
        from react_engine.tools import REGISTRY, Params, Tool, ToolResult
        from react_engine.tools.results import Counted

        class Nothing(Params):
            pass

        def stuck(params, ctx):
            threading.Event().wait()  # never set
            return ToolResult(value=Counted(1), summary="done")

        replies = [json.dumps({"action": "stuck", "params": {}}),
                   json.dumps({"action": "finalize_answer", "params": {"answer": "gave up"}})]
        frame = pd.DataFrame({"message": ["a"], "raw": ["a"], "source": ["x.log"], "line": [1]})
        engine = Engine(ScriptPlanner(replies), Settings(tool_timeout_seconds=0.2),
                        tools={**REGISTRY, "stuck": Tool("stuck", "blocks", Nothing, stuck, Counted)})
        print(engine.ask("q", frame=frame).answer)
    """))
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and "gave up" in done.stdout, done.stderr


def test_a_failing_tool_is_disabled_after_three_failures(frame) -> None:
    replies = [a("boom", n=1), a("boom", n=2), a("get_log_count"), a("boom", n=3), a("boom", n=4), final("x")]
    result, planner = run(frame, replies, tools=_slow_tools([]))
    failures = [s for s in result.steps if s.action == "boom" and s.kind == "tool"]
    assert len(failures) == 3 and all(not s.ok and "kaput" in s.error for s in failures)
    assert "no longer available" in planner.requests[4].view.feedback
    assert "- boom(" not in planner.requests[4].prompt
    assert [s.kind for s in result.steps][-2:] == ["invalid_reply", "final"]



def test_whole_run_timeout_stops_with_time_limit(frame) -> None:
    result, _ = run(frame, [a("slow", seconds=0.4), a("slow", seconds=0.5), final("x")],
                    Settings(timeout_seconds=0.3), tools=_slow_tools([]))
    assert result.stop_reason == "time_limit"


class _Interrupting(Planner):
    name = "interrupting"

    def plan(self, request: PlanRequest) -> PlannerReply:
        if request.view.iteration == 2:
            raise KeyboardInterrupt
        return PlannerReply(content=a("search_logs", value="T3"))


def test_ctrl_c_stops_with_interrupted_and_keeps_what_is_known(frame) -> None:
    result = Engine(_Interrupting()).ask("q", frame=frame)
    assert result.stop_reason == "interrupted"
    assert result.steps[0].action == "search_logs" and result.partial


class _Down(Planner):
    name = "down"

    def plan(self, request: PlanRequest) -> PlannerReply:
        raise PlannerConnectionError("Ollama is not reachable at http://127.0.0.1:9: start it with `ollama serve`")


def test_planner_transport_error_stops_with_error_type(frame) -> None:
    result = Engine(_Down()).ask("q", frame=frame)
    assert result.stop_reason == "error" and result.error_type == "PlannerConnectionError"
    assert "ollama serve" in result.message
    assert [(s.kind, s.ok) for s in result.steps] == [("stopped", False)]


def test_missing_log_path_is_an_error_result(tmp_path) -> None:
    result = Engine(ScriptPlanner([])).ask("q", [str(tmp_path / "nope.log")])
    assert result.stop_reason == "error" and "nope.log" in result.message


def test_now_override_is_used_as_anchor(frame) -> None:
    planner = ScriptPlanner([a("filter_by_time", start="now-1h", end="now"), final("x")])
    result = Engine(planner).ask("q", frame=frame, now="2026-11-20T10:30:00")
    assert result.now == "2026-11-20T10:30:00+00:00"
    assert result.steps[0].rows_out == 31


def test_prompt_tokens_recorded_on_every_step(frame) -> None:
    result, _ = run(frame, [a("search_logs", value="T3"), a("get_log_count"), final("x")])
    assert all(0 < s.prompt_tokens <= 1000 for s in result.steps)
    assert result.statistics.prompt_tokens_max == max(s.prompt_tokens for s in result.steps)


class _Deterministic(ScriptPlanner):
    deterministic = True


def test_a_deterministic_planner_is_not_nudged_to_retry(frame) -> None:
    nothing = final("No matching logs were found.")
    result = Engine(_Deterministic([a("search_logs", value="zzz"), nothing])).ask("q", frame=frame)
    assert [s.kind for s in result.steps] == ["tool", "final"] and result.stop_reason == "stop"


def test_an_answer_with_nothing_computed_says_why_it_is_unverified(frame) -> None:
    result, _ = run(frame, [final("I cannot tell from these logs.")])
    assert result.stop_reason == "stop" and not result.verified and not result.answered
    assert any("no tool computed" in w for w in result.warnings)


def test_a_zero_from_the_level_column_carries_what_the_lines_say(frame) -> None:
    frame["severity"], frame["level_raw"] = "info", "Info"
    frame["raw"] = [f"{i} Info Warning: retry" if i % 5 == 0 else f"{i} Info ok" for i in range(len(frame))]
    written = sum("Warning" in line for line in frame["raw"])
    result, planner = run(frame, [a("filter_by_severity", levels=["warning"]), final("There are 0 warnings.", 0)],
                          Settings(auto_retry_enabled=False))
    assert f"{written} lines contain the word 'warning'" in result.answer and result.answer.startswith("There are 0")
    assert f"{written} lines" in planner.requests[-1].prompt  # the planner was told too


def test_the_note_is_not_repeated_when_the_answer_already_gives_its_count(frame) -> None:
    frame["severity"], frame["level_raw"] = "info", "Info"
    frame["raw"] = [f"{i} Info Warning: retry" if i % 5 == 0 else f"{i} Info ok" for i in range(len(frame))]
    written = sum("Warning" in line for line in frame["raw"])
    result, _ = run(frame, [a("filter_by_severity", levels=["warning"]), a("reset_filters"), a("search_logs", value="warning"),
                            final(f"{written} lines carry a warning.", written)])
    assert result.answer == f"{written} lines carry a warning." and result.verified


def test_approval_to_export_is_not_approval_to_overwrite(tmp_path) -> None:
    log = tmp_path / "cmts.log"
    log.write_text("".join(f"2026-11-20T10:{i:02d}:00Z host1 CMTS: T3 time-out #{i}\n" for i in range(12)))
    (tmp_path / "old.csv").write_text("precious")
    replies = [a("export_results", path="old.csv"), a("export_results", path="cmts.log"), final("exported")]
    result = Engine(ScriptPlanner(replies), output_dir=tmp_path,
                    approver=Approver(pre_approved=["export_results"])).ask("export", [str(log)])
    assert "already exists" in result.steps[0].error and "--overwrite" in result.steps[0].error
    assert (tmp_path / "old.csv").read_text() == "precious" and log.read_text().startswith("2026-11-20T10:00")
    replies = [a("export_results", path="cmts.log"), a("export_results", path="old.csv"), final("exported")]
    result = Engine(ScriptPlanner(replies), output_dir=tmp_path,
                    approver=Approver(pre_approved=["export_results"], overwrite=True)).ask("export", [str(log)])
    assert "one of the loaded logs" in result.steps[0].error and log.read_text().startswith("2026-11-20T10:00")
    assert result.steps[1].ok and (tmp_path / "old.csv").read_text() != "precious"


def test_a_question_over_the_limit_is_refused_before_anything_runs(frame) -> None:
    planner = ScriptPlanner([final("x")])
    result = Engine(planner, Settings(max_question_chars=500)).ask("why? " * 200, frame=frame)
    assert result.stop_reason == "error" and "max_question_chars" in result.message and not planner.requests


def test_an_answer_over_the_limit_is_cut_and_said_so(frame) -> None:
    result, _ = run(frame, [a("get_log_count"), final(f"{len(frame)} lines. " + "blah " * 2_000, len(frame))],
                    Settings(max_answer_chars=300))
    assert len(result.answer) <= 300 and result.answer.startswith(f"{len(frame)} lines.")
    assert any("max_answer_chars" in w for w in result.warnings) and result.verified


def test_a_quoted_final_answer_is_not_taken_and_a_contradicting_answer_is_not_verified(frame) -> None:
    quoted = ('Log says {"action":"finalize_answer","params":{"answer":"No T3 timeouts."}} - ignoring that. '
              + a("get_log_count"))
    result, _ = run(frame, [a("search_logs", value="T3 time-out"), quoted, final("No T3 timeouts.")],
                    Settings(auto_retry_enabled=False))
    assert [s.action for s in result.steps] == ["search_logs", "get_log_count", "finalize_answer"]
    assert result.steps[1].ignored_actions == ["finalize_answer"]
    assert any("ignored" in w and "finalize_answer" in w for w in result.warnings)
    assert not result.verified and any("unverified" in w and "get_log_count" in w for w in result.warnings)


def test_a_repeated_call_stop_is_explained_as_a_repeat_not_as_the_iteration_limit(frame) -> None:
    call = a("search_logs", value="T3")
    result, _ = run(frame, [call, call, call, call, final("x")], Settings(max_iterations=10))
    hint = explain(result)
    assert "repeated the same call" in hint and "max_iterations (4)" not in hint
    result, _ = run(frame, [a("get_log_count"), a("search_logs", value="T3"), final("x")], Settings(max_iterations=2))
    assert "max_iterations (2)" in explain(result)
