"""The loghub 2k-line samples for tests on real logs: the folder named by `LOGHUB_SAMPLES`, else
`../shared/real_logs` next to the repository."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REAL_LOGS = Path(os.environ.get("LOGHUB_SAMPLES") or Path(__file__).resolve().parents[2] / "shared" / "real_logs")
HOW_TO_RUN = (f"the loghub samples are absent: to run this test, put them in {REAL_LOGS} or name their folder in "
              "LOGHUB_SAMPLES (one folder per system holding SYSTEM_2k.log and SYSTEM_2k.log_structured.csv)")


def real_log(system: str, suffix: str = ".log") -> Path:
    """`../shared/real_logs/SYSTEM/SYSTEM_2k{suffix}`; the test is skipped, saying how to run it, when absent."""
    path = REAL_LOGS / system / f"{system}_2k{suffix}"
    if not path.exists():
        pytest.skip(f"{path.name}: {HOW_TO_RUN}")
    return path
