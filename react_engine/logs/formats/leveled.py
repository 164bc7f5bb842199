"""Logs whose level word follows the time, in the shapes of a few servers and frameworks: a plain
`time level message` line, VMware vCenter (vpxd and friends), MySQL's error log and Laravel.

Each keeps the level as written (`level_raw`): `fatal`, `debug2`, `Warning`, `local.ERROR`'s `ERROR`.
"""

from __future__ import annotations

from react_engine.logs.formats.logformat import Format

ISO = r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:[.,]\d{1,9})?(?:Z|[+-]\d{2}:?\d{2})?"
LEVEL_WORD = (
    r"(?i:trace|debug\d?|info|notice|warn(?:ing)?|error|err|critical|crit|fatal|severe|alert|emerg(?:ency)?|verbose)"
)
# `2016-06-30 12:00:07 fatal fatalmessage`: nothing between the time and the level word.
TIMED_LEVEL_LINE = r"^(?P<ts>" + ISO + r") +(?P<level>" + LEVEL_WORD + r")(?::|\s+|$)\s*(?P<message>.*)$"
TIMED_LINE = r"^(?P<ts>" + ISO + r") +(?P<message>.*)$"  # a line of the same log whose word is no level
# `2022-06-02T11:58:12.193Z info vpxd[45715] [Originator@6876 sub=vpxLro opID=7e1280cf] msg`
VMWARE_LINE = (
    r"^(?P<ts>" + ISO + r") (?P<level>[a-z]+)(?:\(\d+\))? (?P<component>[\w.-]+)\[(?P<pid>\w+)\]:? "
    r"(?:\[Originator@\d+(?P<context>[^\]]*)\] )?(?P<message>.*)$"
)
# `2020-08-06T14:25:02.835618Z 0 [Note] [MY-012487] [InnoDB] DDL log recovery : begin` (MySQL 8 and 5.7)
MYSQL_LINE = (
    r"^(?P<ts>" + ISO + r")\s+(?P<thread>\d+) \[(?P<level>Note|Warning|ERROR|Error|System)\] "
    r"(?:\[(?P<code>MY-\d+)\] )?(?:\[(?P<component>[^\]]+)\] )?(?P<message>.*)$"
)
# `[2023-05-15 18:19:32] local.ERROR: message {"exception":...}` then `[stacktrace]` and `#0 ...` lines
LARAVEL_LINE = (
    r"^\[(?P<ts>" + ISO + r")\] (?P<channel>[\w-]+)\.(?P<level>DEBUG|INFO|NOTICE|WARNING|ERROR|CRITICAL|ALERT"
    r"|EMERGENCY): (?P<message>.*)$"
)

# `MainThread::ERROR::2011-12-05 07:04:56,300::vdsm::74::vds::(run) Traceback ...` (oVirt VDSM)
VDSM_LINE = (
    r"^(?P<thread>[^:\s]+)::(?P<level>[A-Z]+)::(?P<ts>" + ISO + r")::(?P<component>[^:]+)::(?P<src_line>\d+)::"
    r"(?P<logger>[^:]+)::(?:\((?P<function>[^)]*)\) )?(?P<message>.*)$"
)


def _leveled(name: str, description: str, *patterns: str, detect_share: float, quick: str,
             extras: tuple[str, ...] = ()) -> Format:
    """A log with ISO times whose lines that start no entry join the entry above."""
    return Format(name=name, description=description, patterns=patterns, signature=1, shapes=("iso",),
                  multiline=True, detect_share=detect_share, extras=extras, quick=quick)


TIMED_LEVEL = _leveled(
    "timed_level", "`time level message` lines with the level word right after the time (`... 12:00:07 fatal msg`)",
    TIMED_LEVEL_LINE, TIMED_LINE, detect_share=0.6, quick=r"^\d{4}-\d{2}-\d{2}[T ]")
VMWARE = _leveled(
    "vmware", "VMware vCenter / ESXi service logs (`time level vpxd[pid] [Originator@6876 sub=.. opID=..] msg`); "
    "`-->` lines join their entry", VMWARE_LINE, detect_share=0.5,
    quick=r"^\d{4}-\d{2}-\d{2}[T ]\S+ [a-z]+(?:\(\d+\))? [\w.-]+\[\w+\]")
MYSQL_ERROR = _leveled(
    "mysql_error", "MySQL error log (`time thread [Note|Warning|ERROR] [MY-code] [Subsystem] msg`)", MYSQL_LINE,
    detect_share=0.5, extras=("thread", "code"), quick=r"^\d{4}-\d{2}-\d{2}[T ]\S+\s+\d+ \[")
LARAVEL = _leveled(
    "laravel", "Laravel / Monolog log (`[time] channel.LEVEL: msg`), stack traces joined to their entry", LARAVEL_LINE,
    detect_share=0.02, extras=("channel",), quick=r"^\[\d{4}-\d{2}-\d{2}[T ]")
VDSM = _leveled(
    "vdsm", "oVirt VDSM log (`thread::LEVEL::time::module::line::logger::(function) msg`), tracebacks joined",
    VDSM_LINE, detect_share=0.2, extras=("thread", "src_line", "logger", "function"), quick=r"^[^:\s]+::[A-Z]+::")
