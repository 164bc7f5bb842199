"""Evaluation: suites, the three scores, reports, and regressions against a baseline (including a planted one)."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from counting_planner import CountingPlanner, reply
from hypothesis import given, settings
from hypothesis import strategies as st

from react_engine.app.cli import main
from react_engine.app.evaluation.report import build_report, load_report, save_report
from react_engine.app.evaluation.runner import replay_engines, run_suite
from react_engine.app.evaluation.scoring import ranking, same_value, score
from react_engine.app.evaluation.suite import Case, Expect, load_suite
from react_engine.contract.record import ActionStep, RunResult
from react_engine.errors import InputError
from react_engine.loop.engine import Engine
from react_engine.tools import REGISTRY, ToolResult
from react_engine.tools.results import Counted

ROOT = Path(__file__).resolve().parents[1]
WORDS = {"alpha": 3, "beta": 5, "gamma": 2}


def _result(value=None, answer="answer", stop_reason="stop", verified=True, steps=(), **kwargs) -> RunResult:
    return RunResult(query="q", answer=answer, value=value, stop_reason=stop_reason, verified=verified,
                     steps=list(steps), planner="test", **kwargs)


def _case(**expect) -> Case:
    return Case(id="c", question="q", logs=["x.log"], expect=Expect(**expect))


def _tool(action: str, ok: bool = True) -> ActionStep:
    return ActionStep(iteration=1, action=action, ok=ok, error=None if ok else "bad params")


# ---- scoring


@settings(max_examples=60, deadline=None)
@given(st.one_of(st.integers(), st.text(), st.lists(st.integers(), max_size=4)))
def test_a_value_equals_itself_and_numbers_compare_as_numbers(value) -> None:
    assert same_value(value, value)
    if isinstance(value, int):
        assert same_value(str(value), value) and same_value(float(value), value)
        assert not same_value(value + 1, value)


def test_tolerance_and_text_case() -> None:
    assert same_value(10.4, 10, tolerance=0.5) and not same_value(10.6, 10, tolerance=0.5)
    assert same_value("MAWED07T01", "mawed07t01") and not same_value("web01", "web02")
    assert same_value({"a": [1, 2]}, {"a": [1, 2]}) and not same_value({"a": 1}, {"b": 1})


@settings(max_examples=80, deadline=None)
@given(st.floats(1e-6, 1e12), st.sampled_from([1e-4, 1e-2]), st.floats(-0.99, 0.99))
def test_a_relative_tolerance_scales_with_the_expected_number(expected: float, rel: float, within: float) -> None:
    near = expected * (1 + within * rel)
    assert same_value(near, expected, rel_tolerance=rel)
    assert same_value({"t": [near]}, {"t": [expected]}, rel_tolerance=rel)
    assert not same_value(expected * (1 + 2 * rel), expected, rel_tolerance=rel)
    assert same_value(round(expected), expected, rel_tolerance=0.5 / expected + 1e-9) or expected < 1


def test_a_rounded_answer_passes_a_case_with_a_relative_tolerance() -> None:
    case = _case(value=0.2344543, rel_tolerance=1e-4)
    assert score(case, _result(0.234454)).passed and not score(case, _result(0.2346)).passed
    assert score(_case(value=1000, rel_tolerance=1e-4), _result(1000.05)).passed


def test_ranking_reads_the_usual_top_shapes() -> None:
    assert ranking([["a", 3], ["b", 2]]) == ranking([{"value": "a", "count": 3}, {"value": "b"}]) == ["a", "b"]
    assert ranking({"a": 3, "b": 2}) == ranking(["a", "b"]) == ["a", "b"]
    assert ranking("a") == ["a"] and ranking(None) == []


def test_a_correct_verified_value_with_the_right_tools_passes() -> None:
    scenario = score(_case(value=5, tools=["search_logs"]), _result(5, steps=[_tool("search_logs")]))
    assert scenario.passed and scenario.scores.correctness == 1.0 and scenario.scores.tool_usage == 1.0
    assert scenario.scores.error_handling is None and scenario.tools_called == ["search_logs"]


@pytest.mark.parametrize("result, failure", [
    (_result(6, steps=[_tool("search_logs")]), "value 6 != expected 5"),
    (_result(5, verified=False, steps=[_tool("search_logs")]), "not verified"),
    (_result(5, steps=[_tool("get_log_count")]), "expected tools not called: search_logs"),
    (_result(None, stop_reason="tool_limit", steps=[_tool("search_logs")]), "value None"),
])
def test_a_wrong_unverified_or_tool_less_answer_fails(result: RunResult, failure: str) -> None:
    scenario = score(_case(value=5, tools=["search_logs"]), result)
    assert not scenario.passed and any(failure in f for f in scenario.failures)


def test_recovered_tool_errors_lower_the_tool_score_only() -> None:
    steps = [_tool("search_logs", ok=False), _tool("search_logs")]
    scenario = score(_case(value=5, tools=["search_logs"]), _result(5, steps=steps))
    assert scenario.passed and scenario.scores.tool_usage == 0.75 and scenario.tool_errors == 1


def test_top_and_contains() -> None:
    case = _case(top=[["b", 5], ["a", 3]], contains=["Beta"])
    assert score(case, _result([["b", 5], ["a", 3], ["g", 2]], answer="beta leads")).passed
    assert not score(case, _result([["a", 3], ["b", 5]], answer="beta leads")).passed
    assert not score(case, _result([["b", 5], ["a", 3]], answer="alpha leads")).passed


def test_error_handling_for_expected_errors_and_no_data() -> None:
    error_case = _case(stop_reason="error", contains=["missing.log"])
    good = _result(answer="No answer: missing.log: no such file", stop_reason="error", verified=False)
    assert score(error_case, good).scores.error_handling == 1.0 and score(error_case, good).passed
    assert not score(error_case, _result(answer="3 errors", value=3)).passed
    empty = _case(no_data=True, value=0)
    assert score(empty, _result(0, answer="No lines match.", verified=False)).passed
    invented = score(empty, _result(4, answer="4 lines"))
    assert not invented.passed and invented.scores.error_handling == 0.0


# ---- suites


def test_the_bundled_suite_covers_every_kind_of_case_with_ground_truth() -> None:
    suite = load_suite(ROOT / "evals" / "sample_suite.yaml")
    assert len(suite.cases) >= 40
    truth = json.loads((ROOT / "sample_logs" / "ground_truth.json").read_text())
    assert suite.cases[0].expect.value == truth["sets"]["cmts"]["rows"]
    assert all(Path(p).exists() for c in suite.cases if not c.id.startswith("bad-") for p in c.logs)
    kinds = {
        "counts": [c for c in suite.cases if c.expect.checks_value and not c.expect.no_data],
        "top": [c for c in suite.cases if c.expect.top],
        "unique": [c for c in suite.cases if "unique" in c.id],
        "time windows": [c for c in suite.cases if "filter_by_time" in c.expect.tools],
        "no result": [c for c in suite.cases if c.expect.no_data],
        "bad input": [c for c in suite.cases if c.expect.stop_reason == "error"],
    }
    assert all(len(found) >= 2 for found in kinds.values()), {k: len(v) for k, v in kinds.items()}


@pytest.mark.parametrize("text, problem", [
    ("cases: [{id: a, question: q, set: cmts, expect: {value_from: sets.cmts.nope}}]", "no ground-truth key"),
    ("cases: [{id: a, question: q}]", "give `logs` or `set`"),
    ("cases: [{id: a, question: q, logs: [x], expect: {valeu: 1}}]", "valeu"),
    ("cases: [{id: a, question: q, logs: [x]}, {id: a, question: r, logs: [y]}]", "twice"),
])
def test_bad_suites_are_one_line_errors(tmp_path: Path, text: str, problem: str) -> None:
    path = tmp_path / "suite.yaml"
    path.write_text("ground_truth: truth.json\n" + text)
    (tmp_path / "truth.json").write_text('{"sets": {"cmts": {"paths": ["c.log"], "rows": 3}}}')
    with pytest.raises(InputError, match=problem):
        load_suite(path)


# ---- reports, baselines and a planted regression


@pytest.fixture
def suite_file(tmp_path: Path) -> Path:
    lines = [f"2026-11-20T10:00:{n:02d}Z host app: {word}" for word, count in WORDS.items() for n in range(count)]
    (tmp_path / "app.log").write_text("\n".join(lines) + "\n")
    cases = [{"id": word, "question": f'how many "{word}" lines?', "logs": ["app.log"],
              "expect": {"value": count, "tools": ["search_logs", "get_log_count"]}} for word, count in WORDS.items()]
    cases.append({"id": "missing", "question": "how many?", "logs": ["missing.log"],
                  "expect": {"stop_reason": "error", "contains": ["missing.log"]}})
    path = tmp_path / "suite.json"
    path.write_text(json.dumps({"name": "tiny", "cases": cases}))
    return path


def _baseline(suite_file: Path) -> Path:
    suite = load_suite(suite_file)
    report = build_report(suite.name, "counting", None, run_suite(suite, lambda case: Engine(CountingPlanner())))
    assert report.summary.pass_rate == 1.0 and report.summary.total_scenarios == 4
    path = suite_file.parent / "baseline.json"
    save_report(report, path)
    return path


def test_a_planted_tool_bug_shows_up_as_regressions_and_score_drops(suite_file: Path) -> None:
    baseline = load_report(_baseline(suite_file))
    real = REGISTRY["search_logs"]

    def loses_a_row_past_four(params, ctx) -> ToolResult:  # the planted bug
        result = real.run(params, ctx)
        if result.rows is None or len(result.rows) <= 4:
            return result
        return dataclasses.replace(result, rows=result.rows.iloc[1:], value=Counted(len(result.rows) - 1))

    tools = {**REGISTRY, "search_logs": dataclasses.replace(real, run=loses_a_row_past_four)}
    suite = load_suite(suite_file)
    scenarios = run_suite(suite, replay_engines(baseline, lambda planner: Engine(planner, tools=tools)))
    analysis = build_report(suite.name, "script", None, scenarios, baseline, "baseline.json").regression_analysis
    assert analysis.regressions == ["beta"] and analysis.improvements == [] and analysis.failed
    assert [d.dimension for d in analysis.score_drops] == ["correctness"]


def test_cli_replaying_the_baseline_reproduces_it_and_a_planted_reply_change_fails(suite_file: Path) -> None:
    baseline = _baseline(suite_file)
    runner = CliRunner()
    same = runner.invoke(main, ["eval", str(suite_file), "--replies", str(baseline), "--baseline", str(baseline),
                                "--no-trace"])
    assert same.exit_code == 0, same.output
    assert "4/4 passed (100.0%)" in same.output and "0 regressions" in same.output
    planted = json.loads(baseline.read_text())
    gamma = next(s for s in planted["scenarios"] if s["id"] == "gamma")
    gamma["replies"][-1] = reply("finalize_answer", answer="There are 7 lines.", value=7)
    tampered = suite_file.parent / "tampered.json"
    tampered.write_text(json.dumps(planted))
    report_file = suite_file.parent / "report.json"
    worse = runner.invoke(main, ["eval", str(suite_file), "--replies", str(tampered), "--baseline", str(baseline),
                                 "--report", str(report_file), "--no-trace"])
    assert worse.exit_code == 1 and "REGRESSION gamma" in worse.output
    report = json.loads(report_file.read_text())
    assert report["regression_analysis"]["regressions"] == ["gamma"]
    assert report["summary"]["pass_rate"] == 0.75 and report["summary"]["total_scenarios"] == 4
    assert set(report["summary"]["avg_scores"]) == {"correctness", "tool_usage", "error_handling"}
    assert {s["id"]: s["passed"] for s in report["scenarios"]} == {"alpha": True, "beta": True, "gamma": False,
                                                                 "missing": True}


def test_improvements_and_new_cases_are_reported_without_failing(suite_file: Path) -> None:
    baseline = load_report(_baseline(suite_file))
    worse = baseline.model_copy(deep=True)
    worse.scenarios[0].passed = False
    worse.scenarios = worse.scenarios[:-1]
    analysis = build_report("tiny", "counting", None, baseline.scenarios, worse).regression_analysis
    assert analysis.improvements == ["alpha"] and analysis.new_cases == ["missing"] and not analysis.failed


# ---- the bundled suite, as CI runs it: the rules planner, and the script planner replaying the baseline


@pytest.fixture(scope="module")
def bundled() -> tuple:
    suite = load_suite(ROOT / "evals" / "sample_suite.yaml")
    return suite, load_report(ROOT / "evals" / "baseline_rules.json")


def test_the_rules_planner_has_no_regressions_and_every_run_replays_from_its_trace(bundled, tmp_path,
                                                                                   sample_suite_frames) -> None:
    from react_engine.app.replay import replay
    from react_engine.planners.rules import RulesPlanner
    from react_engine.tracing import open_tracer, read_trace
    from react_engine.tracing.trace_timeline import timeline

    suite, baseline = bundled
    scenarios = run_suite(suite, lambda case: Engine(RulesPlanner(), tracer_factory=lambda: open_tracer(tmp_path)),
                          frames=sample_suite_frames)
    report = build_report(suite.name, "rules", None, scenarios, baseline, deterministic=True)
    assert report.summary.total_scenarios == len(suite.cases) >= 40
    analysis = report.regression_analysis
    assert not analysis.failed, (analysis.regressions, analysis.score_drops)
    for scenario in scenarios:
        view = timeline(read_trace(scenario.trace_file))
        assert (view.stop_reason, len(view.rows)) == (scenario.stop_reason, len(scenario.replies)), scenario.id
        replayed = replay(scenario.trace_file)
        assert replayed.identical, (scenario.id, replayed.first_difference)


def test_the_script_planner_replaying_the_baseline_reproduces_every_case(bundled, sample_suite_frames) -> None:
    suite, baseline = bundled
    scenarios = run_suite(suite, replay_engines(baseline, Engine), frames=sample_suite_frames)
    assert {s.id: (s.passed, s.value) for s in scenarios} == {s.id: (s.passed, s.value) for s in baseline.scenarios}
