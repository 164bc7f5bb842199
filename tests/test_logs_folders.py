"""Folders and globs: only log files are taken from folders, --glob/--exclude choose, each file is read once."""

from __future__ import annotations

import fnmatch
import os
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st
from real_logs import HOW_TO_RUN, REAL_LOGS

from react_engine import Engine
from react_engine.app.cli import main
from react_engine.errors import InputError
from react_engine.logs import LoadOptions, folders, load
from react_engine.logs.folders import is_log_name
from react_engine.logs.globs import compile_glob, matches
from react_engine.planners.rules import RulesPlanner

NO_CACHE = LoadOptions(use_cache=False)
LOG = "".join(f"2025-11-20 10:00:{i:02d},000 {'ERROR' if i % 3 == 0 else 'INFO'} [main] app: disk check\n"
              for i in range(30))
LOG_ERRORS = 10


def _folder(root: Path) -> Path:
    """A log with its structured CSV, a README and SHA256SUMS, as the loghub folders hold them."""
    root.mkdir(exist_ok=True)
    (root / "app.log").write_text(LOG)
    (root / "app.log_structured.csv").write_text("LineId,Level,Content\n" + "".join(
        f"{i},ERROR,ERROR disk full\n" for i in range(40)))
    (root / "README.md").write_text("# App logs\n\nERROR lines mean the disk is full.\n" * 5)
    (root / "SHA256SUMS").write_text(f"{'0' * 64}  app.log\n{'1' * 64}  app.log_structured.csv\n")
    return root


def test_folder_reads_only_the_log_and_notes_the_rest(tmp_path: Path) -> None:
    frame = load(_folder(tmp_path / "logs"), NO_CACHE)
    assert {Path(s).name for s in frame["source"]} == {"app.log"}
    assert (frame["severity"] == "error").sum() == LOG_ERRORS
    notes = [w for w in frame.attrs["warnings"] if w.startswith("skipped 3 files")]
    assert len(notes) == 1 and "README.md" in notes[0] and "SHA256SUMS" in notes[0]
    assert "app.log_structured.csv" in notes[0]


def test_question_on_a_folder_counts_only_the_log(tmp_path: Path) -> None:
    result = Engine(RulesPlanner()).ask("How many errors?", [str(_folder(tmp_path / "logs"))], load_options=NO_CACHE)
    assert result.value == LOG_ERRORS and result.verified


def test_a_non_log_file_named_explicitly_is_read(tmp_path: Path) -> None:
    folder = _folder(tmp_path / "logs")
    frame = load([folder / "README.md"], NO_CACHE)
    assert len(frame) == 15 and not frame.attrs["warnings"]


def test_the_names_rule_is_compiled_when_a_folder_is_first_walked(tmp_path: Path) -> None:
    folder = _folder(tmp_path / "logs")
    folders._not_logs.cache_clear()
    assert len(load([folder / "app.log"], NO_CACHE)) == 30
    assert folders._not_logs.cache_info().currsize == 0  # a file named: no name is judged
    assert {Path(s).name for s in load(folder, NO_CACHE)["source"]} == {"app.log"}
    assert folders._not_logs.cache_info().currsize == 1


def test_glob_chooses_files_and_replaces_the_log_rule(tmp_path: Path) -> None:
    folder = _folder(tmp_path / "logs")
    frame = load(folder, LoadOptions(use_cache=False, glob=["*.csv"]))
    assert {Path(s).name for s in frame["source"]} == {"app.log_structured.csv"}
    both = load(folder, LoadOptions(use_cache=False, glob=["*.csv", "*.log"]))
    assert {Path(s).name for s in both["source"]} == {"app.log", "app.log_structured.csv"}


def test_exclude_leaves_out_files_in_folders_and_globs(tmp_path: Path) -> None:
    (tmp_path / "old").mkdir()
    (tmp_path / "new.log").write_text(LOG)
    (tmp_path / "old" / "old.log").write_text(LOG)
    by_name = load(tmp_path, LoadOptions(use_cache=False, exclude=["old.*"]))
    assert {Path(s).name for s in by_name["source"]} == {"new.log"}
    by_path = load(str(tmp_path / "**" / "*.log"), LoadOptions(use_cache=False, exclude=["old/**"]))
    assert {Path(s).name for s in by_path["source"]} == {"new.log"}
    with pytest.raises(InputError, match="no log files"):
        load(tmp_path, LoadOptions(use_cache=False, exclude=["*.log"]))


def test_folder_of_only_non_logs_is_a_clear_error(tmp_path: Path) -> None:
    (tmp_path / "README.md").write_text("hello\n")
    with pytest.raises(InputError, match=r"no log files to read: skipped 1 files .*README\.md.*--glob") as caught:
        load(tmp_path, NO_CACHE)
    assert "\n" not in str(caught.value)


def test_symlink_loop_in_a_recursive_glob_loads_the_file_once(tmp_path: Path) -> None:
    sub = tmp_path / "d" / "sub"
    sub.mkdir(parents=True)
    (tmp_path / "d" / "app.log").write_text(LOG)
    (sub / "up").symlink_to("..")
    (sub / "up2").symlink_to("../..")
    for paths in ([str(tmp_path / "d" / "**" / "*.log")], [str(tmp_path / "d")]):
        frame = load(paths, NO_CACHE)
        assert len(frame) == 30 and len(frame.attrs["files"]) == 1


def test_the_same_file_spelled_twice_is_read_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "app.log").write_text(LOG)
    (tmp_path / "link.log").symlink_to(tmp_path / "app.log")
    monkeypatch.chdir(tmp_path)
    frame = load(["app.log", str(tmp_path / "app.log"), "./app.log", "link.log", str(tmp_path)], NO_CACHE)
    assert len(frame) == 30 and frame["source"].nunique() == 1


def test_cli_glob_and_exclude_options(tmp_path: Path) -> None:
    folder = _folder(tmp_path / "logs")
    runner = CliRunner()
    csv = runner.invoke(main, ["inspect", "--no-cache", "--glob", "*.csv", str(folder)])
    assert csv.exit_code == 0 and "app.log_structured.csv" in csv.output
    assert "skipped" not in csv.output
    default = runner.invoke(main, ["inspect", "--no-cache", str(folder)])
    assert default.exit_code == 0 and "skipped 3 files" in default.output and "rows:       30" in default.output
    excluded = runner.invoke(main, ["inspect", "--no-cache", "--exclude", "app.log", str(folder)])
    assert excluded.exit_code == 1 and "no log files" in excluded.output


@pytest.mark.skipif(not REAL_LOGS.is_dir(), reason=HOW_TO_RUN)
def test_real_loghub_folder_counts_only_the_logs() -> None:
    logs = sorted(REAL_LOGS.glob("*/*.log"))
    expected = sum(int((load(path, NO_CACHE)["severity"] == "error").sum()) for path in logs)
    frame = load(REAL_LOGS, NO_CACHE)
    assert sorted(Path(s) for s in frame["source"].unique()) == logs
    assert (frame["severity"] == "error").sum() == expected
    assert any(w.startswith("skipped") and "SHA256SUMS" in w for w in frame.attrs["warnings"])


@pytest.mark.parametrize("name", ["README", "README-loghub.md", "LICENSE-loghub", "SHA256SUMS", "x.log_structured.csv",
                                  "notes.MD", "README.md.gz", "logs.tar.gz", "x.sha256", "run.py", "dump.pcap"])
def test_names_that_are_not_logs(name: str) -> None:
    assert not is_log_name(name)


@pytest.mark.parametrize("name", ["app.log", "app.log.1", "app.log.gz", "messages", "syslog", "eventlog.txt",
                                  "events.jsonl", "changes.log", "catalina.out", "access_log"])
def test_names_that_are_logs(name: str) -> None:
    assert is_log_name(name)


NAME = st.text(st.sampled_from("ab.-_x*?[]!"), min_size=1, max_size=8)


@given(NAME.filter(lambda p: p.count("[") == p.count("]")), st.text(st.sampled_from("ab.-_x"), min_size=1,
                                                                      max_size=8))
def test_glob_on_one_name_agrees_with_fnmatch(pattern: str, name: str) -> None:
    expected = fnmatch.fnmatchcase(name, pattern) and not (name.startswith(".") and not pattern.startswith("."))
    assert (compile_glob(pattern).fullmatch(name) is not None) == expected


def test_double_star_matches_any_depth_but_star_stays_in_one_folder() -> None:
    assert matches("a/**/*.log", "a/x.log") and matches("a/**/*.log", "a/b/c/x.log")
    assert not matches("a/*.log", "a/b/x.log")
    assert matches("*.log", "deep/in/x.log")  # no slash: the name alone
    assert not matches("a/**/*.log", "a/.hidden/x.log")


def test_fifo_in_a_folder_is_skipped_without_blocking(tmp_path: Path) -> None:
    (tmp_path / "app.log").write_text(LOG)
    os.mkfifo(tmp_path / "pipe.log")
    frame = load(tmp_path, NO_CACHE)
    assert len(frame) == 30
    assert any("skipped 1 files" in w and "pipe.log" in w for w in frame.attrs["warnings"])
