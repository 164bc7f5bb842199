"""The load progress line: shown on a terminal once a load is slow, erased after; never on a pipe."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from react_engine.logs import LoadOptions, load, parse
from react_engine.logs.progress import Progress


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_shown_on_a_terminal_and_erased() -> None:
    stream = Terminal()
    with Progress(2, stream=stream, delay=0.0) as progress:
        progress.step(0, "a.log", 5_000_000, "parsing")
        progress.step(1, "b.log", 0, "reading cached")
    text = stream.getvalue()
    assert "[1/2] parsing a.log (5 MB)…" in text
    assert "[2/2] reading cached b.log…" in text
    assert text.endswith("\r\x1b[K")


def test_silent_before_the_delay_and_off_a_terminal() -> None:
    quick, pipe = Terminal(), io.StringIO()
    with Progress(1, stream=quick, delay=3600.0) as progress:
        progress.step(0, "a.log", 10, "parsing")
    with Progress(1, stream=pipe, delay=0.0) as progress:
        progress.step(0, "a.log", 10, "parsing")
    assert quick.getvalue() == ""
    assert pipe.getvalue() == ""


def test_a_step_shows_how_much_of_it_is_done() -> None:
    stream = Terminal()
    with Progress(1, stream=stream, delay=0.0) as progress:
        progress.step(0, "a.log", 5_000_000, "parsing")
        progress.done(0.25)
        progress.done(1.0)
    text = stream.getvalue()
    assert "parsing a.log (5 MB) 25%…" in text and "parsing a.log (5 MB) 100%…" in text


def test_a_load_reports_its_parse_segment_by_segment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parse, "SEGMENT_LINES", 100)
    shares: list[float] = []
    monkeypatch.setattr(Progress, "done", lambda self, share: shares.append(share))
    path = tmp_path / "auth.log"
    path.write_text("".join(f"Dec 10 06:55:{i % 60:02d} LabSZ sshd[{i}]: Failed password\n" for i in range(250)))
    load(path, LoadOptions(use_cache=False))
    assert shares == [0.4, 0.8, 1.0]
