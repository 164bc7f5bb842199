"""The loghub 2k-line samples kept next to the repository in `../shared/real_logs`, for tests on real logs."""

from __future__ import annotations

from pathlib import Path

import pytest

REAL_LOGS = Path(__file__).resolve().parents[2] / "shared" / "real_logs"
HOW_TO_RUN = (f"the loghub samples are absent: to run this test, put them in {REAL_LOGS} "
              "(one folder per system holding SYSTEM_2k.log and SYSTEM_2k.log_structured.csv)")


def real_log(system: str, suffix: str = ".log") -> Path:
    """`../shared/real_logs/SYSTEM/SYSTEM_2k{suffix}`; the test is skipped, saying how to run it, when absent."""
    path = REAL_LOGS / system / f"{system}_2k{suffix}"
    if not path.exists():
        pytest.skip(f"{path.name}: {HOW_TO_RUN}")
    return path
