"""`react-engine inspect`: how each log file loads (format, rows, timestamps, time range, severities)."""

from __future__ import annotations

import json

import click
from click.core import ParameterSource

from react_engine.app.cli.flags import load_options
from react_engine.app.cli.terminal import out
from react_engine.logs.options import LoadOptions
from react_engine.logs.summary import FileReport, inspect


def _render(report: FileReport, title: str) -> list[str]:
    share = f" ({report.timestamp_parsed / report.rows:.1%})" if report.rows else ""
    span = f"{report.time_range.first} .. {report.time_range.last}" if report.time_range else "none"
    lines = [
        title,
        f"  format:     {report.format or 'skipped'}",
        f"  rows:       {report.rows}",
        f"  timestamps: {report.timestamp_parsed} parsed{share}",
        f"  time range: {span}" + _assumed(report.year_assumed),
        f"  severity:   {_severities(report)}",
        f"  columns:    {', '.join(report.columns)}",
        f"  numbers:    {_numbers(report)}",
    ]
    lines += _patterns(report)
    lines += [f"  warning:    {warning}" for warning in report.warnings]
    return lines


def _patterns(report: FileReport) -> list[str]:
    """Each pattern with fields, then its fields with their type, unit and examples."""
    lines = ["  patterns:   none with fields"] if not report.patterns else ["  patterns:"]
    for pattern in report.patterns:
        lines.append(f"    {pattern.template}  ({pattern.rows:,} lines)")
        lines += [f"      {f.name}: {f.type}{' (' + f.unit + ')' if f.unit else ''}, e.g. {', '.join(f.examples)}"
                  for f in pattern.fields]
    return lines


def _severities(report: FileReport) -> str:
    """The rows of each severity, and how many a rule inferred."""
    severities = ", ".join(f"{name} {count}" for name, count in report.severity_counts.items()) or "none"
    return severities + "".join(f"; {count:,} inferred by rule ({rule})"
                                for rule, count in report.severity_rules.items())


def _numbers(report: FileReport) -> str:
    """The numeric fields the messages carry, with their type, unit and rows."""
    return ", ".join(f"{f.name} ({f.type}{', ' + f.unit if f.unit else ''}; {f.rows:,} rows)"
                     for f in report.fields) or "none"


def _assumed(year: int | bool | None) -> str:
    """What the time range must say when the dates wrote no year."""
    if year is None:
        return ""
    return f" (year {year} assumed: the dates carry none)" if year is not True else " (years assumed: the dates carry none)"


@click.command("inspect")
@click.argument("paths", nargs=-1, required=True)
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@load_options
def inspect_command(paths: tuple[str, ...], as_json: bool, load_options: LoadOptions) -> None:
    """Show how each log file in PATH... loads: format, rows, timestamps, time range, severities, columns.

    \b
    Example:
      react-engine inspect sample_logs/
    """
    if click.get_current_context().get_parameter_source("dask_address") == ParameterSource.COMMANDLINE:
        raise click.UsageError("inspect reads the files in this process and takes no --dask; use --dask with ask, "
                               "batch, eval or chat")
    report = inspect(list(paths), load_options)  # a --dask from the environment or config is for those commands
    if as_json:
        out(json.dumps(report.to_json_dict(), indent=2))
        return
    blocks = [_render(f, f.path or "") for f in report.files] if report.files else [_render(report, report.path or "")]
    if report.files:
        blocks.append(_render(report, f"total ({len(report.files)} files)"))
    out("\n\n".join("\n".join(block) for block in blocks))


COMMANDS: list[click.Command] = [inspect_command]
