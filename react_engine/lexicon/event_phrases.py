"""Key phrases and common events as users say them, and how logs write them ("failed logins": `Failed password`);
HTTP methods and reason phrases."""

from __future__ import annotations

import re

PHRASES: tuple[tuple[str, str, bool, bool], ...] = (
    (r"\bt([1-6])\s*(?:time[- ]?outs?|timers?|errors?|events?)?\b", r"T{0} time[- ]?out", True, False),
    (r"\b(?:rcs\s+|cm\s+)?partial[- ]service\b", "partial service", False, False),
    (r"\bcm[- ]?status(?:es)?\b", "CM-STATUS", False, False),
    (r"\bevent type code:?\s*(\d+)\b", "Event Type Code: {0};", False, False),
    (r"\bunregistered\b|\bunregsidtimeouts?\b", "unregistered Cable Modem", False, False),
    (r"\b(?:bpi\s+)?unauthori[sz]ed\b|\bunauthsidtimeouts?\b", "BPI unauthorized", False, False),
    (r"\b(?:bad\s+)?(?:timing|tx)\s+offsets?\b|\bbadtxoffsets?\b", "Bad timing offset", False, False),
    (r"\bauth(?:orization)?\s*fail(?:ures?|ed|s)?\b|\bauthfails?\b", "Authorization failed", False, False),
    (r"\branging (?:request )?retries(?: exhausted)?\b", "Ranging Request Retries exhausted", False, False),
    (r"\b(?:loss of sync|sync (?:loss|failures?|losses))\b", "Loss of Sync", False, False),
    (r"\binvalid (?:modem )?(?:capabilities|config(?:uration)?)(?: settings?)?\b", "Invalid Modem Capabilities",
     False, False),
    (r"\b(?:power level changes?|input power(?: level)? changes?|usiplchg)\b", "input power level changed", False,
     False),
    (r"\b(?:invalid docsis messages?|badmncsmsg)\b", "Invalid DOCSIS Message", False, False),
    (r"\b(?:failed authentications?|authentication failures?)\b", "authentication failure", False, False),
    (r"(?<=\bfor )invalid\s+users?\b", "invalid user", False, False),
    (r"\binvalid(?=\s+users?\b)", "Invalid user", False, True),
    (r"\b(?:out of memory|oom)(?: kills?| killed| errors?)?\b", "Out of memory", False, False),
    (r"\b(?:ufw|firewall)\s+block(?:s|ed)?\b|\bblock(?:s|ed)?\s+(?:by\s+(?:the\s+)?(?:ufw|firewall)|packets?)\b"
     r"|\bufw\b", "UFW BLOCK", False, False),
    (r"\b(?:exceptions?|tracebacks?|stack ?traces?)\b", r"Traceback|Exception", True, False),
    (r"\bslow requests?\b", "slow request", False, False),
)
"""Key phrases as users say them -> how logs write them: (question pattern, search value, regex?, case-sensitive?)."""

EVENTS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (r"\bfail(?:ed|ing)? (?:ssh )?(?:passwords?|logins?|log-ins?|authentications?)(?: attempts?)?\b"
     r"|\b(?:ssh )?(?:login|password) failures?\b|\bfail(?:ed|s)? to log ?in\b",
     ("Failed password", "authentication failure", "FAILED LOGIN", "Login failed")),
    (r"\b(?:accepted|successful|succeeded) (?:ssh )?(?:passwords?|logins?|log-ins?|authentications?)\b",
     (r"Accepted (?:password|publickey)", "session opened", "Login successful")),
    (r"\bdis-?connect(?:s|ed|ions?)?\b", ("disconnect",)),
    (r"\btime[- ]?outs?\b|\btimed out\b", (r"time[- ]?out|timed out",)),
    (r"\bdelet(?:e|ed|es|ing|ions?)\b|\bremov(?:ed|als?|ing)\b", (r"\bDelet(?:ing|ed)\b", r"\bdelet", r"\bremov")),
    (r"\bconnections?\b|\bconnect(?:ed|s)?\b", (r"\bconnect",)),
    (r"\breboot(?:s|ed|ing)?\b|\brestart(?:s|ed|ing)?\b", (r"reboot|restart",)),
    (r"\b(?:log[- ]?ins?|login attempts?|logins?)\b", (r"Failed password|Accepted (?:password|publickey)|"
                                                              r"Invalid user",)),
)
"""Common log events as users say them -> how logs write them, in order of preference: the first way of writing whose words occur in the loaded rows is searched (case-insensitive regex); when none does, the first."""
NAMED_LOGINS = (r"\b(successful|accepted|failed|failing)\s+(?!ssh\b|password|login|log-in|auth)([a-z_][\w-]*)\s+"
                r"(logins?|log-ins?|password attempts?|passwords?|authentications?)\b")
""""successful root logins" -> "successful logins for root" (the name then becomes a search of its own)."""

METHODS = r"GET|POST|PUT|DELETE|HEAD|PATCH|OPTIONS"
"""HTTP methods, as request lines write them (regex alternatives)."""

REQUEST_METHOD = rf'"({METHODS}) '
"""A request line's method, in logs that hold no method column (a pattern, the method as group 1)."""

HTTP_REASONS = {r"unauthori[sz]ed": 401, r"forbidden": 403, r"not found": 404, r"bad gateway": 502,
                r"service unavailable": 503, r"gateway time-?out": 504, r"too many requests": 429}
"""HTTP reason phrases -> their status code (on logs with a status column)."""

STATUS_CLASSES = {"1": "informational", "2": "success", "3": "redirect", "4": "client-error", "5": "server-error"}
"""HTTP status classes in words (a "5xx" in an answer would read as the number 5)."""

FREE_TEXT = re.compile(r"\b(?:mention(?:s|ing|ed)?|contain(?:s|ing|ed)?|with the (?:word|text|string)|"
                       r"matching|match(?:es)?|say(?:s|ing)?|saying)\s+([^\s?,;]+)", re.I)
"""Words that ask for lines holding a text ("mentioning timeout"), the text as group 1."""

OPPOSITE_STEMS = (("open", "clos"), ("accept", "reject"), ("start", "stop"), ("success", "fail"), ("allow", "deni"),
                  ("allow", "deny"), ("login", "logout"), ("add", "remov"), ("up", "down"), ("enabl", "disabl"))
"""Stems of words of opposite meaning: an event that says one is never what a question saying the other describes."""

NEGATORS = ("no", "not", "cannot", "can't", "could not", "couldn't", "never", "unable to", "failed to")
"""Words a log writes before an event that did not happen ("no session established", "Cannot assign container")."""

NEGATING_PREFIXES = ("dis", "un", "non", "in", "de")
"""Prefixes that turn a word into its opposite ("disconnect" is no form of "connect")."""

SESSION_EDGES = (("opened", "closed"), ("started", "ended"), ("started", "finished"), ("started", "stopped"),
                 ("start", "end"), ("begin", "end"), ("connected", "disconnected"), ("up", "down"))
"""The words a log writes after a noun at the start and at the end of what the noun names ("session opened" ...
"session closed"), which a duration pairs."""
