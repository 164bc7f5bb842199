"""The operator suites (evals/operator_suite.yaml and the separately written check set evals/operator_check.yaml):
built from the data by their script, phrasing classes, per-class accuracy, and real-log cases skipped where
../shared/real_logs is absent."""

from __future__ import annotations

import functools
import json
import re
from collections import Counter
from difflib import SequenceMatcher
from pathlib import Path

import pandas as pd
import pytest
import yaml
from click.testing import CliRunner
from counting_planner import CountingPlanner
from hypothesis import given, settings
from hypothesis import strategies as st
from real_logs import HOW_TO_RUN
from real_logs import REAL_LOGS as REAL

from react_engine.app.cli import main
from react_engine.app.evaluation.report import build_report, class_table, compare
from react_engine.app.evaluation.runner import run_suite
from react_engine.app.evaluation.scoring import score
from react_engine.app.evaluation.suite import Case, Expect, load_suite
from react_engine.contract.record import RunResult
from react_engine.loop.engine import Engine
from react_engine.planners.rules import RulesPlanner

ROOT = Path(__file__).resolve().parents[1]
SUITE = ROOT / "evals" / "operator_suite.yaml"


CHECK = ROOT / "evals" / "operator_check.yaml"


@functools.cache  # derived once for the comparison and the tests on its cases (which only read them)
def _build(name: str) -> list[dict]:
    """The cases scripts/build_operator_suite.py derives here for suite `name` (without the loghub part when it is
    absent)."""
    import build_operator_suite

    return build_operator_suite.build(REAL if REAL.is_dir() else None, build_operator_suite.SUITES[name])


@pytest.fixture(scope="module")
def built() -> list[dict]:
    return _build("operator_suite")


# ---- the committed suites are what the script derives from the data


@pytest.mark.parametrize("name", ["operator_suite", "operator_check"])
def test_the_committed_suite_is_what_the_script_derives(name: str) -> None:
    import build_operator_suite

    suite = build_operator_suite.SUITES[name]
    text = suite.path.read_text(encoding="utf-8")
    assert text.startswith(suite.header)
    committed = yaml.safe_load(text)["cases"]
    if not REAL.is_dir():
        committed = [case for case in committed if "requires" not in case]
    assert _build(name) == committed


def _log(case: dict) -> str:
    return case.get("set") or Path(case["logs"][0]).parent.name


def _words(question: str) -> str:
    return " ".join(re.findall(r"[a-z0-9_.]+", question.lower()))


def test_the_check_set_covers_every_log_and_class_without_repeating_the_operator_suite() -> None:
    import operator_data

    check, public = load_suite(CHECK), yaml.safe_load(SUITE.read_text(encoding="utf-8"))["cases"]
    cases = yaml.safe_load(CHECK.read_text(encoding="utf-8"))["cases"]
    assert len(check.cases) >= 160
    # every class but `unserved`, whose cases move to the class that checks their value once a tool serves them
    assert {c.phrasing for c in check.cases} >= set(operator_data.PHRASINGS + operator_data.ANALYTICS) - {"unserved"}
    analytics = Counter(c.phrasing for c in check.cases if c.phrasing in operator_data.ANALYTICS)
    assert sum(analytics.values()) >= 80 and min(analytics.values()) >= 8, analytics
    loghub = Counter(_log(c) for c in cases if "requires" in c)
    assert len(loghub) == 16 and min(loghub.values()) >= 8, loghub
    assert len(cases) - sum(loghub.values()) >= 30
    for case in cases:
        near = [p["question"] for p in public if _log(p) == _log(case)
                and SequenceMatcher(None, _words(p["question"]), _words(case["question"])).ratio() >= 0.9]
        assert not near, (case["question"], near)
    for case in check.cases:
        assert case.expect.no_data == (case.phrasing == "honest-zero"), case.id


@pytest.mark.skipif(not REAL.is_dir(), reason=HOW_TO_RUN)
def test_every_loghub_system_is_asked_in_every_phrasing_class(built: list[dict]) -> None:
    import operator_data

    cases = [c for c in built if "requires" in c]
    systems = {Path(c["logs"][0]).parent.name for c in cases}
    assert len(systems) == 16
    per_system = Counter(Path(c["logs"][0]).parent.name for c in cases)
    assert min(per_system.values()) >= 12, per_system
    assert {c["class"] for c in cases} | {"unserved"} == set(
        operator_data.PHRASINGS + operator_data.EXTRA_PHRASINGS + operator_data.ANALYTICS)


def test_the_suite_has_300_cases_over_every_phrasing_class_and_sample_set() -> None:
    import operator_data

    suite = load_suite(SUITE)
    assert len(suite.cases) >= 300
    classes = Counter(case.phrasing for case in suite.cases)
    assert set(classes) == set(operator_data.PHRASINGS + operator_data.EXTRA_PHRASINGS + operator_data.ANALYTICS)
    analytics = {name: classes.pop(name) for name in operator_data.ANALYTICS}
    assert classes.pop("unserved") >= 2 and min(classes.values()) >= 25, classes
    assert sum(analytics.values()) >= 150 and min(analytics.values()) >= 5, analytics
    samples = [c for c in suite.cases if not c.requires]
    assert all(Path(p).exists() for c in samples for p in c.logs)
    assert {Path(c.logs[0]).parent.name for c in samples} == {"cmts", "modem", "syslog", "app", "nginx"}
    for case in suite.cases:
        zero = case.expect.no_data
        assert zero == (case.phrasing == "honest-zero") and (not zero or case.expect.value == 0), case.id
        assert case.expect.unserved == (case.phrasing == "unserved"), case.id
        assert case.expect.checks_value or case.expect.top or case.expect.unserved or case.expect.contains, case.id
        assert bool(case.expect.contains) == (case.phrasing == "listing"), case.id


# ---- the data helpers refuse ambiguous expectations


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 50), min_size=2, max_size=12), st.integers(0, 50))
def test_the_longest_silence_is_the_largest_step_or_refused_on_a_tie(steps: list[int], shift: int) -> None:
    from operator_data import Ambiguous
    from operator_readings import Reading, both

    times = pd.Series(pd.Timestamp("2026-01-01") + pd.to_timedelta(pd.Series(steps).cumsum() + shift, unit="s"))
    shuffled = Reading(times[::-1].reset_index(drop=True), pd.Series(range(len(times), 0, -1)))
    every = pd.Series(True, index=times.index)
    gaps = sorted(steps[1:], reverse=True)
    try:
        longest = both(Reading(times, pd.Series(range(1, len(times) + 1))).silence(every), shuffled.silence(every))
    except Ambiguous:
        assert len(gaps) > 1 and gaps[0] == gaps[1]
        return
    assert longest["seconds"] == gaps[0] and longest["from"] <= longest["to"]


@pytest.mark.skipif(not REAL.is_dir(), reason=HOW_TO_RUN)
def test_the_raw_lines_give_the_structured_times_on_every_system_but_healthapp() -> None:
    from operator_data import TIMESTAMPS, LogData
    from operator_readings import raw_times

    for system in TIMESTAMPS:
        log = LogData.loghub(REAL, system)
        agree = (raw_times(log.lines, system) == log.stamps).mean()
        assert agree == 1.0 or (system == "HealthApp" and agree > 0.5), (system, agree)


@settings(max_examples=60, deadline=None)
@given(st.dictionaries(st.sampled_from("abcdefgh"), st.integers(1, 6), min_size=1), st.integers(1, 3))
def test_a_ranking_is_strictly_ordered_or_refused(counts: dict[str, int], n: int) -> None:
    from operator_data import Ambiguous, ranked

    try:
        top = ranked(counts, n)
    except Ambiguous:
        order = sorted(counts.values(), reverse=True)[: n + 1]
        assert len(counts) < n or len(set(order)) < len(order)
        return
    values = [c for _, c in top]
    assert values == sorted(counts.values(), reverse=True)[:n] and len(set(values)) == n
    assert all(counts[v] == c for v, c in top)


def test_a_window_with_a_row_on_its_bound_is_refused(tmp_path: Path) -> None:
    from operator_data import Ambiguous, LogData, count

    log = tmp_path / "x.log"
    log.write_text("".join(f"2026-11-20 10:{m:02d}:00 ERROR x\n" for m in range(10)))
    data = LogData.raw(log, lambda lines: pd.to_datetime(lines.str[:19]))
    assert count(data.between("2026-11-20 10:02:30", "2026-11-20 10:05:30", "1s")) == 3
    with pytest.raises(Ambiguous):
        data.between("2026-11-20 10:02:00", "2026-11-20 10:05:30", "1s")
    assert count(data.grep("error") & data.last("3min 30s")) == 4


# ---- outcomes, per-class accuracy and skipped cases


def _result(value, verified: bool = True) -> RunResult:
    return RunResult(query="q", answer="a", value=value, stop_reason="stop", verified=verified, planner="test")


def test_failures_split_into_wrong_values_refusals_and_the_rest() -> None:
    case = Case(id="c", question="q", logs=["x.log"], expect=Expect(value=5), phrasing="terse")
    zero = Case(id="z", question="q", logs=["x.log"], expect=Expect(value=0, no_data=True), phrasing="honest-zero")
    ranking = Case(id="r", question="q", logs=["x.log"], expect=Expect(top=[["a", 3]]), phrasing="ranking")
    outcomes = {
        "passed": score(case, _result(5)), "wrong": score(case, _result(6)), "refused": score(case, _result(None)),
        "failed": score(case, _result(5, verified=False)),
    }
    assert {name: s.outcome for name, s in outcomes.items()} == {name: name for name in outcomes}
    assert score(zero, _result(3)).outcome == "wrong" and score(zero, _result(None)).outcome == "refused"
    assert score(zero, _result(0, verified=False)).outcome == "passed"
    assert score(ranking, _result([["b", 4]])).outcome == "wrong" and score(ranking, _result([["a", 3]])).passed
    report = build_report("s", "test", None, [*outcomes.values(), score(zero, _result(3))])
    terse = report.summary.classes["terse"]
    assert (terse.cases, terse.passed, terse.accuracy, terse.wrong, terse.refused) == (4, 1, 0.25, 1, 1)
    assert report.summary.classes["honest-zero"].wrong == 1
    table = class_table(report.summary.classes)
    assert table[0].split() == ["class", "cases", "passed", "accuracy", "wrong", "refused"]
    assert table[-1].split() == ["all", "5", "1", "20.0%", "2", "1"]
    assert json.loads(report.model_dump_json())["scenarios"][0]["class"] == "terse"


@pytest.fixture
def suite_with_absent_logs(tmp_path: Path) -> Path:
    (tmp_path / "app.log").write_text("".join(f"2026-11-20T10:00:0{n}Z web app: ERROR boom\n" for n in range(3)))
    cases = [{"id": "here", "class": "terse", "question": 'how many "boom" lines?', "logs": ["app.log"],
              "expect": {"value": 3}},
             {"id": "away", "class": "terse", "question": "how many lines?", "logs": ["gone/x.log"],
              "requires": ["gone/x.log"], "expect": {"value": 9}}]
    path = tmp_path / "suite.yaml"
    path.write_text(yaml.safe_dump({"name": "tiny", "cases": cases}))
    return path


def test_cases_whose_required_logs_are_absent_are_skipped_and_reported(suite_with_absent_logs: Path) -> None:
    suite = load_suite(suite_with_absent_logs)
    scenarios = run_suite(suite, lambda case: Engine(CountingPlanner()))
    here, away = scenarios
    assert here.passed and here.outcome == "passed"
    assert away.outcome == "skipped" and not away.passed and "gone/x.log" in (away.skip_reason or "")
    report = build_report(suite.name, "counting", None, scenarios)
    assert (report.summary.total_scenarios, report.summary.passed, report.summary.skipped) == (1, 1, 1)
    assert report.summary.pass_rate == 1.0 and report.summary.classes["terse"].skipped == 1
    baseline = report.model_copy(deep=True)
    baseline.scenarios[1] = baseline.scenarios[1].model_copy(update={"outcome": "passed", "passed": True})
    analysis = compare(report, baseline)
    assert analysis.regressions == [] and analysis.missing_cases == ["away"]


def test_cli_eval_prints_the_per_class_table_and_the_skipped_case(suite_with_absent_logs: Path) -> None:
    report_file = suite_with_absent_logs.parent / "report.json"
    out = CliRunner().invoke(main, ["eval", str(suite_with_absent_logs), "--planner", "rules", "--no-trace",
                                    "--report", str(report_file)])
    assert out.exit_code == 0, out.output
    assert "skipped: needs" in out.output and "1 skipped" in out.output
    header = next(line for line in out.output.splitlines() if line.startswith("class "))
    assert header.split() == ["class", "cases", "passed", "accuracy", "wrong", "refused"]
    summary = json.loads(report_file.read_text())["summary"]
    assert summary["skipped"] == 1 and summary["classes"]["terse"]["cases"] == 1


# ---- a smoke run of the operator suite (its accuracy measures an evolving planner, so it is not asserted)


def test_a_case_of_each_class_runs_and_is_scored_by_class() -> None:
    suite = load_suite(SUITE)
    picked = [next(c for c in suite.cases if c.phrasing == name and not c.requires)
              for name in sorted({c.phrasing for c in suite.cases if not c.requires})]
    picked += [c for c in suite.cases if c.requires][:2]
    small = suite.model_copy(update={"cases": picked})
    scenarios = run_suite(small, lambda case: Engine(RulesPlanner()))
    assert [s.id for s in scenarios] == [c.id for c in picked] and len(scenarios) == 14
    assert [s.phrasing for s in scenarios] == [c.phrasing for c in picked]
    ran = [s for s in scenarios if s.outcome != "skipped"]
    assert all(s.outcome in ("passed", "wrong", "refused", "failed") for s in ran)
    assert all(s.outcome == "skipped" for s in scenarios if s not in ran)
    assert len(ran) == (14 if REAL.is_dir() else 12)
