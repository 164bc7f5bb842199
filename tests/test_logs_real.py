"""The 16 loghub systems: 2000 rows each, >= 99% timestamps, severities and fields matching loghub's CSVs."""

from __future__ import annotations

import pandas as pd
import pytest
from real_logs import HOW_TO_RUN, REAL_LOGS

from react_engine.logs import LoadOptions, load
from react_engine.logs.severity import normalize

SYSTEMS = sorted(p.name for p in REAL_LOGS.iterdir() if p.is_dir()) if REAL_LOGS.is_dir() else []
# loghub CSV column that holds each canonical field, where the CSV has one with that meaning.
FIELDS: dict[str, dict[str, str]] = {
    "Android": {"pid": "Pid", "component": "Component"},
    "BGL": {"component": "Component"},
    "HDFS": {"pid": "Pid", "component": "Component"},
    "HPC": {"host": "Node", "component": "Component"},
    "Hadoop": {"component": "Component"},
    "HealthApp": {"pid": "Pid", "component": "Component"},
    "Linux": {"host": "Level", "component": "Component", "pid": "PID"},
    "Mac": {"host": "User", "component": "Component", "pid": "PID"},
    "OpenSSH": {"host": "Component", "pid": "Pid"},
    "OpenStack": {"pid": "Pid", "component": "Component"},
    "Proxifier": {"component": "Program"},
    "Spark": {"component": "Component"},
    "Thunderbird": {"host": "User", "component": "Component", "pid": "PID"},
    "Windows": {"component": "Component"},
}
NO_LEVEL_COLUMN = {"Linux"}  # its "Level" column holds the hostname


@pytest.fixture(scope="module", params=SYSTEMS or [pytest.param("none", marks=pytest.mark.skip(HOW_TO_RUN))])
def system(request: pytest.FixtureRequest) -> tuple[str, pd.DataFrame, pd.DataFrame]:
    name = request.param
    frame = load(REAL_LOGS / name / f"{name}_2k.log", LoadOptions(use_cache=False))
    truth = pd.read_csv(REAL_LOGS / name / f"{name}_2k.log_structured.csv", dtype=str, keep_default_na=False)
    return name, frame, truth


def test_rows_lines_and_timestamps(system: tuple[str, pd.DataFrame, pd.DataFrame]) -> None:
    name, frame, truth = system
    assert len(frame) == 2000 == len(truth)
    assert frame["line"].tolist() == truth["LineId"].astype(int).tolist()
    assert frame["timestamp"].notna().mean() >= 0.99, name
    assert frame.attrs["files"][0]["format"] != "generic"


def test_severity_matches_csv_level(system: tuple[str, pd.DataFrame, pd.DataFrame]) -> None:
    name, frame, truth = system
    if "Level" not in truth or name in NO_LEVEL_COLUMN:  # nothing written, so nothing invented
        assert frame["severity"].isna().all() and frame["level_raw"].isna().all()
        return
    assert frame["level_raw"].tolist() == truth["Level"].tolist()
    assert frame["severity"].tolist() == truth["Level"].map(normalize).tolist()
    assert frame["severity"].notna().all()


def test_message_is_the_csv_content(system: tuple[str, pd.DataFrame, pd.DataFrame]) -> None:
    name, frame, truth = system
    # Apache's `[client ip]` prefix goes to `client_ip`, so compare the message with the end of Content.
    pairs = zip(frame["message"].str.strip(), truth["Content"].str.strip())
    same = sum(content.endswith(message) and len(message) > 0 for message, content in pairs) / len(truth)
    assert same >= 0.99, name


def test_fields_match_csv(system: tuple[str, pd.DataFrame, pd.DataFrame]) -> None:
    name, frame, truth = system
    for column, csv_column in FIELDS.get(name, {}).items():
        same = frame[column].fillna("").to_numpy() == truth[csv_column].to_numpy()
        assert same.mean() >= 0.99, (name, column, frame[column][~same].head(3).tolist())
