"""The load progress line: shown on a terminal once a load is slow, erased after; never on a pipe."""

from __future__ import annotations

import io

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
