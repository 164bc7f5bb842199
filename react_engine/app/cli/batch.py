"""`react-engine batch QUERIES --logs PATH... --out results.jsonl`"""

from __future__ import annotations

import sys
from pathlib import Path

import click
from tqdm import tqdm

from react_engine.app.batches import BatchItem, BatchSummary, load_queries, run_batch
from react_engine.app.cli.common import approval_options, cli_engine, retain_traces, run_options
from react_engine.app.cli.flags import load_options, planner_options
from react_engine.app.cli.terminal import note, quiet_option
from react_engine.contract.record import RunResult
from react_engine.logs.options import LoadOptions
from react_engine.loop.frames import FrameCache
from react_engine.planners.factory import PlannerSpec

QUESTION_SHOWN = 60
"""Characters of a question a progress line shows."""


def _cut(question: str) -> str:
    """The question on one line, cut to QUESTION_SHOWN characters, quoted."""
    text = " ".join(question.split())
    return repr(text if len(text) <= QUESTION_SHOWN else text[:QUESTION_SHOWN - 1] + "…")


class _Progress:
    """A tqdm bar (done/total, ETA, stop-reason counts) on a terminal; one plain line per result otherwise."""

    def __init__(self, total: int) -> None:
        self.total = total
        self.bar: tqdm | None = None

    def __call__(self, item: BatchItem, result: RunResult, summary: BatchSummary) -> None:
        if sys.stderr.isatty():
            if self.bar is None:
                self.bar = tqdm(total=self.total, initial=summary.skipped + summary.written - 1, unit="q",
                                dynamic_ncols=True)
            self.bar.update(1)
            self.bar.set_postfix(summary.outcomes, refresh=True)
        else:
            done = summary.skipped + summary.written
            why = f": {result.message}" if result.stop_reason == "error" and result.message else ""
            note(f"[{done}/{self.total}] {_cut(item.question)} {result.stop_reason} "
                 f"{result.statistics.execution_time_seconds:.2f}s{why}")

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


def _allowed(queries: str, allow_logs: tuple[str, ...]) -> list[Path]:
    """The folders a batch file's own `logs` may read: the file's, the current one and those allowed by flag."""
    here = Path.cwd()
    return [here if queries == "-" else Path(queries).parent.resolve(), here, *(Path(d).resolve() for d in allow_logs)]


def _report(summary: BatchSummary) -> str:
    where = "stdout" if summary.out == "-" else summary.out
    if summary.total and summary.skipped == summary.total:
        return (f"all {summary.total} questions were already answered in {where}: nothing to do "
                "(pass another --out to ask them again)")
    lines = [f"{summary.written} written now, {summary.skipped} already in {where}, {summary.remaining} left of "
             f"{summary.total}" + (f"; {summary.retried} retries" if summary.retried else ""),
             "outcomes: " + ", ".join(f"{k} {v}" for k, v in summary.outcomes.items())]
    lines.extend(f"hint: {hint}" for hint in summary.hints)
    if summary.refused:
        lines.append("hint: a refusal has no tool result behind its answer: rephrase those questions "
                     "or use a model planner")
    if summary.interrupted:
        lines.append("interrupted: run the same command again to resume")
    return "\n".join(lines)


@click.command("batch")
@click.argument("queries", type=click.Path(dir_okay=False, allow_dash=True))
@click.argument("more_logs", nargs=-1, metavar="[PATH]...")
@click.option("--logs", multiple=True, metavar="PATH", help="Logs every question is asked of (loaded once).")
@click.option("--out", required=True, type=click.Path(dir_okay=False, allow_dash=True),
              help="Results, one JSON line each (- for stdout); questions already in it are skipped (resume).")
@click.option("--allow-logs", "allow_logs", multiple=True, metavar="DIR", type=click.Path(file_okay=False),
              help="A folder the file's own `logs` may read from, besides the file's folder and the current one; "
                   "repeatable.")
@click.option("--retries", type=click.IntRange(0, 10), default=2, show_default=True,
              help="Retries of a question whose run failed in transport (the model server).")
@click.option("--backoff", type=click.FloatRange(0), default=1.0, show_default=True,
              help="Seconds before the first retry; doubled (with jitter) for each further one.")
@planner_options
@run_options
@load_options
@approval_options
@quiet_option
def batch_command(queries: str, more_logs: tuple[str, ...], logs: tuple[str, ...], out: str,
                  allow_logs: tuple[str, ...], retries: int, backoff: float, planner_spec: PlannerSpec, run: dict, load_options: LoadOptions,
                  approval: dict) -> None:
    """Answer every question in QUERIES (text: one per line; JSONL; YAML with `id`, `question`, `logs`; - for stdin).

    Logs come from --logs (further paths may follow QUERIES); YAML items may name their own, relative to the
    file, under the file's folder, the current one or an --allow-logs folder (others are refused, item by item). Exit 0 when every question ran to a stop reason other than `error`, 1 when some ended in `error` (after
    the retries), 130 when interrupted.

    \b
    Examples:
      react-engine batch questions.txt --logs /var/log/syslog --out results.jsonl
      printf 'how many errors?\\nwhich hosts?\\n' | react-engine batch - --logs app.log --out - | jq .answer
    """
    items = load_queries(queries)
    paths = list(logs) + list(more_logs)
    frames = FrameCache(load_options)
    if paths:
        frames.load(paths)  # fail fast, with the loader's message, on unusable logs
    progress = _Progress(len(items))
    with cli_engine(planner_spec, run, approval) as engine:
        try:
            summary = run_batch(engine, items, out, logs=paths, frames=frames, now=run["now"], retries=retries,
                                backoff=backoff, on_result=progress, allowed=_allowed(queries, allow_logs))
        finally:
            progress.close()
    retain_traces(run)
    note(_report(summary))
    sys.exit(130 if summary.interrupted else 1 if summary.counts.get("error") else 0)


COMMANDS = [batch_command]
