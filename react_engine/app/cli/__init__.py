"""`react-engine` command line: thin click commands over the Python API."""

from __future__ import annotations

import time
from typing import Any

import click

from react_engine import __version__
from react_engine.app.cli.lazy import LazyGroup
from react_engine.app.cli.terminal import STARTED, quiet_option, safe

COMMANDS = {  # name: (module, the one-line help `--help` lists); a command's module is imported when it runs
    "ask": ("react_engine.app.cli.ask", "Answer QUESTION from the logs at PATH..."),
    "batch": ("react_engine.app.cli.batch", "Answer every question in QUERIES (text: one per line; JSONL; YAML with "
              "`id`, `question`, `logs`; - for stdin)."),
    "cache": ("react_engine.app.cli.cache", "The parsed-frame cache that makes a second question about the same logs "
              "fast."),
    "chat": ("react_engine.app.cli.chat", "Ask questions one after another about the logs at PATH..., loaded once."),
    "completion": ("react_engine.app.cli.completion", "Print the completion script for SHELL; load it from your "
                   "shell's start-up file."),
    "config": ("react_engine.app.cli.config", "Show the configuration: flags override environment variables, which "
               "override the config file."),
    "eval": ("react_engine.app.cli.evaluate", "Run the evaluation SUITE (YAML or JSON) and score correctness, tool usage "
             "and error handling."),
    "inspect": ("react_engine.app.cli.inspect", "Show how each log file in PATH... loads: format, rows, timestamps, time "
                "range, severities, columns."),
    "models": ("react_engine.app.cli.models", "Bundled Modelfiles and the models installed in Ollama."),
    "serve": ("react_engine.app.cli.serve", "Serve the HTTP API and a page over the logs under --root, kept loaded."),
    "trace": ("react_engine.app.cli.traces", "Read recorded run traces."),
    "replay": ("react_engine.app.cli.traces", "Re-run the question in trace FILE with its recorded replies; exit 1 when "
               "the actions or answer differ."),
}
CONTEXT = {"help_option_names": ["-h", "--help"]}
_WITHOUT_CONFIG = ("config", "completion", "cache")  # these must work even with a broken config file


class _Group(LazyGroup):
    """Turns expected errors into one-line messages (exit 1), and Ctrl-C into exit 130, instead of tracebacks."""

    def invoke(self, ctx: click.Context) -> Any:
        ctx.meta[STARTED] = time.monotonic()  # a command's --timeout counts from here: imports and set-up included
        try:
            from react_engine.errors import ReactEngineError

            try:
                return super().invoke(ctx)
            except ReactEngineError as exc:
                raise click.ClickException(safe(str(exc))) from None
        except KeyboardInterrupt:
            click.echo("\ninterrupted", err=True)
            raise click.exceptions.Exit(130) from None


@click.group(cls=_Group, lazy=COMMANDS, context_settings=CONTEXT)
@click.version_option(__version__, package_name="react-engine")
@quiet_option
@click.pass_context
def main(ctx: click.Context) -> None:
    """Ask questions of your log files in plain language; exact, checkable answers.

    Defaults come from the config file (`react-engine config path`); environment variables override it, and
    flags override both.

    \b
    Example:
      react-engine ask "How many errors in the last hour?" /var/log/syslog
    """
    if ctx.invoked_subcommand not in _WITHOUT_CONFIG:
        from react_engine.app.cli.config import default_map
        from react_engine.app.userconfig import load_file

        ctx.default_map = default_map(load_file())
