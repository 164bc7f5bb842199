"""Formats of well-known public system logs (the loghub collection) not covered by a general family.

Linux, Mac and OpenSSH are plain syslog; Hadoop is log4j; Apache is the Apache error log.
"""

from __future__ import annotations

from react_engine.logs.arrow import concat
from react_engine.logs.formats.logformat import Columns, Format, OnePass
from react_engine.logs.formats.syslog import PROGRAM


def _system(name: str, description: str, pattern: str, shape: str, **options) -> Format:
    """A one-pattern format whose time has one known shape."""
    return Format(name=name, description=description, patterns=(pattern,), shapes=(shape,), **options)


ANDROID = _system(
    "android",
    "Android logcat threadtime (`MM-DD hh:mm:ss.mmm PID TID L Tag: msg`, no year)",
    (
        r"^(?P<ts>\d{2}-\d{2} \d{2}:\d{2}:\d{2}(?:\.\d+)?)\s+(?P<pid>\d+)\s+(?P<tid>\d+)\s+(?P<level>[VDIWEFA])\s+"
        r"(?P<component>.*?)\s*: (?P<message>.*)$"
    ),
    "md",
)
BGL = _system(
    "bgl",
    "Blue Gene/L RAS log (`Label Epoch Date Node Time Node Type Component Level msg`)",
    (
        r"^(?P<label>\S+) \d+ \d{4}\.\d{2}\.\d{2} (?P<host>\S+) (?P<ts>\d{4}-\d{2}-\d{2}-\d{2}\.\d{2}\.\d{2}\.\d+) "
        r"\S+ (?P<type>\S+) (?P<component>\S+) (?P<level>[A-Z]+) (?P<message>.*)$"
    ),
    "iso",
)
HDFS = _system(
    "hdfs",
    "Hadoop HDFS (`YYMMDD hhmmss pid LEVEL component: msg`)",
    OnePass(r"^(?P<ts>\d{6} \d{6}) (?P<pid>\d+) (?P<level>[A-Z]+) (?P<component>[^\s:]+): (?P<message>.*)$"),
    "ymd6", multiline=True,
)
HPC = _system(
    "hpc",
    "LANL HPC event log (`LogId Node Component State Epoch Flag msg`)",
    (
        r"^(?P<log_id>\d+) (?P<host>\S+) (?P<component>\S+) (?P<state>\S+) (?P<ts>\d{9,10}) (?P<flag>-?\d+) "
        r"(?P<message>.*)$"
    ),
    "epoch",
)
HEALTHAPP = _system(
    "healthapp",
    "Android health app (`YYYYMMDD-H:M:S:ms|component|pid|msg`)",
    r"^(?P<ts>\d{8}-\d{1,2}:\d{1,2}:\d{1,2}:\d{1,3})\|(?P<component>[^|]*)\|(?P<pid>[^|]*)\|(?P<message>.*)$",
    "compact",
)
_OPENSTACK_ENTRY = (
    r"(?P<ts>\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(?:\.\d+)?) (?P<pid>\d+) (?P<level>[A-Z]+) (?P<component>\S+) "
    r"(?:\[(?P<request>[^\]]*)\] )?(?P<message>.*)$"
)
OPENSTACK = Format(
    name="openstack",
    description="OpenStack oslo.log (`[file] time pid LEVEL module [req-...] msg`)",
    # The entry after a file name, else the entry alone (with an empty file name): as `^(?:(?P<log_file>\S+) )?`
    # before it reads them, but each pattern is one-pass where that optional file name was not.
    patterns=(OnePass(r"^(?P<log_file>\S+) " + _OPENSTACK_ENTRY), OnePass(r"^(?P<log_file>)" + _OPENSTACK_ENTRY)),
    shapes=("iso",), multiline=True,
)
PROXIFIER = _system(
    "proxifier",
    "Proxifier (`[MM.DD hh:mm:ss] program - msg`, no year)",
    r"^\[(?P<ts>\d{2}\.\d{2} \d{2}:\d{2}:\d{2})\] (?P<component>.+?) - (?P<message>.*)$",
    "md",
)
SPARK = _system(
    "spark",
    "Spark log4j (`YY/MM/DD hh:mm:ss LEVEL logger: msg`)",
    r"^(?P<ts>\d{2}/\d{2}/\d{2} \d{2}:\d{2}:\d{2}) (?P<level>[A-Z]+) (?P<component>[^\s:]+): (?P<message>.*)$",
    "ymd2", multiline=True,
)


def _thunderbird_time(columns: Columns) -> None:
    """The written local time, dated by the line's own `YYYY.MM.DD` field."""
    columns["ts"] = concat(columns.pop("date"), " ", columns["ts"])


THUNDERBIRD = _system(
    "thunderbird",
    "Thunderbird supercomputer syslog (`Label Epoch YYYY.MM.DD host Mmm d hh:mm:ss loc prog[pid]: msg`)",
    (
        r"^(?P<label>\S+) \d+ (?P<date>\d{4}\.\d{2}\.\d{2}) (?P<host>\S+) [A-Z][a-z]{2} +\d{1,2} "
        r"(?P<ts>\d{2}:\d{2}:\d{2}) (?P<location>\S+) (?:" + PROGRAM + r": ?)?(?P<message>.*)$"
    ),
    "iso", finish=_thunderbird_time,
)
WINDOWS_CBS = _system(
    "windows_cbs",
    "Windows CBS/CSI log (`YYYY-MM-DD hh:mm:ss, Level  Component  msg`)",
    r"^(?P<ts>\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}), (?P<level>\w+)\s+(?P<component>\S+)\s+(?P<message>.*)$",
    "iso",
)
ZOOKEEPER = _system(
    "zookeeper",
    "ZooKeeper log4j (`time - LEVEL [thread:Class@line] - msg`)",
    (
        r"^(?P<ts>\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2},\d{3}) - (?P<level>[A-Z]+)\s+\[(?P<thread>.*):"
        r"(?P<component>[^:\]]+)\] - (?P<message>.*)$"
    ),
    "iso", multiline=True,
)
SYSTEMS: tuple[Format, ...] = (
    ANDROID, BGL, HDFS, HPC, HEALTHAPP, OPENSTACK, PROXIFIER, SPARK, THUNDERBIRD, WINDOWS_CBS, ZOOKEEPER,
)
