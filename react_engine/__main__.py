"""The `react-engine` entry point: Ctrl-C handling comes first, before the heavy imports."""

from __future__ import annotations

import atexit
import os
import signal
import sys
import threading

INTERRUPTED = 130


def _quit_during_startup(signum: int, frame: object) -> None:
    """Ctrl-C before the command runs: leave at once, quietly, with the usual exit code."""
    os.write(2, b"\ninterrupted\n")
    os._exit(INTERRUPTED)


signal.signal(signal.SIGINT, _quit_during_startup)


def _leave(code: int) -> None:
    """Exit with `code` now, the output flushed: no thread join and no interpreter teardown."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(code)


def _finish(code: int | None) -> None:
    """End a command that exited with `code`: the exit handlers run (trace exporters, clusters) and the output is
    flushed, but the interpreter is not torn down object by object (about 0.13 s of CPU after an ask on 1M
    lines), unless a thread that is not a daemon must be waited for."""
    if any(not t.daemon and t is not threading.main_thread() for t in threading.enumerate()):
        return
    atexit._run_exitfuncs()
    _leave(code or 0)


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
        _leave(INTERRUPTED)  # no thread join (a reader blocked on stdin), no interpreter rule making it SIGINT
    except SystemExit as done:
        if done.code == INTERRUPTED:
            _leave(INTERRUPTED)
        if done.code is None or isinstance(done.code, int):
            _finish(done.code)
        raise


if __name__ == "__main__":
    main()
