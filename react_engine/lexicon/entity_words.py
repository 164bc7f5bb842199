"""What a question counts or ranks: entity words and the kind they name ("IPs": ip), how answers name each kind,
and where a log writes the kinds no tool extracts."""

from __future__ import annotations

TARGETS = (
    ("cmts_mac", r"\bcmts[- ]?macs?\b"),
    ("modem", r"\b(?:cable\s+)?modems?\b|\bcms\b|\bcm(?:[- ]?macs?)?\b|\bmac(?:\s+address(?:es)?|s)?\b|\bdevices?\b"),
    ("remote_host", r"\bremote\s+(?:hosts?|machines?|addresses|address|ips?|clients?)\b|\brhosts?\b"),
    ("ip", r"\b(?:(?:client|source|src|destination|dest|dst|remote|attacker|attacking)\s+)?(?:ip(?:v[46])?"
           r"(?:\s+address(?:es)?|s)?|addresses)\b|\b(?:client|source|src|destination|dest|dst)\s+address\b"
           r"|\bclients?\b|\battackers?\b|\bsources?\b(?!\s+ports?\b)|\bdestinations\b"),
    ("status", r"\b(?:http |response )?status(?:es)?(?: codes?)?\b|\bresponse codes?\b"),
    ("path", r"\bpaths?\b|\burls?\b|\bendpoints?\b|\bpages?\b|\buris?\b"),
    ("method", r"\b(?:http )?methods?\b|\bverbs?\b"),
    ("user_agent", r"\buser[- ]?agents?\b|\bbrowsers?\b"),
    ("user", r"\busers?(?:[- ]?names?)?\b|\baccounts?(?:[- ]?names?)?\b|\blogins? names?\b"
             r"|^\s*who(?=\s+(?:ran|used|invoked|executed|issued|launched)\b)"),  # "who ran sudo the most"
    ("interface", r"\b(?:cable )?interfaces?\b|\bupstreams?\b"),
    ("event_type_code", r"\b(?:cm-status\s+)?event type codes?\b|\bcm-status codes?\b"),
    ("event_id", r"\bevent[- ]?(?:ids?|codes?|types?)\b"),
    ("uuid", r"\brequest[- _]?ids?\b|\buuids?\b"),
    ("pid", r"\bpids?\b|\bprocess[- ]?(?:ids?|numbers?)\b"),
    ("thread", r"\bthreads?(?:[- ]?names?)?\b"),
    ("block", r"\b(?:data\s*)?blocks?(?:[- ]?ids?)?\b|\bblks?\b"),
    ("instance", r"\b(?:vm |server )?instances?(?:[- ]?ids?)?\b"),
    ("port", r"\b(?:(?:source|src|destination|dest|dst|remote|local)\s+)?ports?\b"),
    ("host", r"\bhosts?(?:names?)?\b|\bservers?\b|\bcmts(?:s|es)?\b|\bmachines?\b|\bnodes?\b"),
    ("component", r"\bcomponents?\b|\bprograms?\b|\btags?\b|\bprocess(?:es)?\b|\bservices?\b|\bloggers?\b|\bdaemons?\b"
                  r"|\bapplications?\b|\bapps?\b|\bfacilit(?:y|ies)\b|\bmodules?\b|\bclass(?:es)?\b"),
    ("severity", r"\bseverit(?:y|ies)\b|\b(?:log )?levels?\b|\bpriorit(?:y|ies)\b"),
    ("message", r"\bmessages?\b"),
)
"""Entity words -> target kind."""
ENTITY_TYPES = frozenset({"cm_mac", "mac", "ip", "user", "interface", "cmts_mac", "http_status", "uuid",
                          "invoking_user", "target_user", "source_ip", "destination_ip"})
"""Entity types the tools extract (the other targets are columns)."""
CUSTOM_ENTITIES = {"event_type_code": r"Event Type Code: (\d+)", "block": r"\b(blk_-?\d+)",
                   "instance": r"\[instance: ([0-9a-fA-F-]{36})\]", "port": r"\bport[ =:]+(\d+)",
                   "remote_host": r"\brhost=([^\s;,]+)"}
"""What the tools have no type for, as an extraction pattern (its group is the value)."""
COUNTABLE = frozenset({"modem", "cmts_mac", "ip", "user", "interface", "uuid", "block", "instance", "port",
                       "remote_host", "host", "component"})
"""The kinds "how many X" counts distinctly."""
LABELS = {"modem": "modems", "cmts_mac": "CMTS MACs", "ip": "IP addresses", "user": "users",
          "status": "status codes", "path": "paths", "method": "methods", "user_agent": "user agents",
          "interface": "interfaces", "event_id": "event IDs", "host": "hosts", "component": "components",
          "severity": "severities", "message": "messages", "uuid": "request IDs",
          "event_type_code": "CM-STATUS event type codes", "remote_host": "remote hosts", "pid": "process IDs",
          "thread": "threads", "block": "blocks", "instance": "instances", "port": "ports",
          "invoking_user": "invoking users", "target_user": "target users"}
"""How an answer names each kind's values."""

GENERIC_COMPONENTS = {"cmts", "cm", "app", "api", "main", "root", "system", "server", "client", "http", "db",
                      "web", "log", "logs", "cablemodem"}
"""Component names too generic to be read as "from that component" when a question uses the word."""

HOST_WORD = r"(?:\b(?:the\s+)?(?:host|cmts|server|node|machine)\s+)?"
""""host"/"cmts" before a host name."""

KEY_NOUNS = frozenset({"node", "host", "program", "process", "component", "user", "ip", "status", "method", "level",
                       "logger", "thread", "pid", "service", "app", "application", "client", "server", "path", "url",
                       "endpoint", "code", "type", "category", "module", "source", "tag", "device", "modem",
                       "interface", "port", "session", "job", "task", "worker", "severity", "file"})
"""Nouns that name a key to group by ("by node", "per program"), unlike the value a source filter names ("by sshd")."""

COMMON_COLUMNS = frozenset({"host", "component", "pid", "thread", "user", "ip", "status", "method", "level",
                            "level_raw", "event_id", "path", "request", "session", "process", "program", "tid",
                            "node"})
"""Columns many logs have, which "how many <noun>" reads by its own rules (entities, severities)."""

CORE_COLUMNS = frozenset({"timestamp", "message", "raw", "source", "line", "severity"})
"""Columns every log has, which a noun of a question never means ("lines other than INFO" names no column)."""

ROLE_WORDS = {"source": "source", "src": "source", "sources": "source", "sent": "source", "made": "source",
              "opened": "source", "initiated": "source", "destination": "destination", "dest": "destination",
              "dst": "destination", "destinations": "destination", "client": "client", "clients": "client"}
"""A word naming the role of an address or port ("source addresses", "which IP sent ...") -> the role."""

ROLE_MARKS = {("source", "ip"): ("src", "source", "from"), ("destination", "ip"): ("dst", "destination", "to"),
              ("client", "ip"): ("client",), ("source", "port"): ("spt", "sport", "src_port", "source port"),
              ("destination", "port"): ("dpt", "dport", "dst_port", "destination port"), ("client", "port"): ()}
"""(role, kind) -> the marks lines write before a value in that role, most specific first (`SRC=`, `to`)."""

ENTITY_ROLES = {"user": {"invoking_user": "the users who ran the command", "target_user": "the users it ran as or was for"},
                "ip": {"source_ip": "the addresses the lines say are the source (SRC, from)",
                       "destination_ip": "the addresses they say are the destination (DST, to)"}}
"""A kind of value lines write in several roles -> the entity type of each role and what it is: the user who ran a
command (`sudo: bob : ...`, `by bob(uid=1000)`) and the one it ran as or was for (`USER=root`, `for user root`); the
address a packet or connection came from (`SRC=`, `from`) and the one it went to (`DST=`, `to`). A count of the kind
itself, over lines whose roles differ, is asked of one role only."""

_RAN = r"(?:ran|run|runs|running|used|uses|using|invoked|invokes|executed|executes|issued|issues|called|launched|typed)"
"""The verbs saying a user ran a command ("users who ran sudo"), as a regex."""
USER_ROLE_WORDS = (
    ("target_user", r"\b(?:as|for|to)\s*[?.!]*\s*$|\b(?:as|for)\s+(?:which|what|whom)\b"
                    r"|\btarget(?:ed)?\s+(?:users?|accounts?)\b|\bbec(?:a|o)me\b|\bwhose\s+sessions?\b"
                    r"|\b(?:users?|accounts?)\s+(?:who\s+|that\s+|which\s+)?(?:ha(?:ve|s|d)|got|gets?)\s+"
                    r"(?:an?\s+|the\s+|their\s+)?(?:(?:most|fewest|least|more|fewer)\s+)?(?:sessions?|shells?|logins?)\b"
                    r"|\b(?:was|were|is|are|been|gets?|got)\s+(?:\w+\s+){0,3}?(?:ran|run|executed)\s+as\b"
                    r"|\b(?:sudo(?:ed|'d)?|su|switch(?:ed|es|ing)?|escalat\w*)\s+(?:in)?to\b"),
    ("invoking_user", rf"^\s*who\s+{_RAN}\b"
                      rf"|\b(?:users?|accounts?|usernames?)\s+(?:who\s+|that\s+|which\s+)?(?:ha(?:ve|s|d)\s+)?{_RAN}\b"
                      r"|\bby\s*[?.!]*\s*$|\bby\s+(?:which|what|whom)\s+(?:users?|accounts?)\b"
                      r"|\binvok(?:ers?|ing\s+users?)\b"),
)
"""How a question picks the role of the users it counts or ranks (`ENTITY_ROLES`), checked in this order: whom a
command ran as or a session was for ("which users did sudo run as", "sudo to", "for which user"), then who ran it
("users who ran sudo", "used sudo", "run by which user"; not "by user", which groups)."""
USER_ROLE_VERBS = rf"\b(?:{_RAN}|target\w*|bec[ao]me|switch\w*|escalat\w*|invok\w*)\b"
"""The words of `USER_ROLE_WORDS` that say only the role (read, so that none is left unexplained)."""

SOURCE_KINDS = ("host", "node", "server", "machine", "program", "process", "daemon", "service", "component", "app")
"""Words naming what logged a line ("came from the host X", "logged by the daemon X"), hosts first."""

HOST_KINDS = SOURCE_KINDS[:4]
"""The words among `SOURCE_KINDS` that name a host."""

KEY_ALIASES = {"level": "level_raw", "levels": "level_raw", "logger": "component", "tag": "component",
               "program": "component", "http_status": "status", "ip": "client_ip", "client": "client_ip"}
"""What a group key may say for a column of another name: the level as the log writes it, a JSON logger or a tag,
an access log's client."""
