"""`react-engine batch QUERIES --logs PATH... --out results.jsonl`"""

from __future__ import annotations

import sys

import click
from tqdm import tqdm

from react_engine.batch import BatchItem, BatchSummary, load_queries, run_batch
from react_engine.cli.common import approval_options, run_options, tracer_factory
from react_engine.cli.options import load_options, planner_options
from react_engine.engine import Engine
from react_engine.frames import FrameCache
from react_engine.logs.options import LoadOptions
from react_engine.planners.factory import PlannerSpec, make_planner
from react_engine.result import RunResult
from react_engine.settings import Settings


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
            self.bar.set_postfix(summary.counts, refresh=True)
        else:
            done = summary.skipped + summary.written
            click.echo(f"[{done}/{self.total}] {item.id} {result.stop_reason} "
                       f"{result.statistics.execution_time_seconds:.2f}s", err=True)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


def _report(summary: BatchSummary) -> str:
    lines = [f"{summary.written} answered now, {summary.skipped} already in {summary.out}, "
             f"{summary.remaining} left of {summary.total}" + (f"; {summary.retried} retries" if summary.retried else "")]
    if summary.counts:
        lines.append("stop reasons: " + ", ".join(f"{k} {v}" for k, v in sorted(summary.counts.items())))
    lines.extend(f"hint: {hint}" for hint in summary.hints)
    if summary.interrupted:
        lines.append("interrupted: run the same command again to resume")
    return "\n".join(lines)


@click.command("batch")
@click.argument("queries", type=click.Path(dir_okay=False))
@click.argument("more_logs", nargs=-1, metavar="[PATH]...")
@click.option("--logs", multiple=True, metavar="PATH", help="Logs every question is asked of (loaded once).")
@click.option("--out", required=True, type=click.Path(dir_okay=False),
              help="Results, one JSON line each; questions already in it are skipped (resume).")
@click.option("--retries", type=click.IntRange(0, 10), default=2, show_default=True,
              help="Retries of a question whose run failed in transport (the model server).")
@click.option("--backoff", type=click.FloatRange(0), default=1.0, show_default=True,
              help="Seconds before the first retry; doubled for each further one.")
@planner_options
@run_options
@load_options
@approval_options
def batch_command(queries: str, more_logs: tuple[str, ...], logs: tuple[str, ...], out: str, retries: int,
                  backoff: float, planner_spec: PlannerSpec, run: dict, load_options: LoadOptions,
                  approval: dict) -> None:
    """Answer every question in QUERIES (text: one per line; JSONL; or YAML with `id`, `question`, `logs`).

    Logs come from --logs (further paths may follow QUERIES); YAML items may name their own, relative to the
    file. Exit 0 when every question ran to a stop reason other than `error`, 1 when some ended in `error` (after
    the retries), 130 when interrupted.
    """
    items = load_queries(queries)
    paths = list(logs) + list(more_logs)
    frames = FrameCache(load_options)
    if paths:
        frames.load(paths)  # fail fast, with the loader's message, on unusable logs
    planner, notice = make_planner(planner_spec)
    if notice:
        click.echo(notice, err=True)
    engine = Engine(planner, Settings(max_iterations=run["max_iterations"]),
                    tracer_factory=tracer_factory(run["trace_dir"], run["trace"]),
                    approver=approval["approver"], output_dir=approval["output_dir"])
    progress = _Progress(len(items))
    try:
        summary = run_batch(engine, items, out, logs=paths, frames=frames, now=run["now"], retries=retries,
                            backoff=backoff, on_result=progress)
    finally:
        progress.close()
        planner.close()
    click.echo(_report(summary), err=True)
    sys.exit(130 if summary.interrupted else 1 if summary.counts.get("error") else 0)


COMMANDS = [batch_command]
