"""What a log format is: line patterns plus a few switches; parsing itself lives in `logs.parse`."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pyarrow as pa

from react_engine.logs.timestamps import DEFAULT_SHAPES

Columns = dict[str, pa.Array | pa.ChunkedArray]
"""Parsed columns by name, all of the same length (large inputs are parsed in chunks)."""

# Named groups with a fixed meaning; any other group name becomes an extra column of the same name.
TIME_GROUP = "ts"
# word, syslog 0-7, DOCSIS 1-8, <PRI>, bunyan/pino 10-60, inferred by a rule
LEVEL_GROUPS: tuple[str, ...] = ("level", "sev", "dlevel", "pri", "blevel", "inferred")
INFERRED_GROUP = "inferred"
"""A severity no line wrote, inferred by the format's own rule (an HTTP status, a failed call): it fills
`severity` where nothing was written and leaves `level_raw` empty; the format says which rule in `severity_rule`."""
RULE_COLUMN = "severity_rule"


class OnePass(str):
    """A pattern RE2 can run one-pass: at each byte at most one way on can match (no ambiguous alternation or
    repeat). RE2's one-pass engine captures at most four groups in a run, so a one-pass pattern with more groups
    beside its head (see `matching.head_pattern`) is matched in two runs: its head from each line, then its
    groups from each head, both one-pass (on syslog's common shape, 1.7x faster than one run capturing all).
    The captures are the same either way: marking a pattern that is not one-pass only makes it slower."""


@dataclass(frozen=True)
class Format:
    """A log format.

    `patterns` are RE2 expressions tried in order (first match wins per line). Their named groups are
    canonical columns (`host`, `component`, `pid`, `message`), `ts` (a time parsed with `shapes`),
    level groups (see LEVEL_GROUPS) or format extras. `multiline` joins lines that match no pattern to
    the entry above. `finish` post-processes the parsed columns (e.g. MAC normalisation).
    `extras` are columns the format always has, even when no line fills them.
    `detect_share` is the share of sample lines that must match for auto-detection.
    `reader` replaces pattern parsing entirely for formats that are not line-regex shaped (JSON).
    `signature` is how many leading patterns identify the format during detection (default: all);
    later patterns are fallbacks for stray lines. `detect_only` patterns also identify it, for lines that start no
    entry of their own (in a multiline format they join the entry above).
    `search_time` looks for the time anywhere in the `ts` text instead of at its start.
    `yields_to` names formats this one does not displace in detection once they pass their own share, even when
    it matches more lines (syslog's ISO-time lines also match `time level message`, with the level as the host).
    `quick` is a pattern, cheap to run (no groups), that every line the format matches also matches: detection
    tries the format only on a sample where some line matches it.
    """

    name: str
    description: str
    patterns: tuple[str, ...] = ()
    shapes: tuple[str, ...] = DEFAULT_SHAPES
    multiline: bool = False
    detect_share: float = 0.6
    finish: Callable[[Columns], None] | None = None
    reader: Callable[[pa.Array], tuple[Columns, pa.Array]] | None = None
    extras: tuple[str, ...] = ()
    search_time: bool = False
    signature: int | None = None
    detect_only: tuple[str, ...] = ()
    yields_to: tuple[str, ...] = ()
    quick: str | None = None

    @property
    def detect_patterns(self) -> tuple[str, ...]:
        """The patterns that identify this format during detection."""
        return self.patterns[: self.signature] + self.detect_only
