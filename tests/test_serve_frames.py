"""The server's warm frames: one load per set of files however many ask at once, a reload when a file changes, the
least recently used dropped over the memory budget."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from react_engine.app.serve.warm_frames import WarmFrames
from react_engine.errors import InputError


def _log(path: Path, lines: int) -> Path:
    path.write_text("".join(f"2026-11-19T10:{i // 60:02d}:{i % 60:02d}Z ERROR host1 app: failure {i}\n"
                            for i in range(lines)))
    return path


def test_one_load_for_many_callers_and_a_reload_when_the_file_changes(tmp_path: Path) -> None:
    log = _log(tmp_path / "a.log", 50)
    frames = WarmFrames(1 << 30)
    found: list[int] = []
    threads = [threading.Thread(target=lambda: found.append(id(frames.get((log,))))) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert frames.loads == 1 and len(set(found)) == 1
    _log(log, 70)
    os.utime(log, ns=(log.stat().st_atime_ns, log.stat().st_mtime_ns + 10**9))
    assert len(frames.get((log,))) == 70 and frames.loads == 2


def test_the_least_recently_used_frame_is_dropped_over_the_budget(tmp_path: Path) -> None:
    a, b, c = (_log(tmp_path / f"{n}.log", 200) for n in "abc")
    probe = WarmFrames(1 << 30)
    size = probe.held() if probe.get((a,)) is not None else 0
    frames = WarmFrames(int(size * 2.5))
    frames.get((a,))
    frames.get((b,))
    frames.get((a,))  # a is now the most recently used
    frames.get((c,))
    assert len(frames) == 2 and frames.held() <= size * 2.5
    frames.get((a,))
    assert frames.loads == 3  # a stayed warm; b was dropped
    frames.get((b,))
    assert frames.loads == 4


def test_a_file_that_cannot_be_loaded_is_an_input_error(tmp_path: Path) -> None:
    with pytest.raises(InputError):
        WarmFrames(1 << 30).get((tmp_path / "missing.log",))
