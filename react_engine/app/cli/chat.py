"""`react-engine chat PATH...`: ask question after question of logs loaded once."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import click

from react_engine.app.cli.common import cli_engine, question_options, retain_traces
from react_engine.app.cli.render import present
from react_engine.app.cli.terminal import note, out
from react_engine.app.conversation import ChatSession
from react_engine.logs.options import LoadOptions
from react_engine.planners.factory import PlannerSpec

PROMPT = "? "
SHOWN_ROWS = 10
HELP = ("/reset  forget the previous answer's rows (follow-ups start from all rows again)\n"
        "/show   print the rows a follow-up would start from\n"
        "/json   switch JSON output on or off\n"
        "/help   this list;  /quit (or Ctrl-D) ends the chat")
CHAT_COMMANDS = ("/reset", "/show", "/json", "/help", "/quit", "/exit")


def unknown_command(typed: str) -> str:
    """What to say about a `/command` the chat does not know: that, the nearest known one, and the list."""
    import difflib

    nearest = difflib.get_close_matches(typed.split()[0], CHAT_COMMANDS, n=1)
    return f"unknown command {typed}" + (f": did you mean {nearest[0]}?" if nearest else "") + "\n" + HELP


def history_file() -> Path:
    """`$XDG_STATE_HOME/react-engine/chat_history` (default `~/.local/state/...`)."""
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "react-engine" / "chat_history"


def _terminal_lines() -> Iterator[str]:
    """Lines typed at the terminal, with line editing and a history kept across sessions (readline)."""
    import readline

    path = history_file()
    try:
        readline.read_history_file(path)
    except OSError:
        pass
    readline.set_history_length(1000)
    try:
        while True:
            try:
                yield input(PROMPT)
            except KeyboardInterrupt:  # Ctrl-C at the prompt drops the line, as in a shell
                click.echo("", err=True)
            except EOFError:
                click.echo("", err=True)
                return
    finally:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            readline.write_history_file(path)
        except OSError as exc:
            note(f"chat history not saved to {path}: {exc.strerror or exc}")


def _piped_lines() -> Iterator[str]:
    for line in sys.stdin:
        yield line.rstrip("\n")


def _show(session: ChatSession) -> None:
    from react_engine.logs.text import entry_text
    from react_engine.tools.stats import display

    rows = session.scope
    head = rows.head(SHOWN_ROWS)
    out(f"{len(rows):,} of {len(session.frame):,} rows"
        + (" (from the previous answer)" if session.narrowed else " (all rows)"))
    for source, line, text in zip(head["source"], head["line"], entry_text(head)):
        out(display(source, line, text, 200))


def _slash(session: ChatSession, command: str, output: str) -> str:
    """Carry out one /command (not /quit); returns the output from then on (`/json` switches it)."""
    if command == "/reset":
        session.reset()
        note(f"back to all {len(session.frame):,} rows")
    elif command == "/show":
        _show(session)
    elif command == "/json":
        output = "text" if output == "json" else "json"
        note(f"output: {output}")
    elif command == "/help":
        out(HELP)
    else:
        note(unknown_command(command))
    return output


def _converse(session: ChatSession, lines: Iterator[str], output: str) -> bool:
    """Answer the questions and run the commands of `lines` until they end or one quits; whether every
    question was answered."""
    all_answered = True
    for line in lines:
        question = line.strip()
        if not question:
            continue
        if question in ("/quit", "/exit"):
            break
        if question.startswith("/"):
            output = _slash(session, question, output)
            continue
        result = session.ask(question)
        present(result, output)
        all_answered = all_answered and result.answered
    return all_answered


@click.command("chat")
@click.argument("paths", nargs=-1, required=True)
@question_options
def chat_command(paths: tuple[str, ...], planner_spec: PlannerSpec, run: dict, load_options: LoadOptions,
                 approval: dict, output: str) -> None:
    """Ask questions one after another about the logs at PATH..., loaded once.

    Questions come from the terminal (with line editing and history) or from stdin, one per line. A follow-up
    ("how many of those ...", "of them", "among those") starts from the previous answer's rows. Commands:
    /reset, /show, /json, /help, /quit. Exit 0, or 1 when a piped question was not answered.

    \b
    Examples:
      react-engine chat /var/log/syslog
      printf 'how many errors?\\nhow many of those are from sshd?\\n' | react-engine chat /var/log/syslog
    """
    interactive = sys.stdin.isatty()
    with cli_engine(planner_spec, run, approval) as engine:
        session = ChatSession(engine, paths, now=run["now"], load_options=load_options)
        for warning in session.frame.attrs.get("warnings", []):
            note(f"warning: {warning}")
        if interactive:
            note(f"{len(session.frame):,} rows loaded; ask a question, or /help")
        all_answered = _converse(session, _terminal_lines() if interactive else _piped_lines(), output)
    retain_traces(run)
    sys.exit(0 if interactive or all_answered else 1)


COMMANDS = [chat_command]
