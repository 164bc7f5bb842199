"""`react-engine ask QUESTION PATH...`"""

from __future__ import annotations

import sys

import click

from react_engine.app.cli.common import cli_engine, exit_code, left_of_timeout, question_options, retain_traces
from react_engine.app.cli.render import failed_early, present, step_line
from react_engine.app.cli.terminal import note, safe
from react_engine.logs.options import LoadOptions
from react_engine.planners.factory import PlannerSpec


def question_argument(ctx: click.Context, param: click.Parameter, value: str) -> str:
    """A question must say something."""
    if not value.strip():
        raise click.BadParameter("the question is empty: ask something, e.g. \"How many errors?\"")
    return value


@click.command("ask")
@click.argument("question", callback=question_argument)
@click.argument("paths", nargs=-1, required=True)
@question_options
@click.option("-v", "--verbose", is_flag=True, help="Print each iteration live, and the trace file path.")
def ask_command(question: str, paths: tuple[str, ...], planner_spec: PlannerSpec, run: dict,
                load_options: LoadOptions, approval: dict, output: str, verbose: bool) -> None:
    """Answer QUESTION from the logs at PATH... (files, directories, globs, or - for stdin).

    The answer goes to stdout, notices and errors to stderr. Exit 0 answered, 1 not answered, 2 usage error,
    130 interrupted.

    \b
    Examples:
      react-engine ask "How many errors in the last hour?" /var/log/syslog
      react-engine ask "Top 5 hosts by errors" logs/ --output csv | sort -t, -k2 -nr | head
    """
    on_step = (lambda step: click.echo(safe(step_line(step)), err=True)) if verbose else None
    notices: list[str] = []  # the planner's, said once the run shows it matters
    with cli_engine(planner_spec, run, approval, on_step=on_step, notify=notices.append) as engine:
        engine.settings = left_of_timeout(run)
        result = engine.ask(question, paths, now=run["now"], load_options=load_options)
    retain_traces(run)
    for notice in [] if failed_early(result) else notices:
        note(notice)
    present(result, output)
    if verbose and result.trace_file:
        click.echo(f"trace: {result.trace_file}", err=True)
    sys.exit(exit_code(result))


COMMANDS = [ask_command]
