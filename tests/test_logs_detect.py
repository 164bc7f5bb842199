"""Format detection over many files: once per family of names, and still right when a family member differs."""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pytest

from react_engine.logs import LoadOptions, load
from react_engine.logs import detect as detect_module
from react_engine.logs.detect import TRUST_GENERIC, Detector, family

SYSLOG = [f"Nov 20 10:00:{i:02d} host1 sshd[7]: Failed password for root" for i in range(20)]
LOG4J = [f"2025-11-20 10:00:{i:02d},000 INFO [main] app: served" for i in range(20)]
FREE = [f"just some words {i}" for i in range(20)]


@pytest.fixture
def full_detections(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts full detections (every format tried)."""
    calls: list[int] = []
    real = detect_module.detect

    def counting(lines: pa.Array) -> detect_module.Format:
        calls.append(len(lines))
        return real(lines)

    monkeypatch.setattr(detect_module, "detect", counting)
    return calls


def test_family_of_names() -> None:
    assert family("/var/log/app-2024-01-02.log.1.gz") == family("app-2025-12-31.log.7") == "app-#-#-#.log.#"
    assert family("host1/messages") == family("host2/messages")
    assert family("app.log") != family("db.log")


def test_a_family_is_detected_fully_once(full_detections: list[int]) -> None:
    detector = Detector()
    formats = {detector.detect(f"app-{i}.log", pa.array(SYSLOG)).name for i in range(10)}
    assert formats == {"syslog"} and len(full_detections) == 1


def test_a_member_in_another_format_is_detected_again(full_detections: list[int]) -> None:
    detector = Detector()
    assert detector.detect("app-1.log", pa.array(SYSLOG)).name == "syslog"
    assert detector.detect("app-2.log", pa.array(LOG4J)).name == "log4j"
    assert len(full_detections) == 2


def test_generic_is_trusted_only_after_agreeing_files(full_detections: list[int]) -> None:
    detector = Detector()
    for i in range(TRUST_GENERIC + 3):
        assert detector.detect(f"notes-{i}.txt", pa.array(FREE)).name == "generic"
    assert len(full_detections) == TRUST_GENERIC


def test_many_files_load_with_one_detection_per_family(tmp_path: Path, full_detections: list[int]) -> None:
    for i in range(12):
        (tmp_path / f"auth-{i}.log").write_text("\n".join(SYSLOG) + "\n")
        (tmp_path / f"app-{i}.log").write_text("\n".join(LOG4J) + "\n")
    frame = load(tmp_path, LoadOptions(use_cache=False))
    assert len(frame) == 24 * 20 and len(full_detections) == 2
    assert {f["format"] for f in frame.attrs["files"]} == {"syslog", "log4j"}
