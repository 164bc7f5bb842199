"""journalctl -o json and Docker json-file logs: detected, with timestamps, severities and fields."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from react_engine.logs import load
from react_engine.logs.options import LoadOptions
from react_engine.logs.severity import SEVERITIES
from react_engine.logs.summary import inspect

NO_CACHE = LoadOptions(use_cache=False)
BASE_US = 1_763_640_000_000_000  # 2025-11-20T12:00:00Z in microseconds


def journal_entry(i: int, priority: int, message: object = None, **extra: object) -> dict:
    entry = {"__CURSOR": f"s=abc;i={i}", "__REALTIME_TIMESTAMP": str(BASE_US + i * 1_500_000),
             "__MONOTONIC_TIMESTAMP": str(i), "_BOOT_ID": "b0", "PRIORITY": str(priority),
             "_HOSTNAME": f"node{i % 3}", "SYSLOG_IDENTIFIER": "sshd" if i % 2 else "kernel", "_PID": str(100 + i),
             "_SYSTEMD_UNIT": "ssh.service", "MESSAGE": message if message is not None else f"event {i}"}
    return entry | extra


def write_lines(path: Path, objects: list[dict]) -> Path:
    path.write_text("".join(json.dumps(o) + "\n" for o in objects), encoding="utf-8")
    return path


def test_journal_json_is_detected_with_times_severities_and_fields(tmp_path: Path) -> None:
    priorities = [3, 6, 4, 3, 0, 7, 5, 2, 1, 6]
    path = write_lines(tmp_path / "journal.json", [journal_entry(i, p) for i, p in enumerate(priorities)])
    frame = load([str(path)], NO_CACHE)
    assert inspect([str(path)], NO_CACHE).format == "journald"
    assert frame["severity"].tolist() == [SEVERITIES[p] for p in priorities]
    assert frame["level_raw"].tolist() == [str(p) for p in priorities]
    expected = [pd.Timestamp(BASE_US + i * 1_500_000, unit="us", tz="UTC") for i in range(len(priorities))]
    assert frame["timestamp"].tolist() == expected
    assert frame["host"].tolist()[:3] == ["node0", "node1", "node2"]
    assert frame["component"].tolist()[:2] == ["kernel", "sshd"]
    assert frame["pid"].tolist()[0] == "100" and frame["unit"].iloc[0] == "ssh.service"
    assert frame["message"].tolist()[0] == "event 0"


def test_a_byte_array_message_is_decoded(tmp_path: Path) -> None:
    raw = [99, 97, 102, 195, 169, 32, 255]  # "café " then an invalid byte
    frame = load([str(write_lines(tmp_path / "j.json", [journal_entry(0, 3, raw), journal_entry(1, 6)]))],
                 NO_CACHE)
    assert frame["message"].iloc[0] == "café \ufffd"


def test_how_many_errors_in_a_journal_is_right(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from react_engine.app.cli import main

    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    priorities = [3, 6, 3, 6, 6, 3, 4, 6, 2, 3]
    path = write_lines(tmp_path / "journal.json", [journal_entry(i, p) for i, p in enumerate(priorities)])
    result = CliRunner().invoke(main, ["ask", "how many errors?", str(path), "--planner", "rules", "--no-trace",
                                       "--json"])
    data = json.loads(result.stdout)
    assert data["value"] == priorities.count(3), data["answer"]
    assert data["verified"] and result.exit_code == 0


def docker_line(i: int, text: str, stream: str = "stdout") -> dict:
    stamp = datetime.fromtimestamp(1_763_640_000 + i, tz=UTC).strftime("%Y-%m-%dT%H:%M:%S") + f".{i:09d}Z"
    return {"log": text + "\n", "stream": stream, "time": stamp}


def test_docker_json_file_logs_are_detected_with_times_and_levels(tmp_path: Path) -> None:
    texts = ["INFO starting", "ERROR db down", "WARN slow", "plain line", "[error] again"]
    path = write_lines(tmp_path / "abc-json.log",
                       [docker_line(i, t, "stderr" if "ERROR" in t else "stdout") for i, t in enumerate(texts)])
    frame = load([str(path)], NO_CACHE)
    assert frame["message"].tolist() == texts
    assert frame["severity"].fillna("-").tolist() == ["info", "error", "warning", "-", "error"]
    assert inspect([str(path)], NO_CACHE).format == "docker"
    assert frame["stream"].tolist()[:2] == ["stdout", "stderr"]
    assert frame["timestamp"].iloc[1] == pd.Timestamp(1_763_640_001_000_000_001, unit="ns", tz="UTC")


_TEXT = st.text(st.characters(blacklist_categories=("Cs",)), max_size=60)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(entries=st.lists(st.tuples(st.integers(0, 7), _TEXT, st.integers(0, 10**9)), min_size=1, max_size=20))
def test_any_journal_entries_parse_to_their_priority_time_and_message(tmp_path: Path, entries) -> None:
    objects = [journal_entry(i, p, text or " ", __REALTIME_TIMESTAMP=str(BASE_US + offset))
               for i, (p, text, offset) in enumerate(entries)]
    frame = load([str(write_lines(tmp_path / "j.json", objects))], LoadOptions(format="journald", use_cache=False))
    assert frame["severity"].tolist() == [SEVERITIES[p] for p, _, _ in entries]
    assert frame["timestamp"].tolist() == [pd.Timestamp(BASE_US + o, unit="us", tz="UTC") for _, _, o in entries]
    assert len(frame) == len(entries)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(lines=st.lists(st.one_of(_TEXT, st.dictionaries(st.sampled_from(["log", "stream", "time", "x"]), _TEXT)),
                      min_size=1, max_size=15))
def test_any_input_gives_rows_or_a_clean_error_never_a_crash(tmp_path: Path, lines) -> None:
    path = tmp_path / "mixed.log"
    path.write_text("".join((json.dumps(x) if isinstance(x, dict) else x.replace("\n", " ").replace("\r", " "))
                            + "\n" for x in lines), encoding="utf-8")
    for name in ("journald", "docker"):
        from react_engine.errors import InputError

        try:
            frame = load([str(path)], LoadOptions(format=name, use_cache=False))
        except InputError:
            continue
        assert len(frame) <= len(lines)
