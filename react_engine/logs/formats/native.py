"""Logs written by programs in their own plain shapes: glog, strace, tai64n (daemontools), epoch-time prefixes,
tcsh's history file, TCF traces, process-state dumps, and lines led by a time of day or by `date`'s output.

glog's first letter is its level (I, W, E, F). strace writes no level; a call that returned -1 with an errno is
an error by the format's own rule (`severity_rule` says so on those rows). tai64n labels are TAI seconds (2^62 on)
read as UTC less TAI's 10 s; epoch prefixes may be seconds, milliseconds or microseconds.
"""

from __future__ import annotations

from collections.abc import Callable

import pyarrow as pa
import pyarrow.compute as pc

from react_engine.logs.arrow import STRING
from react_engine.logs.formats.generic import level_anywhere
from react_engine.logs.formats.logformat import Columns, Format

GLOG_LINE = (
    r"^(?P<level>[IWEF])(?P<ts>\d{4} \d{2}:\d{2}:\d{2}\.\d{6}) +(?P<tid>\d+) (?P<component>[^:\]\s]+):"
    r"(?P<src_line>\d+)\] (?P<message>.*)$"
)
STRACE_TIME = r"(?P<ts>\d{2}:\d{2}:\d{2}(?:\.\d{1,6})?|\d{10}\.\d{6})"  # -tt or -ttt
STRACE_LINE = (
    r"^(?:(?P<pid>\d+) +)?" + STRACE_TIME + r" (?P<message>(?P<syscall>[a-z_][a-z0-9_]*)\("
    r".*?(?:= (?P<result>-?\d+|\?|0x[0-9a-f]+)(?: (?P<errno>E[A-Z0-9]+))?.*)?)$"
)
STRACE_SIGNAL = r"^(?:(?P<pid>\d+) +)?" + STRACE_TIME + r" (?P<message>(?:---|\+\+\+) .*)$"
TAI64N_LINE = r"^@(?P<ts>[0-9a-f]{24})\s+(?P<message>.*)$"
EPOCH_LINE = r"^(?P<ts>\d{10}(?:\d{3}|\d{6}|\d{9})?(?:\.\d{1,9})?)(?:\s+|\s*[|,;:]\s*)(?P<message>.*)$"
CLOCK_LINE = r"^(?P<ts>\d{1,2}:\d{2}:\d{2}(?:[.,]\d{1,9})?)\s+(?P<message>.*)$"
# `date`'s own output ahead of each block of a script's log: `Wed May 19 08:00:01 EST 2021 text`
DATED_LINE = (
    r"^(?P<ts>(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) (?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) [ \d]\d "
    r"\d{2}:\d{2}:\d{2}(?: [A-Z]{3,5})? \d{4})(?: (?P<message>.*))?$"
)
TCF_LINE = r"^TCF (?P<ts>\d{2}:\d{2}\.\d{3,6}): (?P<message>.*)$"
PROCSTATE_LINE = r"^========== Start of system state dump at (?P<ts>[^=]+?) ==========(?P<message>.*)$"
TCSH_STAMP = r"^#\+(?P<ts>\d{9,10})(?P<message>)$"
_TAI_BASE = 1 << 62
_TAI_OFFSET = 10


def _strace_finish(columns: Columns) -> None:
    """A call that failed (`= -1 ENOENT ...`) is an error by strace's own rule; other lines have no level."""
    errno = columns.get("errno")
    if errno is None:
        return
    failed = pc.is_valid(errno)
    none = pa.scalar(None, STRING)
    columns["inferred"] = pc.if_else(failed, pa.scalar("error", STRING), none)
    columns["severity_rule"] = pc.if_else(failed, pa.scalar("strace: a call returned -1 with an errno", STRING),
                                          none)


def _tai64n(label: str | None) -> str | None:
    if not label:
        return None
    seconds = int(label[:16], 16) - _TAI_BASE - _TAI_OFFSET
    return f"{seconds}.{int(label[16:], 16):09d}" if seconds >= 0 else None


def _tai64n_finish(columns: Columns) -> None:
    """TAI64N labels as `seconds.nanoseconds` since 1970 (UTC)."""
    labels = columns["ts"]
    if isinstance(labels, pa.ChunkedArray):
        labels = labels.combine_chunks()
    encoded = pc.dictionary_encode(labels)
    converted = pa.array([_tai64n(v) for v in encoded.dictionary.to_pylist()], STRING)
    columns["ts"] = pc.take(converted, encoded.indices)


def _epoch_finish(columns: Columns) -> None:
    """Milliseconds, microseconds or nanoseconds since 1970 (13, 16 or 19 digits) as `seconds.fraction`."""
    stamp = columns["ts"]
    integer = pc.extract_regex(stamp, r"^(?P<i>\d+)").field("i")
    digits = pc.utf8_length(integer)
    seconds = pc.utf8_slice_codeunits(integer, 0, 10)
    fraction = pc.utf8_slice_codeunits(integer, 10, 19)
    split_up = pc.binary_join_element_wise(seconds, fraction, pa.scalar(".", STRING))
    columns["ts"] = pc.if_else(pc.greater(digits, 10), split_up, stamp)


def _tcsh_finish(columns: Columns) -> None:
    """The command is the line after its `#+time` line."""
    columns["message"] = pc.replace_substring_regex(columns["message"], r"^\n", "", max_replacements=1)


GLOG = Format(
    name="glog",
    description="Google glog (`E0517 15:04:22.619632 tid file.cc:253] msg`): level letter, tid, source file and line",
    patterns=(GLOG_LINE,),
    shapes=("mmdd",),
    multiline=True,
    detect_share=0.5,
    extras=("tid", "src_line"),
    quick=r"^[IWEF]\d{4} ",
)
STRACE = Format(
    name="strace",
    description="strace -tt or -ttt output (`08:09:33.814936 open(...) = -1 ENOENT`, with or without a pid first): "
    "syscall, result and errno columns; "
    "failed calls are errors by strace's rule (severity_rule)",
    patterns=(STRACE_LINE, STRACE_SIGNAL),
    shapes=("clock", "epoch"),
    finish=_strace_finish,
    extras=("syscall", "result", "errno"),
    detect_share=0.7,
    quick=r"^(?:\d+ +)?(?:\d{2}:\d{2}:\d{2}|\d{10}\.\d)",
)


def _epoch_led(name: str, description: str, pattern: str, finish: Callable[[Columns], None], *, quick: str,
               detect_share: float = 0.8, multiline: bool = False) -> Format:
    """A log whose times are read as `seconds.fraction` since 1970 once `finish` has rewritten them."""
    return Format(name=name, description=description, patterns=(pattern,), shapes=("epoch",), finish=finish,
                  detect_share=detect_share, multiline=multiline, quick=quick)


TAI64N = _epoch_led("tai64n", "daemontools / runit logs with TAI64N labels (`@40000000433225833b6e1a8c msg`)",
                    TAI64N_LINE, _tai64n_finish, quick=r"^@[0-9a-f]{24}")
EPOCH = _epoch_led(
    "epoch", "lines led by a time since 1970 in seconds, milliseconds or microseconds (`1428634687123 msg`)",
    EPOCH_LINE, _epoch_finish, quick=r"^\d{10}")
TCSH_HISTORY = _epoch_led(
    "tcsh_history", "tcsh's history file (`#+1162490366` then the command): one row per command", TCSH_STAMP,
    _tcsh_finish, quick=r"^#\+", detect_share=0.3, multiline=True)


def _led(name: str, description: str, pattern: str, shape: str, *, quick: str, detect_share: float,
         multiline: bool = True, finish: Callable[[Columns], None] | None = None) -> Format:
    """A log each of whose entries starts with a line `pattern` matches, its time read with `shape`."""
    return Format(name=name, description=description, patterns=(pattern,), shapes=(shape,), multiline=multiline,
                  finish=finish, detect_share=detect_share, quick=quick)


CLOCK = _led(
    "clock", "lines led by a time of day alone (`00:00:00.000 text`): the date is the file's modification date; a level "
    "word is taken from anywhere in the line", CLOCK_LINE, "clock", quick=r"^\d{1,2}:\d{2}:\d{2}", detect_share=0.8,
    multiline=False, finish=level_anywhere)
DATED_BLOCK = _led(
    "dated_block", "blocks of text each led by a line that starts with `date`'s output (`Wed May 19 08:00:01 EST "
    "2021`); the lines below join it", DATED_LINE, "bsd", quick=r"^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) ",
    detect_share=0.3, finish=level_anywhere)
TCF = _led(
    "tcf", "Target Communication Framework trace (`TCF 29:47.191: msg`): minutes and seconds only, in the hour of the "
    "file's modification time", TCF_LINE, "minsec", quick=r"^TCF \d", detect_share=0.5)
PROCSTATE = _led(
    "procstate", "periodic dumps of process state (`========== Start of system state dump at <date> ==========` then "
    "ps output): one row per dump", PROCSTATE_LINE, "bsd", quick=r"^========== Start of system state dump at ",
    detect_share=0.005)  # one header line leads hundreds of lines of ps output
