"""CMTS and cable-modem (DOCSIS) logs.

- Casa / DOCSIS-standard: `<PRI>2026-11-20,15:29:18.4 HOST CMTS[DOCSIS]: <EventId> text;CM-MAC=..;` —
  severity from PRI, `host` is the CMTS, `component` is `CMTS` (or `CABLEMODEM`).
- Cisco IOS: `[<PRI>][seq: ][*]Mmm dd hh:mm:ss[ TZ][:] [HOST] %FACILITY-SEV-MNEMONIC: text` — severity
  from SEV (0-7, it wins over PRI), `component` is the facility (`UBR10000`), `mnemonic` the last part.
- Modem event log: `TIME Notice (6) text;CM-MAC=..;CMTS-MAC=..;CM-QOS=..;CM-VER=..;` or
  `TIME EventId Level text;...` with the DOCSIS level 1-8.
- ARRIS C4: `hh:mm:ss slot sev: text` with 4-letter severities (`notc`, `debg`); `MAC=` gives cm_mac.
Other lines fall back to syslog. Extras: `cm_mac`, `cmts_mac` (normalised), `event_id`, `mnemonic`.
"""

from __future__ import annotations

import pyarrow.compute as pc

from react_engine.logs.arrow import group, null_strings
from react_engine.logs.formats.logformat import Columns, Format
from react_engine.logs.formats.syslog import BSD_TIME, RFC3164, RFC5424
from react_engine.logs.macs import MAC_PATTERN, normalize_array

_PRI = r"(?:<(?P<pri>\d{1,3})>)?"
_ISO = r"\d{4}-\d{2}-\d{2}[ ,T]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:?\d{2})?"
_ZONE = r"(?: (?:UTC|GMT|Z))?"
CASA = (
    r"^" + _PRI + r"(?:(?P<ts>" + _ISO + "|" + BSD_TIME + r") )?(?:(?P<host>[^\s<]\S*) )?"
    r"(?P<component>CMTS|CABLEMODEM)\[[^\]]*\]: ?<(?P<event_id>\d+)> ?(?P<message>.*)$"
)
CISCO = (
    r"^" + _PRI + r"(?:\d+: )?\*?(?:(?P<ts>(?:" + BSD_TIME + "|" + _ISO + ")" + _ZONE + r")(?: [A-Z]{3,4})?:? )?"
    r"(?:(?P<host>[^\s%]\S*?):? )?%(?P<component>[A-Z][A-Z0-9_]*(?:-[A-Z0-9_]+)*?)-(?P<sev>[0-7])-"
    r"(?P<mnemonic>[A-Z0-9_]+): ?(?P<message>.*)$"
)
_MODEM_TIME = (
    r"(?P<ts>\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}|(?:[A-Z][a-z]{2} )?[A-Z][a-z]{2} +\d{1,2} \d{2}:\d{2}:\d{2} \d{4}"
    r"|\d{1,2}/\d{1,2}/\d{4} \d{1,2}:\d{2}(?::\d{2})?(?: ?[AP]M)?|Time Not Established)"
)
MODEM_WORD = r"^" + _MODEM_TIME + r"\s+(?P<level>[A-Za-z]+ \([1-8]\))\s+(?P<message>.*;CM-MAC=.*)$"
# ARRIS C4 console/history lines carry a time of day but no date, so their timestamp stays missing.
ARRIS_C4 = r"^(?P<clock>\d{2}:\d{2}:\d{2}) (?P<slot>\d+) (?P<level>[a-z]{4}): (?P<message>.*)$"
MODEM_ID = r"^" + _MODEM_TIME + r"\s+(?P<event_id>\d{6,10})\s+(?P<dlevel>[1-8])\s+(?P<message>.*;CM-MAC=.*)$"

_CM_MAC = (
    r"(?:CM-MAC=|\bMAC=|(?i:cable modem|CM Mac Addr|\bCM)\s*<?)(?P<mac>" + MAC_PATTERN + r")(?:[^0-9A-Fa-f]|$)"
)
_CMTS_MAC = r"CMTS-MAC=(?P<mac>" + MAC_PATTERN + r")"
_EVENT_ID = r"<(?P<id>\d{8})>"


def _finish(columns: Columns) -> None:
    message = columns["message"]
    columns["cm_mac"] = normalize_array(group(message, _CM_MAC, "mac"))
    columns["cmts_mac"] = normalize_array(group(message, _CMTS_MAC, "mac"))
    event_id = columns.get("event_id", null_strings(len(message)))
    columns["event_id"] = pc.coalesce(event_id, group(message, _EVENT_ID, "id"))


CMTS = Format(
    name="cmts",
    description="CMTS / DOCSIS: Casa CMTS[DOCSIS] events, Cisco %FAC-SEV-MNEMONIC, modem event logs",
    patterns=(CASA, CISCO, MODEM_WORD, MODEM_ID, ARRIS_C4, RFC3164, RFC5424),
    shapes=("iso", "bsd", "us"),
    finish=_finish,
    extras=("cm_mac", "cmts_mac", "event_id", "mnemonic"),
    detect_share=0.3,
    signature=5,
)
