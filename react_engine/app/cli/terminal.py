"""Writing to the terminal: results on stdout, notices and errors on stderr, control characters neutralised.

Log lines and model answers are untrusted: an escape sequence in them (screen clear, title change, hyperlink)
must never reach the terminal raw. Every line the CLI prints goes through `safe`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import click

from react_engine.contract.redaction import redacted_urls

# Bidirectional marks, embeddings, overrides and isolates: they reorder what the terminal shows (U+202E).
_BIDI = "\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
# C0 controls except tab and newline, DEL, the C1 controls (U+0080..U+009F, e.g. the 8-bit CSI U+009B), bidi.
_CONTROL = re.compile(f"[\\x00-\\x08\\x0b-\\x1f\\x7f-\\x9f{_BIDI}]")
_RAW_IN_JSON = re.compile(f"[\\x7f-\\x9f{_BIDI}]")  # JSON encoders escape C0 but leave DEL, C1 and bidi as they are
_QUIET = "react_engine.quiet"
STARTED = "react_engine.started"  # the context's meta key: when the command began (time.monotonic())


def _escaped(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"


def safe(text: str) -> str:
    """`text` with every control character except tab and newline, and every bidi control, shown as `\\xNN` or
    `\\uNNNN`, so none acts on the terminal."""
    return _CONTROL.sub(_escaped, text)


def safe_json(text: str) -> str:
    """JSON text with DEL, C1 and bidi controls written as `\\uNNNN` (encoders already escape C0): the same JSON
    value."""
    return _RAW_IN_JSON.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def out(text: str) -> None:
    """A result line (or block) on stdout."""
    click.echo(safe(text))


def out_json(text: str) -> None:
    """A JSON document on stdout, still valid JSON and inert at a terminal."""
    click.echo(safe_json(text))


def error(text: str) -> None:
    """A one-line error on stderr, always shown."""
    click.echo(safe(redacted_urls(f"error: {text}")), err=True)


def note(text: str) -> None:
    """A notice on stderr, dropped with -q/--quiet."""
    ctx = click.get_current_context(silent=True)
    if not (ctx and ctx.meta.get(_QUIET)):
        click.echo(safe(redacted_urls(text)), err=True)


def _set_quiet(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    if value:
        ctx.meta[_QUIET] = True


def quiet_option(fn: Callable[..., Any]) -> Callable[..., Any]:
    """-q/--quiet: drop notices (planner fallback, progress, hints); results and errors still print."""
    return click.option("-q", "--quiet", is_flag=True, expose_value=False, callback=_set_quiet, is_eager=True,
                        help="Print no notices, only results and errors.")(fn)
