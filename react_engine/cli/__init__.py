"""`react-engine` command line: thin click commands over the Python API."""

from __future__ import annotations

import click

from react_engine.errors import ReactEngineError


class _Group(click.Group):
    """Turns expected errors into one-line messages (exit 1) instead of tracebacks."""

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except ReactEngineError as exc:
            raise click.ClickException(str(exc)) from None


@click.group(cls=_Group)
@click.version_option(package_name="react-engine")
def main() -> None:
    """Ask questions of your log files in plain language; exact, checkable answers."""


def _register() -> None:
    from react_engine.cli import ask, batch, evaluate, inspect, models, traces

    for module in (ask, batch, evaluate, inspect, models, traces):
        for command in module.COMMANDS:
            main.add_command(command)


_register()
