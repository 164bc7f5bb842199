"""`react-engine trace show|list|prune` and `react-engine replay FILE`."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from react_engine.app.cli.terminal import out, out_json
from react_engine.app.housekeeping import find_trace, prune_traces, recent_traces, trace_files
from react_engine.app.replay import replay
from react_engine.rows.snippets import cut
from react_engine.tracing import default_trace_dir, read_trace
from react_engine.tracing.trace_timeline import Timeline, TimelineRow, timeline


def _cut(text: str, width: int) -> str:
    return cut(" ".join(text.split()), width)


def _directory(trace_dir: str | None) -> Path:
    return Path(trace_dir) if trace_dir else default_trace_dir()


def render_timeline(view: Timeline) -> str:
    """The timeline as aligned text: one line per iteration, then the answer and the stop reason."""
    lines = [f"question: {view.question}",
             f"logs: {' '.join(view.paths) or '-'} · now: {view.now or '-'} · planner: {view.planner}"
             + (f" ({view.model})" if view.model else ""),
             f"{'it':>3}  {'action':<20} {'params':<36} {'summary':<44} {'ms':>8} {'tokens':>12}"]
    by = None if len({row.planner for row in view.rows}) < 2 else ""  # label each planner's turn when two took part
    for row in view.rows:
        if by is not None and row.planner != by:
            by = row.planner
            lines.append(f"     — the {by} planner —")
        lines.append(_row_line(row))
    verified = {True: "verified", False: "unverified", None: "-"}[view.verified]
    lines += [f"answer: {view.answer}",
              f"value: {json.dumps(view.value, ensure_ascii=False, default=str)} · {verified}",
              f"stop: {view.stop_reason} · {len(view.rows)} iterations · {view.total_ms / 1000:.2f}s"
              f" · trace {view.trace_id}"]
    return "\n".join(lines)


def _row_line(row: TimelineRow) -> str:
    """One iteration of the timeline (tokens: the prompt's estimate, then the model's in/out)."""
    tokens = str(row.prompt_tokens or "-")
    if row.tokens_in or row.tokens_out:
        tokens += f" {row.tokens_in or 0}/{row.tokens_out or 0}"
    mark = "" if row.ok else "✗ "
    return (f"{row.iteration:>3}  {_cut(row.action, 20):<20} {_cut(row.params, 36):<36} "
            f"{_cut(mark + row.summary, 44):<44} {row.ms:>8.1f} {tokens:>12}")


@click.group("trace")
def trace_group() -> None:
    """Read recorded run traces.

    \b
    Example:
      react-engine trace list -n 3 && react-engine trace show 0123456789ab
    """


@trace_group.command("show")
@click.argument("trace", metavar="TRACE")
@click.option("--trace-dir", type=click.Path(file_okay=False), default=None, envvar="REACT_ENGINE_TRACE_DIR",
              help="Where to look for TRACE when it is not a path (default: the user data dir).")
@click.option("--json", "as_json", is_flag=True, help="Print the timeline as JSON.")
def show_command(trace: str, trace_dir: str | None, as_json: bool) -> None:
    """Show the run recorded in TRACE as a timeline (tokens: prompt estimate, then model in/out).

    TRACE is a trace file's path, or the file name or trace id (or its start) that `trace list` prints.

    \b
    Examples:
      react-engine trace show 20261120T120000Z-0123456789abcdef.json
      react-engine trace show 0123456789ab
    """
    view = timeline(read_trace(find_trace(trace, _directory(trace_dir))))
    if as_json:
        out_json(view.model_dump_json(indent=2))
    else:
        out(render_timeline(view))


@trace_group.command("list")
@click.option("-n", "--limit", type=click.IntRange(1), default=20, show_default=True, help="How many runs.")
@click.option("--trace-dir", type=click.Path(file_okay=False), default=None, envvar="REACT_ENGINE_TRACE_DIR",
              help="Where the traces are (default: the user data dir).")
@click.option("--json", "as_json", is_flag=True, help="Print the runs as JSON lines.")
def list_command(limit: int, trace_dir: str | None, as_json: bool) -> None:
    """List the most recent runs, newest first: start time, stop reason, question, answer and file.

    \b
    Example:
      react-engine trace list -n 5
    """
    for entry in recent_traces(_directory(trace_dir), limit):
        if as_json:
            out_json(entry.model_dump_json())
        else:
            out(f"{entry.started}  {entry.stop_reason:<14} {_cut(entry.question, 40):<40}  "
                f"{_cut(entry.answer, 40):<40}  {entry.path}")


@trace_group.command("prune")
@click.option("--keep", type=click.IntRange(0), default=None, help="Keep only the newest N traces.")
@click.option("--older-than", "older_than", type=click.FloatRange(0, min_open=True), default=None, metavar="DAYS",
              help="Delete traces older than DAYS days.")
@click.option("--trace-dir", type=click.Path(file_okay=False), default=None, envvar="REACT_ENGINE_TRACE_DIR",
              help="Where the traces are (default: the user data dir).")
def prune_command(keep: int | None, older_than: float | None, trace_dir: str | None) -> None:
    """Delete old traces. Set `trace_keep` / `trace_max_age_days` in the config file to prune after every run.

    \b
    Example:
      react-engine trace prune --keep 100 --older-than 30
    """
    if keep is None and older_than is None:
        raise click.UsageError("say what to delete: --keep N and/or --older-than DAYS")
    directory = _directory(trace_dir)
    deleted = prune_traces(directory, keep, older_than)
    out(f"deleted {len(deleted)} traces from {directory}; {len(trace_files(directory))} left")


@click.command("replay")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--logs", "paths", multiple=True, help="Read the logs from here instead of the recorded paths.")
@click.option("--trace-dir", type=click.Path(file_okay=False), default=None,
              help="Also write the replayed run's trace here.")
@click.option("--json", "as_json", is_flag=True, help="Print the comparison as JSON.")
def replay_command(file: str, paths: tuple[str, ...], trace_dir: str | None, as_json: bool) -> None:
    """Re-run the question in trace FILE with its recorded replies; exit 1 when the actions or answer differ.

    \b
    Example:
      react-engine replay run.json --logs sample_logs/cmts/
    """
    report = replay(file, paths=paths or None, trace_dir=trace_dir)
    if as_json:
        out_json(report.model_dump_json(indent=2))
    else:
        for number, question in enumerate(report.replayed_first, 1):
            out(f"(follows question {number} of its chat, replayed first: {question})")
        for old, new in zip(report.recorded.actions, report.replayed.actions):
            out(f"{'=' if old == new else '≠'} {new}")
        verdict = "same actions and answer" if report.identical else f"DIFFERENT: {report.first_difference}"
        out(f"replayed {len(report.replayed.actions)} actions: {verdict}")
        out(f"answer: {report.replayed.answer}")
    sys.exit(0 if report.identical else 1)


COMMANDS = [trace_group, replay_command]
