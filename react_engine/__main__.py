"""The `react-engine` entry point: Ctrl-C handling comes first, before the heavy imports."""

from __future__ import annotations

import os
import signal
import sys

INTERRUPTED = 130


def _quit_during_startup(signum: int, frame: object) -> None:
    """Ctrl-C before the command runs: leave at once, quietly, with the usual exit code."""
    os.write(2, b"\ninterrupted\n")
    os._exit(INTERRUPTED)


signal.signal(signal.SIGINT, _quit_during_startup)


def _leave_interrupted() -> None:
    """Exit 130 now: no thread join (a reader blocked on stdin) and no interpreter rule turning it into SIGINT."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(INTERRUPTED)


def skip_plugin_search() -> None:
    """The command line uses no pydantic plugins, and looking for them reads the entry points of every installed
    package (about 25 ms of CPU per command): skip it, unless PYDANTIC_DISABLE_PLUGINS is set (even empty)."""
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")


def main() -> None:
    """Run the command line; Ctrl-C at any moment ends with exit code 130 and no traceback."""
    skip_plugin_search()
    try:
        from react_engine.cli import main as cli

        signal.signal(signal.SIGINT, signal.default_int_handler)  # from here on Ctrl-C ends a run cleanly
        cli(prog_name="react-engine")
    except KeyboardInterrupt:
        signal.signal(signal.SIGINT, _quit_during_startup)
        print("\ninterrupted", file=sys.stderr)
        _leave_interrupted()
    except SystemExit as done:
        if done.code == INTERRUPTED:
            _leave_interrupted()
        raise


if __name__ == "__main__":
    main()
