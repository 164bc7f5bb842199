"""A click group that imports a command's module only when that command runs.

`react-engine --help` and `--version` then cost little more than importing click: the engines, model
clients, tracing and pandas behind the commands load only for the command that needs them.
"""

from __future__ import annotations

import gc
from importlib import import_module
from types import ModuleType

import click


class LazyGroup(click.Group):
    """Commands named in `lazy` (name: (module, one-line help)) are imported from `module.COMMANDS` on first use.

    The one-line help is what `--help` lists, so listing the commands imports none of them.
    """

    def __init__(self, *args: object, lazy: dict[str, tuple[str, str]], **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.lazy = lazy

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*self.commands, *self.lazy})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands and cmd_name in self.lazy:
            for command in _imported(self.lazy[cmd_name][0]).COMMANDS:
                self.add_command(command)
        return self.commands.get(cmd_name)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        names = self.list_commands(ctx)
        if not names:
            return
        limit = formatter.width - 6 - max(map(len, names))
        rows = []
        for name in names:
            loaded = self.commands.get(name)
            command = loaded if loaded is not None else click.Command(name, help=self.lazy[name][1])
            if not command.hidden:
                rows.append((name, command.get_short_help_str(limit)))
        with formatter.section("Commands"):
            formatter.write_dl(rows)


def _imported(name: str) -> ModuleType:
    """The module `name`, imported with the cyclic garbage collector paused and its objects then frozen out of later
    collections: a command's import makes some 70,000 objects that live as long as the process, and collecting
    while they were made walked them about 200 times (40-50 ms of CPU for `ask`, against 1 ms in the whole run)."""
    if not gc.isenabled():
        return import_module(name)
    gc.disable()
    try:
        return import_module(name)
    finally:
        gc.freeze()
        gc.enable()
