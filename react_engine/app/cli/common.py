"""Options shared by the commands that run questions (ask, batch, eval)."""

from __future__ import annotations

import functools
import sys
import time
from collections.abc import Callable
from contextlib import AbstractContextManager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from react_engine.app.cli.render import OUTPUTS
from react_engine.app.cli.terminal import STARTED, note, quiet_option, safe
from react_engine.contract.record import RunResult
from react_engine.loop.approval import Approver, approvable
from react_engine.settings import Settings
from react_engine.tracing import Tracer, default_trace_dir

if TYPE_CHECKING:
    from react_engine.loop.engine import Engine
    from react_engine.planners.factory import PlannerSpec

INTERRUPTED = 130


def exit_code(result: RunResult) -> int:
    """0 answered, 130 interrupted, 1 otherwise."""
    return 0 if result.answered else INTERRUPTED if result.stop_reason == "interrupted" else 1


def _check_now(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    if value is None:
        return None
    import pandas as pd

    from react_engine.errors import ToolError
    from react_engine.tools.timeexpr import parse_time

    try:
        parse_time(value, pd.NaT)
    except (ToolError, ValueError) as exc:
        raise click.BadParameter(f"{value!r}: {exc}; give an ISO time such as 2026-11-20T12:00:00Z") from None
    return value


def output_options(fn: Callable[..., Any]) -> Callable[..., Any]:
    """--output text|json|csv|table and its short form --json, collected into `output`."""

    @click.option("-o", "--output", type=click.Choice(OUTPUTS), default="text", show_default=True,
                  envvar="REACT_ENGINE_OUTPUT",
                  help="text: answer, chart or table, evidence; table or csv: the rows behind the answer; json: all.")
    @click.option("--json", "as_json", is_flag=True, help="Short for --output json.")
    @functools.wraps(fn)
    def wrapper(*args: Any, output: str, as_json: bool, **kwargs: Any) -> Any:
        return fn(*args, output="json" if as_json else output, **kwargs)

    return wrapper


def left_of_timeout(run: dict) -> Settings:
    """The run settings with the time the command has already taken (start-up, imports, the planner's set-up)
    taken off `--timeout`: a one-question command ends within it, however busy the machine."""
    settings: Settings = run["settings"]
    spent = time.monotonic() - run["started"]
    left = settings.timeout_seconds - spent
    return settings.model_copy(update={"timeout_seconds": round(left, 1) if left >= 1 else max(left, 1e-6)})


def tracer_factory(trace_dir: str | None, enabled: bool) -> Callable[[], Tracer] | None:
    """A factory giving each run its own tracer, or None with --no-trace."""
    if not enabled:
        return None
    from react_engine.tracing import open_tracer  # OpenTelemetry is imported only to trace

    directory = Path(trace_dir) if trace_dir else default_trace_dir()
    return lambda: open_tracer(directory)


def retain_traces(run: dict) -> None:
    """Apply the configured trace retention (`trace_keep`, `trace_max_age_days`) after runs that wrote traces."""
    from react_engine.app.housekeeping import prune_traces
    from react_engine.app.userconfig import load

    config = load()
    if run["trace"] and (config.trace_keep or config.trace_max_age_days):
        prune_traces(Path(run["trace_dir"]) if run["trace_dir"] else default_trace_dir(), config.trace_keep,
                     config.trace_max_age_days)


def run_options(fn: Callable[..., Any]) -> Callable[..., Any]:
    """--max-iterations --timeout --now --trace-dir --no-trace, collected into `run`."""

    @click.option("--max-iterations", type=click.IntRange(1, 200), default=10, show_default=True,
                  help="Planner turns before stopping with tool_limit.")
    @click.option("--timeout", type=click.FloatRange(0, min_open=True), default=Settings.model_fields["timeout_seconds"].default,
                  show_default=True, metavar="SECONDS",
                  help="Seconds a question may take, loading included, before stopping with time_limit.")
    @click.option("--now", default=None, callback=_check_now,
                  help="Time anchor for 'last hour' etc. (ISO); default: newest log time.")
    @click.option("--trace-dir", type=click.Path(file_okay=False), default=None, envvar="REACT_ENGINE_TRACE_DIR",
                  help="Where trace files go (default: the user data dir).")
    @click.option("--no-trace", is_flag=True, help="Do not write a trace file.")
    @functools.wraps(fn)
    def wrapper(*args: Any, max_iterations: int, timeout: float, now: str | None, trace_dir: str | None,
                no_trace: bool, **kwargs: Any) -> Any:
        ctx = click.get_current_context(silent=True)
        run = {"settings": Settings(max_iterations=max_iterations, timeout_seconds=timeout), "now": now,
               "trace_dir": trace_dir, "trace": not no_trace,
               "started": ctx.meta.get(STARTED, time.monotonic()) if ctx else time.monotonic()}
        return fn(*args, run=run, **kwargs)

    return wrapper


def _approvable(ctx: click.Context, param: click.Parameter, names: tuple[str, ...]) -> tuple[str, ...]:
    valid = approvable()
    for name in names:
        if name not in valid:
            raise click.BadParameter(f"unknown tool {name!r}; tools that need approval: {', '.join(valid)}")
    return names


def approval_options(fn: Callable[..., Any]) -> Callable[..., Any]:
    """--yes, --approve TOOL, --overwrite and --output-dir, collected into `approval`."""

    @click.option("--yes", "approve_all", is_flag=True, help="Approve every tool that has side effects.")
    @click.option("--approve", "pre_approved", multiple=True, metavar="TOOL", callback=_approvable,
                  help="Pre-approve one tool.")
    @click.option("--overwrite", is_flag=True,
                  help="Let an approved export replace an existing file (never a loaded log).")
    @click.option("--output-dir", type=click.Path(file_okay=False), default=None,
                  help="Where export_results may write (default: the current directory).")
    @functools.wraps(fn)
    def wrapper(*args: Any, approve_all: bool, pre_approved: tuple[str, ...], overwrite: bool,
                output_dir: str | None, **kwargs: Any) -> Any:
        interactive = sys.stdin.isatty() and sys.stderr.isatty()
        ask = (lambda text: click.confirm(safe(text), default=False, err=True)) if interactive else None
        approver = Approver(approve_all=approve_all, pre_approved=pre_approved, ask=ask, overwrite=overwrite)
        return fn(*args, approval={"approver": approver, "output_dir": output_dir}, **kwargs)

    return wrapper


def cli_engine(planner_spec: PlannerSpec, run: dict, approval: dict, notify: Callable[[str], None] = note,
               **engine_options: Any) -> AbstractContextManager[Engine]:
    """`open_engine` with the command line's run and approval options; the planner's notice goes to `notify`
    (stderr)."""
    from react_engine.app.launch import open_engine

    return open_engine(planner_spec, run["settings"], notify=notify,
                       tracer_factory=tracer_factory(run["trace_dir"], run["trace"]), approver=approval["approver"],
                       output_dir=approval["output_dir"], **engine_options)


def question_options(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Everything a command that answers questions takes (ask, chat): planner, run, load, approval, output, -q."""
    from react_engine.app.cli.flags import load_options, planner_options

    for bundle in (quiet_option, output_options, approval_options, load_options, run_options, planner_options):
        fn = bundle(fn)
    return fn
