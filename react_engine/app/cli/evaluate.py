"""`react-engine eval SUITE [planner options] [--baseline FILE] [--save-baseline FILE] [--report FILE]`"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass

import click

from react_engine.app.cli.common import run_options, tracer_factory
from react_engine.app.cli.flags import load_options, planner_options
from react_engine.app.cli.terminal import note, out, out_json, quiet_option
from react_engine.app.evaluation.report import Report, build_report, class_table, load_report, save_report
from react_engine.app.evaluation.runner import replay_engines, run_suite
from react_engine.app.evaluation.scoring import Scenario
from react_engine.app.evaluation.suite import Suite, load_suite
from react_engine.app.launch import open_engine
from react_engine.contract.planner import Planner
from react_engine.logs.options import LoadOptions
from react_engine.loop.engine import Engine, TracerFactory
from react_engine.loop.frames import FrameCache
from react_engine.planners.factory import PlannerSpec, make_advisor
from react_engine.settings import Settings


def _case_line(scenario: Scenario) -> str:
    if scenario.skip_reason:
        return f"- {scenario.id:<32} skipped: {scenario.skip_reason}"
    mark = "✓" if scenario.passed else "✗"
    detail = "" if scenario.passed else "  " + "; ".join(scenario.failures)
    return f"{mark} {scenario.id:<32} {scenario.stop_reason:<14} {scenario.duration_s:6.2f}s{detail}"


def render(report: Report) -> str:
    """The summary, the average scores and the regression analysis as text."""
    s, r = report.summary, report.regression_analysis
    scores = ", ".join(f"{k} {v:.3f}" if v is not None else f"{k} -" for k, v in s.avg_scores.items())
    lines = [f"{report.suite}: {s.passed}/{s.total_scenarios} passed ({s.pass_rate:.1%}) · planner {report.planner}"
             + (f" ({report.model})" if report.model else "") + (f" · {s.skipped} skipped" if s.skipped else ""),
             f"average scores: {scores}"]
    if s.classes:
        lines += class_table(s.classes)
    if r.baseline:
        lines.append(f"vs {r.baseline}: {len(r.regressions)} regressions, {len(r.improvements)} improvements")
        lines.extend(f"  REGRESSION {case}" for case in r.regressions)
        lines.extend(f"  improved {case}" for case in r.improvements)
        lines.extend(f"  SCORE DROP {d.dimension}: {d.baseline:.3f} → {d.current:.3f}" for d in r.score_drops)
    return "\n".join(lines)


@click.command("eval")
@click.argument("suite_file", metavar="SUITE", type=click.Path(dir_okay=False))
@planner_options
@run_options
@load_options
@click.option("--replies", type=click.Path(dir_okay=False), default=None,
              help="Script planner: replay the replies recorded per case in this report (e.g. a baseline).")
@click.option("--baseline", type=click.Path(dir_okay=False), default=None,
              help="Compare with this report; exit 1 on regressions.")
@click.option("--save-baseline", type=click.Path(dir_okay=False), default=None, help="Save the report as a baseline.")
@click.option("--report", "report_file", type=click.Path(dir_okay=False), default=None,
              help="Write the JSON report here.")
@click.option("--json", "as_json", is_flag=True, help="Print the JSON report instead of the text summary.")
@quiet_option
def eval_command(suite_file: str, planner_spec: PlannerSpec, run: dict, load_options: LoadOptions,
                 replies: str | None, baseline: str | None, save_baseline: str | None, report_file: str | None,
                 as_json: bool) -> None:
    """Run the evaluation SUITE (YAML or JSON) and score correctness, tool usage and error handling.

    Exit 1 when a case that passed in --baseline fails now, or an average score fell by more than 5%.

    \b
    Example:
      react-engine eval evals/sample_suite.yaml --planner rules --baseline evals/baseline_rules.json
    """
    suite = load_suite(suite_file)
    previous = load_report(baseline) if baseline else None
    settings = run["settings"]
    tracers = tracer_factory(run["trace_dir"], run["trace"])
    year = load_options.year or suite.year
    if run["now"]:  # the cases that give no time anchor of their own take this one
        suite.cases = [c.model_copy(update={"now": c.now or run["now"]}) for c in suite.cases]
    frames = FrameCache(load_options.model_copy(update={"year": year}))
    echo = None if as_json else (lambda scenario: out(_case_line(scenario)))
    suite = suite.model_copy(update={"year": year})
    if replies:
        ran = _replayed(suite, load_report(replies), settings, tracers, frames, echo)
    else:
        ran = _planned(suite, planner_spec, settings, tracers, frames, echo)
    report = build_report(suite.name, ran.planner, ran.model, ran.scenarios, previous, baseline,
                          deterministic=ran.deterministic)
    for path in filter(None, (report_file, save_baseline)):
        save_report(report, path)
    _show(report, as_json)
    sys.exit(1 if report.regression_analysis.failed else 0)


def _show(report: Report, as_json: bool) -> None:
    """Print the report as JSON, or its summary as text."""
    if as_json:
        out_json(report.model_dump_json(indent=1))
    else:
        out(render(report))


@dataclass(frozen=True)
class _Ran:
    """A suite's scenarios and the planner that answered them."""

    scenarios: list[Scenario]
    planner: str
    model: str | None
    deterministic: bool


def _replayed(suite: Suite, recorded: Report, settings: Settings, tracers: TracerFactory | None, frames: FrameCache,
              echo: Callable[[Scenario], None] | None) -> _Ran:
    """The suite run by replaying the replies `recorded` holds per case."""

    def make_engine(planner: Planner) -> Engine:
        return Engine(planner, settings, tracer_factory=tracers, advisor=make_advisor())

    scenarios = run_suite(suite, replay_engines(recorded, make_engine), on_case=echo, frames=frames)
    return _Ran(scenarios, "script", recorded.model, recorded.deterministic)


def _planned(suite: Suite, planner_spec: PlannerSpec, settings: Settings, tracers: TracerFactory | None,
             frames: FrameCache, echo: Callable[[Scenario], None] | None) -> _Ran:
    """The suite run by the planner `planner_spec` asks for."""
    with open_engine(planner_spec, settings, notify=note, tracer_factory=tracers) as engine:
        scenarios = run_suite(suite, lambda case: engine, on_case=echo, frames=frames)
        return _Ran(scenarios, engine.planner.name, engine.planner.model, engine.planner.deterministic)


COMMANDS = [eval_command]
