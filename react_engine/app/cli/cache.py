"""`react-engine cache info|clear`: the parsed-frame cache."""

from __future__ import annotations

import click

from react_engine.app.cli.terminal import out
from react_engine.app.housekeeping import cache_usage, clear_cache


def _size(n: int) -> str:
    size = float(n)
    for unit in ("B", "KB", "MB"):
        if size < 1024:
            return f"{size:,.0f} B" if unit == "B" else f"{size:,.1f} {unit}"
        size /= 1024
    return f"{size:,.1f} GB"


@click.group("cache")
def cache_group() -> None:
    """The parsed-frame cache that makes a second question about the same logs fast.

    \b
    Example:
      react-engine cache info
    """


@cache_group.command("info")
@click.option("--json", "as_json", is_flag=True, help="Print the usage as JSON.")
def info_command(as_json: bool) -> None:
    """Where the cache is, how many entries it holds and how big it is.

    \b
    Example:
      react-engine cache info --json
    """
    usage = cache_usage()
    if as_json:
        out(usage.model_dump_json(indent=2))
        return
    out(f"path:    {usage.path}\nentries: {usage.entries}\nsize:    {_size(usage.bytes)} "
        f"(least recently used entries are evicted past {_size(usage.limit_bytes)})")
    if usage.temp_files:
        out(f"temporary files: {usage.temp_files} ({_size(usage.temp_bytes)}), from writes that were interrupted or "
            "are in progress; the next load that writes the cache deletes the stale ones")


@cache_group.command("clear")
def clear_command() -> None:
    """Delete every cache entry (logs are parsed again on next use).

    \b
    Example:
      react-engine cache clear
    """
    freed = clear_cache()
    out(f"deleted {freed.entries} entries ({_size(freed.bytes)}) from {freed.path}")


COMMANDS = [cache_group]
