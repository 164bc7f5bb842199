"""Options shared by the commands that run questions (ask, batch, eval)."""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from react_engine.approval import Approver
from react_engine.tracing import Tracer, default_trace_dir, open_tracer


def tracer_factory(trace_dir: str | None, enabled: bool) -> Callable[[], Tracer] | None:
    """A factory giving each run its own tracer, or None with --no-trace."""
    if not enabled:
        return None
    directory = Path(trace_dir) if trace_dir else default_trace_dir()
    return lambda: open_tracer(directory)


def run_options(fn: Callable[..., Any]) -> Callable[..., Any]:
    """--max-iterations --now --trace-dir --no-trace, collected into `run`."""

    @click.option("--max-iterations", type=click.IntRange(1, 200), default=10, show_default=True,
                  help="Planner turns before stopping with tool_limit.")
    @click.option("--now", default=None, help="Time anchor for 'last hour' etc. (ISO); default: newest log time.")
    @click.option("--trace-dir", type=click.Path(file_okay=False), default=None, envvar="REACT_ENGINE_TRACE_DIR",
                  help="Where trace files go (default: the user data dir).")
    @click.option("--no-trace", is_flag=True, help="Do not write a trace file.")
    @functools.wraps(fn)
    def wrapper(*args: Any, max_iterations: int, now: str | None, trace_dir: str | None, no_trace: bool,
                **kwargs: Any) -> Any:
        run = {"max_iterations": max_iterations, "now": now, "trace_dir": trace_dir, "trace": not no_trace}
        return fn(*args, run=run, **kwargs)

    return wrapper


def approval_options(fn: Callable[..., Any]) -> Callable[..., Any]:
    """--yes, --approve TOOL and --output-dir, collected into `approval`."""

    @click.option("--yes", "approve_all", is_flag=True, help="Approve every tool that has side effects.")
    @click.option("--approve", "pre_approved", multiple=True, metavar="TOOL", help="Pre-approve one tool.")
    @click.option("--output-dir", type=click.Path(file_okay=False), default=None,
                  help="Where export_results may write (default: the current directory).")
    @functools.wraps(fn)
    def wrapper(*args: Any, approve_all: bool, pre_approved: tuple[str, ...], output_dir: str | None,
                **kwargs: Any) -> Any:
        interactive = sys.stdin.isatty() and sys.stderr.isatty()
        ask = (lambda text: click.confirm(text, default=False, err=True)) if interactive else None
        approver = Approver(approve_all=approve_all, pre_approved=pre_approved, ask=ask)
        return fn(*args, approval={"approver": approver, "output_dir": output_dir}, **kwargs)

    return wrapper
