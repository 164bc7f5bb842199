"""`--help` and `--version` import none of the commands' heavy dependencies, and list every command truly."""

from __future__ import annotations

import os
import subprocess
import sys

import click
import pytest

from react_engine.app.cli import COMMANDS, main

HEAVY = ("pandas", "pyarrow", "numpy", "ollama", "httpx", "opentelemetry", "pydantic", "react_engine.loop.engine")
PROBE = """
import sys
from react_engine.app.cli import main
try:
    main([sys.argv[1]], prog_name="react-engine")
except SystemExit:
    pass
print(" ".join(sorted(m for m in sys.modules if m.split(".")[0] in {heavy})), file=sys.stderr)
"""


def _loaded_after(flag: str) -> tuple[str, list[str]]:
    heavy = {m.split(".")[0] for m in HEAVY} | {"react_engine"}
    done = subprocess.run([sys.executable, "-c", PROBE.format(heavy=heavy), flag], capture_output=True, text=True,
                          timeout=120, check=True)
    return done.stdout, done.stderr.split()


def test_help_and_version_stay_light() -> None:
    for flag in ("--help", "--version"):
        output, modules = _loaded_after(flag)
        assert output.strip()
        assert not [m for m in modules if m in HEAVY], (flag, modules)


def test_help_lists_every_command_with_its_own_help() -> None:
    # a context made as `main` makes its own (click caches the help option with the first context's names)
    listed = main.get_help(click.Context(main, info_name="react-engine", **main.context_settings))
    for name, (_, short) in COMMANDS.items():
        command = main.get_command(click.Context(main), name)
        assert command is not None and command.name == name
        assert short == command.get_short_help_str(10_000), name
        assert f"  {name} " in listed
    assert set(main.list_commands(click.Context(main))) == set(COMMANDS)


def test_ask_imports_no_model_client_or_tracing_until_chosen() -> None:
    probe = ("import sys, react_engine.app.cli.ask, react_engine.loop.engine, react_engine.planners.rules; "
             "print(' '.join(m for m in ('ollama', 'httpx', 'opentelemetry') if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, check=True)
    assert done.stdout.split() == []


@pytest.mark.parametrize(("name", "default"), [("PYDANTIC_DISABLE_PLUGINS", "__all__"),
                                              ("NUMPY_MADVISE_HUGEPAGE", "0"), ("OPENBLAS_NUM_THREADS", "1"),
                                              ("JE_ARROW_MALLOC_CONF", "dirty_decay_ms:0,muzzy_decay_ms:0")])
def test_the_command_line_sets_its_environment_defaults_unless_told_otherwise(name: str, default: str) -> None:
    probe = ("import atexit, os, sys\nsys.argv = ['react-engine', '--version']\nfrom react_engine.__main__ import main\n"
             f"atexit.register(lambda: os.write(1, repr(os.environ.get({name!r})).encode()))\n"
             "main()")
    env = {k: v for k, v in os.environ.items() if k != name}
    for given, expected in ((None, repr(default)), ("", "''"), ("1", "'1'")):
        done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, check=True,
                              env=env if given is None else {**env, name: given})
        assert done.stdout.strip().splitlines()[-1] == expected


def test_a_command_ends_with_its_exit_code_after_the_exit_handlers_ran() -> None:
    probe = ("import atexit, os, sys\natexit.register(lambda: os.write(2, b'handlers ran'))\n"
             "sys.argv = ['react-engine', *sys.argv[1:]]\nfrom react_engine.__main__ import main\nmain()")
    for args, code in ((["--version"], 0), (["--no-such-option"], 2), (["ask", "How many lines?", "/no/such/log"], 1)):
        done = subprocess.run([sys.executable, "-c", probe, *args], capture_output=True, text=True, timeout=120)
        assert done.returncode == code, (args, done.stderr)
        assert done.stderr.endswith("handlers ran"), args
        assert (args != ["--version"]) or done.stdout.strip()


@pytest.mark.parametrize("enabled", [True, False])
def test_a_command_is_imported_without_collecting_and_the_collector_is_left_as_found(enabled: bool) -> None:
    probe = ("import gc, sys, click\nfrom react_engine.app.cli import main\n"
             f"{'' if enabled else 'gc.disable()'}\nruns = []\n"
             "gc.callbacks.append(lambda phase, info: runs.append(phase))\n"
             "assert 'pandas' not in sys.modules\n"
             "main.get_command(click.Context(main), 'ask')\n"
             "print('pandas' in sys.modules, len(runs), gc.isenabled(), gc.get_freeze_count() > 10_000)")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, check=True)
    assert done.stdout.split() == ["True", "0", str(enabled), str(enabled)]
