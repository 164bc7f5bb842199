"""All known formats, most specific first (the order breaks ties in auto-detection)."""

from __future__ import annotations

from react_engine.logs.formats.applog import JAVA, LOG4J, PYTHON
from react_engine.logs.formats.cmts import CMTS
from react_engine.logs.formats.docker import DOCKER
from react_engine.logs.formats.generic import GENERIC
from react_engine.logs.formats.headed import W3C, ZEEK
from react_engine.logs.formats.journald import JOURNALD
from react_engine.logs.formats.jsonl import JSONL
from react_engine.logs.formats.kubernetes import CRI
from react_engine.logs.formats.leveled import LARAVEL, MYSQL_ERROR, TIMED_LEVEL, VDSM, VMWARE
from react_engine.logs.formats.logfmt import LOGFMT
from react_engine.logs.formats.logformat import Format
from react_engine.logs.formats.loghub import SYSTEMS
from react_engine.logs.formats.native import (
    CLOCK,
    DATED_BLOCK,
    EPOCH,
    GLOG,
    PROCSTATE,
    STRACE,
    TAI64N,
    TCF,
    TCSH_HISTORY,
)
from react_engine.logs.formats.packages import APT_HISTORY, DPKG
from react_engine.logs.formats.postgres import POSTGRES
from react_engine.logs.formats.syslog import SYSLOG
from react_engine.logs.formats.web import ACCESS, APACHE_ERROR, NGINX_ERROR

REGISTRY: tuple[Format, ...] = (
    JOURNALD, DOCKER, JSONL, LOGFMT, CRI, CMTS, DPKG, APT_HISTORY, ZEEK, W3C, POSTGRES, *SYSTEMS, GLOG, STRACE, TAI64N,
    TCSH_HISTORY, EPOCH, TCF, PROCSTATE, ACCESS, APACHE_ERROR, NGINX_ERROR, VMWARE, MYSQL_ERROR, LARAVEL, VDSM, LOG4J, PYTHON,
    TIMED_LEVEL, SYSLOG, JAVA, CLOCK, DATED_BLOCK, GENERIC,
)
BY_NAME: dict[str, Format] = {fmt.name: fmt for fmt in REGISTRY}

__all__ = ["BY_NAME", "REGISTRY", "Format"]
