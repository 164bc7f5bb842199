"""`react-engine ask QUESTION PATH...`"""

from __future__ import annotations

import sys

import click

from react_engine.cli.common import approval_options, run_options, tracer_factory
from react_engine.cli.options import load_options, planner_options
from react_engine.cli.render import human, step_line
from react_engine.engine import Engine
from react_engine.logs.options import LoadOptions
from react_engine.planners.factory import PlannerSpec, make_planner
from react_engine.settings import Settings
from react_engine.stops import explain


@click.command("ask")
@click.argument("question")
@click.argument("paths", nargs=-1, required=True)
@planner_options
@run_options
@load_options
@approval_options
@click.option("--json", "as_json", is_flag=True, help="Print the full result as JSON.")
@click.option("-v", "--verbose", is_flag=True, help="Print each iteration live, and the trace file path.")
def ask_command(question: str, paths: tuple[str, ...], planner_spec: PlannerSpec, run: dict,
                load_options: LoadOptions, approval: dict, as_json: bool, verbose: bool) -> None:
    """Answer QUESTION from the logs at PATH... (files, directories, globs, or - for stdin)."""
    planner, notice = make_planner(planner_spec)
    if notice:
        click.echo(notice, err=True)
    settings = Settings(max_iterations=run["max_iterations"])
    on_step = (lambda step: click.echo(step_line(step), err=True)) if verbose else None
    engine = Engine(planner, settings, tracer_factory=tracer_factory(run["trace_dir"], run["trace"]),
                    approver=approval["approver"], output_dir=approval["output_dir"], on_step=on_step)
    try:
        result = engine.ask(question, paths, now=run["now"], load_options=load_options)
    finally:
        planner.close()
    if as_json:
        click.echo(result.model_dump_json(indent=2))
    else:
        click.echo(human(result, explain(result)))
        if verbose and result.trace_file:
            click.echo(f"trace: {result.trace_file}", err=True)
    sys.exit(0 if result.answered else 1)


COMMANDS = [ask_command]
