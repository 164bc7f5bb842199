"""`react-engine trace show FILE` and `react-engine replay FILE`."""

from __future__ import annotations

import json
import sys

import click

from react_engine.replay import replay
from react_engine.text import cut
from react_engine.tracing import read_trace
from react_engine.tracing.timeline import Timeline, timeline


def _cut(text: str, width: int) -> str:
    return cut(" ".join(text.split()), width)


def render_timeline(view: Timeline) -> str:
    """The timeline as aligned text: one line per iteration, then the answer and the stop reason."""
    lines = [f"question: {view.question}",
             f"logs: {' '.join(view.paths) or '-'} · now: {view.now or '-'} · planner: {view.planner}"
             + (f" ({view.model})" if view.model else ""),
             f"{'it':>3}  {'action':<20} {'params':<36} {'summary':<44} {'ms':>8} {'tokens':>12}"]
    for row in view.rows:
        tokens = str(row.prompt_tokens or "-")
        if row.tokens_in or row.tokens_out:
            tokens += f" {row.tokens_in or 0}/{row.tokens_out or 0}"
        mark = "" if row.ok else "✗ "
        lines.append(f"{row.iteration:>3}  {_cut(row.action, 20):<20} {_cut(row.params, 36):<36} "
                     f"{_cut(mark + row.summary, 44):<44} {row.ms:>8.1f} {tokens:>12}")
    verified = {True: "verified", False: "unverified", None: "-"}[view.verified]
    lines += [f"answer: {view.answer}",
              f"value: {json.dumps(view.value, ensure_ascii=False, default=str)} · {verified}",
              f"stop: {view.stop_reason} · {len(view.rows)} iterations · {view.total_ms / 1000:.2f}s"
              f" · trace {view.trace_id}"]
    return "\n".join(lines)


@click.group("trace")
def trace_group() -> None:
    """Read recorded run traces."""


@trace_group.command("show")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--json", "as_json", is_flag=True, help="Print the timeline as JSON.")
def show_command(file: str, as_json: bool) -> None:
    """Show the run recorded in FILE as a timeline (tokens: prompt estimate, then model in/out)."""
    view = timeline(read_trace(file))
    click.echo(view.model_dump_json(indent=2) if as_json else render_timeline(view))


@click.command("replay")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--logs", "paths", multiple=True, help="Read the logs from here instead of the recorded paths.")
@click.option("--trace-dir", type=click.Path(file_okay=False), default=None,
              help="Also write the replayed run's trace here.")
@click.option("--json", "as_json", is_flag=True, help="Print the comparison as JSON.")
def replay_command(file: str, paths: tuple[str, ...], trace_dir: str | None, as_json: bool) -> None:
    """Re-run the question in trace FILE with its recorded replies; exit 1 when the actions or answer differ."""
    report = replay(file, paths=paths or None, trace_dir=trace_dir)
    if as_json:
        click.echo(report.model_dump_json(indent=2))
    else:
        for old, new in zip(report.recorded.actions, report.replayed.actions):
            click.echo(f"{'=' if old == new else '≠'} {new}")
        verdict = "same actions and answer" if report.identical else f"DIFFERENT: {report.first_difference}"
        click.echo(f"replayed {len(report.replayed.actions)} actions: {verdict}")
        click.echo(f"answer: {report.replayed.answer}")
    sys.exit(0 if report.identical else 1)


COMMANDS = [trace_group, replay_command]
