"""The shape the code keeps: small modules, simple functions, and the stages of a question as folders."""

from __future__ import annotations

from pathlib import Path

import pytest

radon = pytest.importorskip("radon.complexity", reason="radon (a dev dependency) measures complexity")

PACKAGE = Path(__file__).resolve().parents[1] / "react_engine"
MAX_LINES = 400
MAX_COMPLEXITY = 15
STAGES = ("app", "loop", "tracing", "planners", "answer", "compile", "contract", "question", "tools", "dask", "rows",
          "logs", "lexicon")  # top down, as the import contract in pyproject.toml orders them
ROOT_MODULES = {"__init__.py", "__main__.py", "errors.py", "settings.py"}


def _modules(*folders: str) -> list[Path]:
    return sorted(p for folder in folders or ("",) for p in (PACKAGE / folder).rglob("*.py"))


def test_no_module_is_over_400_lines() -> None:
    long = {str(p.relative_to(PACKAGE)): n for p in _modules() if (n := len(p.read_text().splitlines())) > MAX_LINES}
    assert long == {}


def test_no_function_is_over_complexity_15() -> None:
    complex_ = {f"{p.relative_to(PACKAGE)}:{block.fullname}": block.complexity
                for p in _modules() for block in radon.cc_visit(p.read_text())
                if block.complexity > MAX_COMPLEXITY}
    assert complex_ == {}


def test_the_package_is_its_stages_and_no_module_name_is_used_twice() -> None:
    folders = {p.name for p in PACKAGE.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    assert folders == set(STAGES)
    assert {p.name for p in PACKAGE.glob("*.py")} == ROOT_MODULES
    names = [p.name for p in _modules() if p.name != "__init__.py"]
    assert sorted(n for n in set(names) if names.count(n) > 1) == []


def test_plain_pytest_collects_the_tests_that_import_shared_helpers() -> None:
    # `pytest` (the script) puts its own folder on sys.path, not the current one as `python -m pytest` does:
    # -P leaves the current folder out the same way
    import subprocess
    import sys

    root = PACKAGE.parent
    done = subprocess.run([sys.executable, "-P", "-m", "pytest", "--collect-only", "-q", "-n", "0", "-p",
                           "no:cacheprovider", "tests/test_unusual.py"], cwd=root, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0 and "test_unusual.py" in done.stdout, done.stdout[-2000:]
