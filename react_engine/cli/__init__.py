"""`react-engine` command line: thin click commands over the Python API."""

from __future__ import annotations

import click

from react_engine import __version__
from react_engine.cli.lazy import LazyGroup

COMMANDS = {  # name: (module, the one-line help `--help` lists); a command's module is imported when it runs
    "ask": ("react_engine.cli.ask", "Answer QUESTION from the logs at PATH..."),
    "batch": ("react_engine.cli.batch", "Answer every question in QUERIES (text: one per line; JSONL; or YAML with "
              "`id`, `question`, `logs`)."),
    "eval": ("react_engine.cli.evaluate", "Run the evaluation SUITE (YAML or JSON) and score correctness, tool usage "
             "and error handling."),
    "inspect": ("react_engine.cli.inspect", "Show how each log file in PATH... loads: format, rows, timestamps, time "
                "range, severities, columns."),
    "models": ("react_engine.cli.models", "Bundled Modelfiles and the models installed in Ollama."),
    "trace": ("react_engine.cli.traces", "Read recorded run traces."),
    "replay": ("react_engine.cli.traces", "Re-run the question in trace FILE with its recorded replies; exit 1 when "
               "the actions or answer differ."),
}


class _Group(LazyGroup):
    """Turns expected errors into one-line messages (exit 1) instead of tracebacks."""

    def invoke(self, ctx: click.Context):
        from react_engine.errors import ReactEngineError

        try:
            return super().invoke(ctx)
        except ReactEngineError as exc:
            raise click.ClickException(str(exc)) from None


@click.group(cls=_Group, lazy=COMMANDS)
@click.version_option(__version__, package_name="react-engine")
def main() -> None:
    """Ask questions of your log files in plain language; exact, checkable answers."""
