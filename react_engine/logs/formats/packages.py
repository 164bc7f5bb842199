"""Debian package logs: dpkg's `/var/log/dpkg.log` and apt's `/var/log/apt/history.log` stanzas.

dpkg writes `yyyy-mm-dd hh:mm:ss ACTION ...`: `status STATE PACKAGE VERSION`, `install|upgrade|configure|remove|
purge|trigproc PACKAGE INSTALLED AVAILABLE` (`<none>` when absent), `startup ...` and `conffile ...`. apt writes one
stanza per run, from `Start-Date:` to `End-Date:`, with `Commandline:`, `Requested-By:` and one line per action
(`Install: pkg (version), ...`); a stanza is one row.
"""

from __future__ import annotations

import pyarrow as pa
import pyarrow.compute as pc

from react_engine.logs.arrow import group, nil_to_null
from react_engine.logs.formats.logformat import Columns, Format

_TIME = r"(?P<ts>\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}) "
_CHANGE = "install|upgrade|configure|remove|purge|trigproc|disappear"
DPKG_PATTERNS = (
    r"^" + _TIME + r"(?P<message>(?P<action>status) (?P<state>\S+) (?P<package>\S+) (?P<version>\S+))$",
    r"^" + _TIME + r"(?P<message>(?P<action>" + _CHANGE + r") (?P<package>\S+) (?P<old_version>\S+) "
    r"(?P<version>\S+))$",
    r"^" + _TIME + r"(?P<message>(?P<action>startup|conffile) .*)$",
    r"^" + _TIME + r"(?P<message>(?P<action>[a-z-]+)\b.*)$",  # an action of a newer dpkg
)


def _dpkg_finish(columns: Columns) -> None:
    for name in ("old_version", "version"):
        if name in columns:  # absent when no line matched (an empty file read as dpkg)
            columns[name] = nil_to_null(columns[name], "<none>")


DPKG = Format(
    name="dpkg",
    description="dpkg log (/var/log/dpkg.log): action, package, version, old_version and state columns",
    patterns=DPKG_PATTERNS,
    shapes=("iso",),
    finish=_dpkg_finish,
    extras=("action", "package", "version", "old_version", "state"),
    signature=3,
)

_ACTIONS = "Install|Upgrade|Remove|Purge|Reinstall|Downgrade"
_FIELDS = {
    "commandline": r"(?m)^Commandline: (?P<commandline>.*)$",
    "requested_by": r"(?m)^Requested-By: (?P<requested_by>.*)$",
    "action": r"(?m)^(?P<action>" + _ACTIONS + r"): ",
    "packages": r"(?m)^(?:" + _ACTIONS + r"): (?P<packages>.*)$",
    "error": r"(?m)^Error: (?P<error>.*)$",
}


def _apt_finish(columns: Columns) -> None:
    """The stanza's fields as columns; the message is the stanza without its `Start-Date:` line."""
    message = pc.utf8_rtrim_whitespace(pc.replace_substring_regex(columns["message"], r"^Start-Date: [^\n]*\n?", ""))
    for name, pattern in _FIELDS.items():
        columns[name] = group(message, pattern, name)
    columns["level"] = pc.if_else(pc.is_valid(columns["error"]), pa.scalar("error", pa.large_string()),
                                  pa.scalar(None, pa.large_string()))
    columns["message"] = message


APT_HISTORY = Format(
    name="apt_history",
    description="apt history log stanzas (/var/log/apt/history.log): one row per run, with commandline, "
    "requested_by, action, packages and error columns",
    patterns=(r"^(?P<message>Start-Date: (?P<ts>\d{4}-\d{2}-\d{2}  ?\d{2}:\d{2}:\d{2}))\s*$",),
    detect_only=(r"^(?:Commandline|Requested-By|" + _ACTIONS + r"|Error|End-Date): ",),
    shapes=("iso",),
    multiline=True,
    finish=_apt_finish,
    extras=tuple(_FIELDS),
)
