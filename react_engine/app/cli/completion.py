"""`react-engine completion SHELL`: the shell completion script, to be sourced by the shell."""

from __future__ import annotations

import click
from click.shell_completion import get_completion_class

from react_engine.app.cli.terminal import out

SHELLS = ("bash", "zsh", "fish")


@click.command("completion")
@click.argument("shell", type=click.Choice(SHELLS))
def completion_command(shell: str) -> None:
    """Print the completion script for SHELL; load it from your shell's start-up file.

    \b
    Examples:
      eval "$(react-engine completion bash)"     # in ~/.bashrc
      eval "$(react-engine completion zsh)"      # in ~/.zshrc
      react-engine completion fish > ~/.config/fish/completions/react-engine.fish
    """
    root = click.get_current_context().find_root().command
    completer = get_completion_class(shell)
    assert completer is not None  # every name in SHELLS is one click supports
    out(completer(root, {}, "react-engine", "_REACT_ENGINE_COMPLETE").source())


COMMANDS = [completion_command]
