"""The `react-engine` entry point: Ctrl-C handling comes first, before the heavy imports."""

from __future__ import annotations

import os
import signal

INTERRUPTED = 130


def _quit_during_startup(signum: int, frame: object) -> None:
    """Ctrl-C before the command runs: leave at once, quietly, with the usual exit code."""
    os.write(2, b"\ninterrupted\n")
    os._exit(INTERRUPTED)


signal.signal(signal.SIGINT, _quit_during_startup)  # first of all: every import after it may take long under load

import atexit  # noqa: E402
import sys  # noqa: E402
import threading  # noqa: E402


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


def _interrupted() -> None:
    """End a run on Ctrl-C: one line, exit code 130, no thread join (a reader blocked on stdin) and no interpreter
    rule making it SIGINT; a second Ctrl-C meanwhile leaves at once."""
    signal.signal(signal.SIGINT, _quit_during_startup)
    print("\ninterrupted", file=sys.stderr)
    _leave(INTERRUPTED)


def _interrupted_where_it_cannot_raise(unraisable: sys.UnraisableHookArgs) -> None:
    """Ctrl-C that lands where Python cannot raise (a finalizer, a callback from native code, such as pydantic-core
    building a validator) would be printed as an ignored exception with a traceback, and lost: end the run instead,
    as anywhere else. Other unraisable errors are reported as usual."""
    if issubclass(unraisable.exc_type, KeyboardInterrupt):
        _interrupted()
    sys.__unraisablehook__(unraisable)


def environment_defaults() -> None:
    """Settings the command makes before its heavy imports, each unless the user set it (even empty):

    - PYDANTIC_DISABLE_PLUGINS: the command line uses no pydantic plugins, and looking for them reads the entry
      points of every installed package (about 25 ms of CPU per command).
    - NUMPY_MADVISE_HUGEPAGE=0: NumPy asks for transparent huge pages on large arrays; where the kernel then
      compacts memory to find them (THP `defrag=madvise`, the common default) a fresh 200 MB array cost 0.3-0.5 s
      of CPU instead of 0.03 s, about 0.5 s of a cached ask on 10M lines.
    - OPENBLAS_NUM_THREADS=1: nothing here does linear algebra, and starting OpenBLAS's thread pool when NumPy is
      imported cost 0.05-0.13 s of CPU per command on a 2-core machine.
    - JE_ARROW_MALLOC_CONF: pyarrow's jemalloc gives freed memory back at once (see `logs.arrow.prefer_jemalloc`),
      in every arena and without first marking it lazily free (`muzzy`, which the process keeps counting): the
      arenas made when pyarrow starts are set only from here. A first ask peaked 13 MB lower over 1M OpenSSH lines
      (318 MB against 331 MB, means of six runs each, for the same CPU time) and 24 MB lower over 500k OpenStack
      lines (420 MB against 444 MB, for 0.1 s more: the pages given back are faulted in again).
    """
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
    os.environ.setdefault("NUMPY_MADVISE_HUGEPAGE", "0")
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    os.environ.setdefault("JE_ARROW_MALLOC_CONF", "dirty_decay_ms:0,muzzy_decay_ms:0")


def main() -> None:
    """Run the command line; Ctrl-C at any moment ends with exit code 130 and no traceback."""
    environment_defaults()
    sys.unraisablehook = _interrupted_where_it_cannot_raise
    try:
        from react_engine.app.cli import main as cli

        signal.signal(signal.SIGINT, signal.default_int_handler)  # from here on Ctrl-C ends a run cleanly
        cli(prog_name="react-engine")
    except KeyboardInterrupt:
        _interrupted()
    except SystemExit as done:
        if done.code == INTERRUPTED:
            _leave(INTERRUPTED)
        if done.code is None or isinstance(done.code, int):
            _finish(done.code)
        raise
    except Exception as exc:
        if _from_ctrl_c(exc):  # Ctrl-C inside a class's creation (`__set_name__`) is raised as a RuntimeError
            _interrupted()
        raise


def _from_ctrl_c(exc: BaseException) -> bool:
    """Whether `exc` was caused by a KeyboardInterrupt (through its cause or context chain)."""
    seen: set[int] = set()
    cause: BaseException | None = exc
    while cause is not None and id(cause) not in seen:
        if isinstance(cause, KeyboardInterrupt):
            return True
        seen.add(id(cause))
        cause = cause.__cause__ or cause.__context__
    return False


if __name__ == "__main__":
    main()
