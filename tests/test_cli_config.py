"""Config file, env and flags (in that order of strength); trace list and retention; cache info|clear; completion."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from react_engine.app.cli import main
from react_engine.app.housekeeping import prune_traces
from react_engine.app.userconfig import config_path, sources

ROOT = Path(__file__).resolve().parents[1]
SYSLOG = ROOT / "sample_logs" / "syslog" / "messages"


@pytest.fixture(autouse=True)
def _isolated(cli_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OLLAMA_HOST", "127.0.0.1:9")  # nothing listens: auto would fall back with a notice


def write_config(text: str) -> Path:
    path = config_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def invoke(*args: str, **kwargs):
    return CliRunner().invoke(main, list(args), **kwargs)


def test_config_path_follows_xdg_config_home(tmp_path: Path) -> None:
    assert invoke("config", "path").stdout.strip() == str(tmp_path / "config" / "react-engine" / "config.toml")


def test_the_file_sets_defaults_env_overrides_it_and_flags_override_both(monkeypatch: pytest.MonkeyPatch) -> None:
    write_config('planner = "rules"\noutput = "csv"\n')
    ask = ("ask", "how many lines are there?", str(SYSLOG), "--no-trace")
    from_file = invoke(*ask)
    assert from_file.exit_code == 0 and from_file.stdout.splitlines() == ["value", "4200"]
    assert "rules planner" not in from_file.stderr  # planner = "rules": no Ollama probe, no fallback notice
    monkeypatch.setenv("REACT_ENGINE_OUTPUT", "json")
    assert json.loads(invoke(*ask).stdout)["value"] == 4200
    assert invoke(*ask, "--output", "table").stdout.split() == ["VALUE", "4,200"]
    effective = sources()
    assert effective["output"] == ("json", "env REACT_ENGINE_OUTPUT") and effective["planner"] == ("rules", "file")
    assert effective["model"] == ("qwen3:4b", "default") and effective["dask"] == (None, "default")


def test_config_show_lists_each_setting_with_its_source(monkeypatch: pytest.MonkeyPatch) -> None:
    write_config('model = "qwen3:8b"\ntrace_keep = 5\n')
    monkeypatch.setenv("REACT_ENGINE_PLANNER", "rules")
    shown = {line.split()[0]: line for line in invoke("config", "show").stdout.splitlines()[1:]}
    assert '"qwen3:8b"' in shown["model"] and "file" in shown["model"]
    assert '"rules"' in shown["planner"] and "env REACT_ENGINE_PLANNER" in shown["planner"]
    data = json.loads(invoke("config", "show", "--json").stdout)
    assert data["settings"]["trace_keep"] == {"value": 5, "source": "file"}


def test_config_show_gives_the_value_that_applies_when_nothing_sets_one(cli_home: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OLLAMA_HOST")
    shown = {line.split()[0]: line.split() for line in invoke("config", "show").stdout.splitlines()[1:]}
    assert shown["planner"][1:3] == ['"auto"', "default"] and shown["output"][1:3] == ['"text"', "default"]
    assert shown["model"][1] == '"qwen3:4b"' and shown["host"][1] == '"127.0.0.1:11434"'
    assert shown["trace_dir"][1] == json.dumps(str(cli_home / "data" / "react-engine" / "traces"))
    assert all(fields[1] != "-" for fields in shown.values())
    data = json.loads(invoke("config", "show", "--json").stdout)["settings"]
    assert data["planner"] == {"value": "auto", "source": "default"} and data["dask"]["value"] is None


@pytest.mark.parametrize("text, problem", [("planner = \n", "cannot read the config"),
                                           ('colour = "red"\n', "colour"),
                                           ("trace_keep = 0\n", "trace_keep")])
def test_a_bad_config_file_is_a_one_line_error_naming_it(text: str, problem: str) -> None:
    path = write_config(text)
    result = invoke("ask", "how many lines?", str(SYSLOG), "--no-trace")
    assert result.exit_code == 1 and problem in result.stderr and str(path) in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and "Traceback" not in result.output
    assert invoke("config", "path").exit_code == 0  # still tells where the file is


def test_a_bad_env_value_is_a_usage_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REACT_ENGINE_OUTPUT", "xml")
    result = invoke("ask", "how many lines?", str(SYSLOG), "--no-trace")
    assert result.exit_code == 2 and "xml" in result.stderr


def test_trace_list_shows_recent_runs_newest_first_and_retention_keeps_n(tmp_path: Path) -> None:
    traces = tmp_path / "traces"
    write_config(f'planner = "rules"\ntrace_dir = "{traces}"\ntrace_keep = 2\n')
    for question in ("how many lines are there?", "which hosts are there?", "how many lines mention sshd?"):
        assert invoke("ask", question, str(SYSLOG)).exit_code in (0, 1)
    assert len(list(traces.glob("*.json"))) == 2  # trace_keep = 2 pruned the oldest after the third run
    lines = invoke("trace", "list", "--trace-dir", str(traces)).stdout.splitlines()
    assert len(lines) == 2 and "mention sshd" in lines[0] and "which hosts" in lines[1]
    rows = [json.loads(line) for line in invoke("trace", "list", "--json", "--trace-dir", str(traces)).stdout.splitlines()]
    assert [r["stop_reason"] for r in rows] == ["stop", "stop"] and all(Path(r["path"]).is_file() for r in rows)
    pruned = invoke("trace", "prune", "--keep", "1", "--trace-dir", str(traces))
    assert "deleted 1 traces" in pruned.stdout and len(list(traces.glob("*.json"))) == 1
    assert invoke("trace", "prune", "--trace-dir", str(traces)).exit_code == 2


def test_trace_show_takes_the_file_name_or_trace_id_that_trace_list_prints(cli_home: Path) -> None:
    assert invoke("ask", "how many lines are there?", str(SYSLOG), "--planner", "rules").exit_code == 0
    path = Path(invoke("trace", "list").stdout.split()[-1])
    by_path = invoke("trace", "show", str(path), "--json")
    assert by_path.exit_code == 0, by_path.output
    trace_id = json.loads(by_path.stdout)["trace_id"]
    started = invoke("trace", "list").stdout.split()[0]  # the first column
    for name in (path.name, path.stem, trace_id, trace_id[:8], started):
        shown = invoke("trace", "show", name, "--json")
        assert shown.exit_code == 0, shown.output
        assert json.loads(shown.stdout) == json.loads(by_path.stdout)
    elsewhere = cli_home / "elsewhere"
    path.parent.rename(elsewhere)
    assert invoke("trace", "show", path.name, "--trace-dir", str(elsewhere)).exit_code == 0
    missing = invoke("trace", "show", "0123456789abcdef")
    assert missing.exit_code == 1 and "0123456789abcdef" in missing.stderr and "trace list" in missing.stderr


def test_traces_older_than_the_age_are_deleted(tmp_path: Path) -> None:
    for age_days, name in ((1, "20261120T000000Z-a.json"), (40, "20261010T000000Z-b.json")):
        path = tmp_path / name
        path.write_text("{}")
        stamp = 2_000_000_000 - age_days * 86400
        os.utime(path, (stamp, stamp))
    assert [p.name for p in prune_traces(tmp_path, max_age_days=30, now=2_000_000_000)] == ["20261010T000000Z-b.json"]
    assert [p.name for p in tmp_path.iterdir()] == ["20261120T000000Z-a.json"]


def test_cache_info_counts_entries_and_clear_empties_it() -> None:
    assert invoke("ask", "how many lines are there?", str(SYSLOG), "--planner", "rules", "--no-trace").exit_code == 0
    info = json.loads(invoke("cache", "info", "--json").stdout)
    assert info["entries"] == 1 and info["bytes"] > 0
    assert "deleted 1 entries" in invoke("cache", "clear").stdout
    assert json.loads(invoke("cache", "info", "--json").stdout)["entries"] == 0


def test_completion_scripts_are_printed_and_complete_commands(tmp_path: Path) -> None:
    for shell in ("bash", "zsh", "fish"):
        result = invoke("completion", shell)
        assert result.exit_code == 0 and "_REACT_ENGINE_COMPLETE" in result.stdout
    env = {**os.environ, "_REACT_ENGINE_COMPLETE": "bash_complete", "COMP_WORDS": "react-engine ch",
           "COMP_CWORD": "1"}
    done = subprocess.run([sys.executable, "-m", "react_engine"], env=env, capture_output=True, text=True,
                          timeout=60)
    assert done.stdout.split() == ["plain,chat"]  # bash_complete prints type,value per candidate


def test_every_config_setting_is_the_default_of_an_ask_option() -> None:
    from react_engine.app.cli.config import PARAMS, default_map
    from react_engine.app.userconfig import Config

    ask = main.get_command(click.Context(main, **main.context_settings), "ask")
    assert ask is not None
    assert set(PARAMS.values()) <= {p.name for p in ask.params}
    defaults = default_map(Config(dask="tcp://127.0.0.1:8786", model="m"))["ask"]
    assert defaults == {"dask_address": "tcp://127.0.0.1:8786", "model": "m"}


def test_a_folder_named_like_a_cache_entry_is_left_alone_by_cache_clear(cli_home: Path) -> None:
    assert invoke("ask", "how many lines are there?", str(SYSLOG), "--planner", "rules", "--no-trace").exit_code == 0
    folder = cli_home / "cache" / "react-engine" / "frames"
    (folder / "x.arrow").mkdir()
    (folder / "x.arrow" / "keep.txt").write_text("not the cache's")
    info = invoke("cache", "info", "--json")
    assert info.exit_code == 0 and json.loads(info.stdout)["entries"] == 1
    cleared = invoke("cache", "clear")
    assert cleared.exit_code == 0 and "deleted 1 entries" in cleared.stdout, cleared.output
    assert (folder / "x.arrow" / "keep.txt").read_text() == "not the cache's"
    assert invoke("ask", "how many lines are there?", str(SYSLOG), "--planner", "rules", "--no-trace").exit_code == 0


def test_a_home_that_is_not_a_folder_runs_on_the_defaults_with_one_warning(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("XDG_CONFIG_HOME")
    monkeypatch.setenv("HOME", os.devnull)
    result = invoke("ask", "how many lines are there?", str(SYSLOG), "--planner", "rules", "--no-trace")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[0].startswith("4,200")
    warnings = [line for line in result.stderr.splitlines() if "not a folder" in line]
    assert len(warnings) == 1 and "default settings" in warnings[0] and "Traceback" not in result.stderr
    shown = invoke("config", "show")
    assert shown.exit_code == 0 and "planner" in shown.stdout
