"""The built-in planner: maps a question to a fixed tool sequence with rules, no model needed.

Each turn it reads the question again, derives the whole plan (deterministically), and sends the next action
that the history does not show yet, in the same JSON shape a model would. After the last tool it answers with
the value that tool computed. A question it cannot map is answered with a suggested phrasing and no value:
it never guesses.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, Callable

from react_engine.planners.base import ContextView, HistoryItem, Planner, PlannerReply, PlanRequest
from react_engine.tools.regex import literal

NARROWING = frozenset({"search_logs", "filter_by_severity", "filter_by_time", "filter_by_field"})
SUGGESTION = ('try e.g. "how many errors in the last hour", "how many unique modems had T3 timeouts on '
              'HOST", "top IPs with failed passwords", or put the exact log text in quotes')

# --------------------------------------------------------------------------------------------- vocabulary

_NUMBER_WORDS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
                 "eight": 8, "nine": 9, "ten": 10, "twelve": 12, "fifteen": 15, "twenty": 20, "thirty": 30,
                 "sixty": 60}
_UNITS = {"s": "s", "sec": "s", "second": "s", "m": "m", "min": "m", "minute": "m", "h": "h", "hr": "h",
          "hour": "h", "d": "d", "day": "d", "w": "w", "week": "w"}
_UNIT = r"(seconds?|secs?|minutes?|mins?|hours?|hrs?|days?|weeks?|[smhdw])"
_AMOUNT = r"(\d+|" + "|".join(_NUMBER_WORDS) + r")"

# Key phrases as users say them -> how logs write them: (question pattern, search value, regex?, case-sensitive?)
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
    (r"\bfailed (?:ssh )?(?:passwords?|logins?|log-ins?|authentications?)(?: attempts?)?\b"
     r"|\b(?:ssh )?(?:login|authentication|password) failures\b", "Failed password", False, False),
    (r"\binvalid(?=\s+users?\b)", "Invalid user", False, True),
    (r"\b(?:accepted|successful) (?:ssh )?(?:passwords?|logins?|log-ins?)\b", r"Accepted (?:password|publickey)",
     True, False),
    (r"\b(?:out of memory|oom)(?: kills?| killed| errors?)?\b", "Out of memory", False, False),
    (r"\b(?:log(?:ged)?[- ]?ins?|login attempts?|logins?)\b", r"Failed password|Accepted (?:password|publickey)|"
     r"Invalid user", True, False),
    (r"\b(?:ufw|firewall)\s+block(?:s|ed)?\b|\bblock(?:s|ed)?(?:\s+(?:by\s+)?(?:the\s+)?(?:ufw|firewall)"
     r"|\s+(?:connections?|packets?))?\b", "UFW BLOCK", False, False),
    (r"\b(?:exceptions?|tracebacks?|stack ?traces?)\b", r"Traceback|Exception", True, False),
    (r"\bslow requests?\b", "slow request", False, False),
    (r"\btime[- ]?outs?\b|\btimed out\b", r"time[- ]?out|timed out", True, False),
    (r"\breboots?\b|\brestarts?\b", r"reboot|restart", True, False),
)

_SEVERITY_WORDS = (
    (r"\bemergenc(?:y|ies)\b|\bemerg\b|\bpanics?\b", "emergency"),
    (r"\bcritical(?:s)?\b|\bcrit\b", "critical"),
    (r"\bfatal(?:s)?\b", "FATAL"),
    (r"\bsevere\b", "SEVERE"),
    (r"\berrors?\b|\berr\b", "error"),
    (r"\bwarnings?\b|\bwarns?\b", "warning"),
    (r"\bnotices?\b", "notice"),
    (r"\binfo(?:rmational)?\b", "info"),
    (r"\bdebug\b", "debug"),
)
_STEMS = {"emergency": "emerg", "critical": "crit", "warning": "warn"}
_AT_LEAST = (r"\b(?:at least|min(?:imum)?(?: level)?)\s+(?:{w})|(?:{w})\s+(?:or|and)\s+(?:worse|above|higher|"
             r"more severe|up)\b")

# entity words -> target kind
_TARGETS = (
    ("cmts_mac", r"\bcmts[- ]?macs?\b"),
    ("modem", r"\b(?:cable\s+)?modems?\b|\bcms\b|\bcm(?:[- ]?macs?)?\b|\bmac(?:\s+address(?:es)?|s)?\b|\bdevices?\b"),
    ("ip", r"\b(?:client |source |remote |attacker |attacking )?ip(?:v[46])?(?:\s+address(?:es)?|s)?\b"
           r"|\baddresses\b|\bclients?\b|\battackers?\b|\bsources?\b"),
    ("status", r"\b(?:http |response )?status(?:es)?(?: codes?)?\b|\bresponse codes?\b"),
    ("path", r"\bpaths?\b|\burls?\b|\bendpoints?\b|\bpages?\b|\buris?\b"),
    ("method", r"\b(?:http )?methods?\b|\bverbs?\b"),
    ("user_agent", r"\buser[- ]?agents?\b|\bbrowsers?\b"),
    ("user", r"\busers?(?:names?)?\b|\baccounts?\b|\blogins? names?\b"),
    ("interface", r"\b(?:cable )?interfaces?\b|\bupstreams?\b"),
    ("event_id", r"\bevent[- ]?(?:ids?|codes?|types?)\b"),
    ("uuid", r"\brequest[- _]?ids?\b|\buuids?\b"),
    ("host", r"\bhosts?(?:names?)?\b|\bservers?\b|\bcmts(?:s|es)?\b|\bmachines?\b|\bnodes?\b"),
    ("component", r"\bcomponents?\b|\bprograms?\b|\bprocess(?:es)?\b|\bservices?\b|\bloggers?\b|\bdaemons?\b"
                  r"|\bapplications?\b|\bapps?\b|\bfacilit(?:y|ies)\b"),
    ("severity", r"\bseverit(?:y|ies)\b|\b(?:log )?levels?\b|\bpriorit(?:y|ies)\b"),
    ("message", r"\bmessages?\b"),
)
ENTITY_TYPES = frozenset({"cm_mac", "mac", "ip", "user", "interface", "cmts_mac", "http_status", "uuid"})
_USER_FIELD = r'(?i)"?\buser(?:name)?"?\s*[=:]\s*"?([A-Za-z0-9._@$-]*[A-Za-z0-9_$])'
COUNTABLE = frozenset({"modem", "cmts_mac", "ip", "user", "interface", "uuid"})
_LABELS = {"modem": "modems", "cmts_mac": "CMTS MACs", "ip": "IP addresses", "user": "users", "status": "status codes",
           "path": "paths", "method": "methods", "user_agent": "user agents", "interface": "interfaces",
           "event_id": "event IDs", "host": "hosts", "component": "components", "severity": "severities",
           "message": "messages", "uuid": "request IDs"}

_FILLER = set("""
a an the of in on at for from to by with within during over across into and or than as
how many much what which who whose when where is are was were be been being do does did have has had having
there any all each every some me my our we us i you your it its this that these those them they their
show list give tell display print find count counted number numbers total totals time times amount
log logs logged line lines entry entries event events record records row rows occurrence occurrences item items
file files data text seen see saw occur occurred occurring happen happened happening appear appeared appearing
recorded report reported reports get got let please can could would should will may might just only also
affected affect affecting experienced experience experiencing hit hitting had see shown produce produced
unique distinct different separate individual top most common commonly frequent frequently often active noisy
noisiest busiest biggest highest largest worst ones one kind kinds type types per each every
ago past last previous recent recently latest now so far up until till since between after before
about around approximately overall altogether whole entire here exactly many
mention mentions mentioning mentioned contain contains containing contained matching match matches say says saying
attempt attempts try tries tried trying job jobs run runs ran request requests response responses hit hits
call calls command commands breakdown broken down split distribution deleted removed returned returning generated triggered
raised thrown emitted sent received caused
""".split())
_FREE_TEXT = re.compile(r"\b(?:mention(?:s|ing|ed)?|contain(?:s|ing|ed)?|with the (?:word|text|string)|"
                        r"matching|match(?:es)?|say(?:s|ing)?|saying)\s+([^\s?,;]+)", re.I)


# --------------------------------------------------------------------------------------------- the plan

@dataclass(frozen=True)
class Call:
    """One tool call of the plan, with the one-sentence reason sent as `reasoning`."""

    action: str
    params: dict[str, Any]
    reasoning: str


@dataclass
class Plan:
    """What the question asks for, as tool calls plus how to word the answer."""

    calls: list[Call] = field(default_factory=list)
    goal: str = "count"  # count | unique | top | which | list | histogram | show
    target: str | None = None  # the entity/column the goal is about
    scope: list[str] = field(default_factory=list)  # what the narrowing steps kept, in words
    problem: str | None = None  # why the question could not be mapped


class _Question:
    """The question text with the spans already explained by a rule marked as consumed."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.used = [False] * len(text)

    def take(self, pattern: str, flags: int = re.I,
             accept: Callable[[re.Match[str]], bool] | None = None) -> list[re.Match[str]]:
        """Matches of `pattern` (that `accept` approves) not overlapping consumed text; they become consumed."""
        found = []
        for m in re.finditer(pattern, self.text, flags):
            if m.end() > m.start() and not any(self.used[m.start():m.end()]) and (accept is None or accept(m)):
                self.used[m.start():m.end()] = [True] * (m.end() - m.start())
                found.append(m)
        return found

    def has(self, pattern: str) -> bool:
        return re.search(pattern, self.text, re.I) is not None

    def leftover(self) -> list[str]:
        """Content words no rule explained."""
        rest = "".join(" " if u else c for c, u in zip(self.text, self.used))
        words = re.findall(r"[A-Za-z0-9][\w.'/:-]*", rest)
        return [w for w in words if w.lower().strip("'.-") not in _FILLER and len(w) > 1]


def _amount(word: str | None) -> int:
    if not word:
        return 1
    return int(word) if word.isdigit() else _NUMBER_WORDS[word.lower()]


def _clock(text: str, day: str) -> str | None:
    """`08:00`, `8am`, `2:30 pm`, `noon`, `midnight` or an ISO date/time -> ISO text (on `day` for clock times)."""
    t = text.strip().lower()
    if re.fullmatch(r"\d{4}-\d{2}-\d{2}(?:[ t]\d{1,2}:\d{2}(?::\d{2})?)?z?", t):
        return t.upper().replace(" ", "T").rstrip("Z")
    if t in ("noon", "midday"):
        return f"{day}T12:00:00"
    if t == "midnight":
        return f"{day}T00:00:00"
    m = re.fullmatch(r"(\d{1,2})(?::(\d{2}))?(?::(\d{2}))?\s*(am|pm)?", t)
    if not m or (m.group(2) is None and m.group(4) is None):
        return None
    hour = int(m.group(1)) % 12 + (12 if m.group(4) == "pm" else 0) if m.group(4) else int(m.group(1))
    if hour > 23 or int(m.group(2) or 0) > 59:
        return None
    return f"{day}T{hour:02d}:{int(m.group(2) or 0):02d}:{int(m.group(3) or 0):02d}"


_TIME = r"(\d{4}-\d{2}-\d{2}(?:[ T]\d{1,2}:\d{2}(?::\d{2})?)?Z?|\d{1,2}(?::\d{2}){0,2}\s*(?:am|pm)?|noon|midnight)"


def _time_window(q: _Question, now: str | None) -> tuple[str, str, str] | None:
    """(start, end, words) for the time window the question names, or None."""
    day = now[:10] if now else None
    for m in q.take(r"\b(?:in |within |during |over |for )?(?:the )?(?:last|past|previous|recent)\s+"
                    + _AMOUNT + r"?\s*" + _UNIT + r"\b"):
        unit = _UNITS[m.group(2).lower().rstrip("s") if len(m.group(2)) > 1 else m.group(2).lower()]
        start = f"now-{_amount(m.group(1))}{unit}"
        return start, "now", f"from {start} to now"
    for m in q.take(r"\b" + _AMOUNT + r"\s*" + _UNIT + r"\s+ago\b"):
        unit = _UNITS[m.group(2).lower().rstrip("s") if len(m.group(2)) > 1 else m.group(2).lower()]
        start = f"now-{_amount(m.group(1))}{unit}"
        return start, "now", f"from {start} to now"
    if day is None:
        return None
    for m in q.take(r"\b(?:on|during|for)\s+(\d{4}-\d{2}-\d{2})\b(?![ T]\d)"):
        return f"{m.group(1)}T00:00:00", f"{m.group(1)}T23:59:59.999999", f"on {m.group(1)}"
    if q.take(r"\btoday\b|\bthis day\b"):
        return f"{day}T00:00:00", "now", f"today (from {day}T00:00:00 to now)"
    if q.take(r"\byesterday\b"):
        before = (datetime.fromisoformat(day) - timedelta(days=1)).date().isoformat()
        return f"{before}T00:00:00", f"{before}T23:59:59.999999", f"yesterday ({before})"
    for m in q.take(r"\b(?:between|from)\s+" + _TIME + r"\s+(?:and|to|until|till|-)\s+" + _TIME,
                    accept=lambda m: bool(_clock(m.group(1), day) and _clock(m.group(2), day))):
        start, end = _clock(m.group(1), day), _clock(m.group(2), day)
        return start, end, f"from {start} to {end}"
    for m in q.take(r"\b(since|after|before|until)\s+" + _TIME, accept=lambda m: bool(_clock(m.group(2), day))):
        at = _clock(m.group(2), day)
        if m.group(1).lower() in ("since", "after"):
            return at, "now", f"from {at} to now"
        return "1970-01-01T00:00:00", at, f"up to {at}"
    return None


_HOST_WORD = r"(?:\b(?:the\s+)?(?:host|cmts|server|node|machine)\s+)?"


def _word_pattern(value: str) -> str:
    return r"(?<![\w.-])" + re.escape(value) + r"(?![\w-])"


def _known(q: _Question, values: list[str], skip: set[str]) -> list[str]:
    """Values from the data that the question names (whole tokens, any case; `svc` names `api.svc` too)."""
    named = []
    for value in sorted(values, key=len, reverse=True):
        if value.lower() in skip or len(value) < 2:
            continue
        tail = re.split(r"[./]", value)[-1]
        generic = tail.lower() in _FILLER or any(re.fullmatch(p, tail, re.I) for _, p in _TARGETS)
        patterns = [_HOST_WORD + _word_pattern(value)] + (
            [_word_pattern(tail)] if tail != value and len(tail) > 3 and not generic else [])
        if any(q.take(p) for p in patterns):
            named.append(value)
    return named


_GENERIC_COMPONENTS = {"cmts", "cm", "app", "api", "main", "root", "system", "server", "client", "http", "db",
                       "web", "log", "logs", "cablemodem", "kernel-"}


def _literals(q: _Question, plan: Plan) -> None:
    """Quoted phrases, MAC and IP addresses and interface names written in the question become searches."""
    for m in q.take(r"\"([^\"]+)\"|“([^”]+)”|`([^`]+)`|(?<!\w)'([^']+)'(?!\w)"):
        phrase = next(g for g in m.groups() if g)
        _search(plan, phrase, False, f'containing "{phrase}"')
    mac = r"\b(?:[0-9a-f]{2}[:-]){5}[0-9a-f]{2}\b|\b(?:[0-9a-f]{4}\.){2}[0-9a-f]{4}\b"
    for m in q.take(r"(?:\b(?:mac|modem|cm)\s+)?(" + mac + ")"):
        digits = re.sub(r"[^0-9a-f]", "", m.group(1).lower())
        pattern = "(?i)" + r"[:.-]?".join(digits[i:i + 2] for i in range(0, 12, 2))
        _search(plan, pattern, True, f"mentioning MAC {m.group(1)} (any notation)")
    for m in q.take(r"(?:\bip(?: address)?\s+)?\b(\d{1,3}(?:\.\d{1,3}){3})\b"):
        _search(plan, m.group(1), False, f"mentioning {m.group(1)}")
    for m in q.take(r"\b((?:cable|gi|te)\d+(?:/\d+)+(?::\d+)?)\b|(?<![\w/])(/[\w.~%/-]+)"):
        text = m.group(1) or m.group(2)
        _search(plan, text, False, f"mentioning {text}")


def _search(plan: Plan, value: str, regex: bool, words: str, case_sensitive: bool = False) -> None:
    params: dict[str, Any] = {"value": value}
    if regex:
        params["regex"] = True
    if case_sensitive:
        params["case_sensitive"] = True
    plan.calls.append(Call("search_logs", params, f"keep lines {words}"))
    plan.scope.append(words)


_STATUS_CLASSES = {"1": "informational", "2": "success", "3": "redirect", "4": "client-error", "5": "server-error"}


def _status(q: _Question, plan: Plan, columns: list[str]) -> None:
    """HTTP status classes and codes (`5xx`, `server errors`, `404s`, `status 500`)."""
    has_column = "status" in columns
    for m in q.take(r"\b([1-5])xx(?:\s+(?:errors?|responses?|status(?:es)?|codes?))?\b"
                    r"|\b(server|client)\s+errors?\b"):
        digit = m.group(1) or ("5" if m.group(2).lower() == "server" else "4")
        words = f"with an HTTP {_STATUS_CLASSES[digit]} status"
        if has_column:
            plan.calls.append(Call("filter_by_field", {"field": "status", "value": f"^{digit}[0-9][0-9]$",
                                                       "op": "regex"}, f"keep responses {words}"))
            plan.scope.append(words)
        else:
            _search(plan, f'" {digit}[0-9][0-9] ', True, words)
    for m in q.take(r"\b(?:status(?: code)?\s+|http\s+)?([1-5]\d\d)(?:s\b|\s+(?:errors?|responses?|codes?|status)\b|"
                    r"(?=\s*$|\s*\?))|\bstatus(?: code)?\s+([1-5]\d\d)\b"):
        code = m.group(1) or m.group(2)
        if has_column:
            plan.calls.append(Call("filter_by_field", {"field": "status", "value": int(code)},
                                   f"keep responses with status {code}"))
            plan.scope.append(f"with status {code}")
        else:
            _search(plan, f'" {code} ', False, f"with status {code}")


def _severity(q: _Question, plan: Plan, uses_severity: bool) -> None:
    """Severity words, as one level filter when the logs carry levels, else as a search for the words."""
    minimum, hits = None, []
    for pattern, level in _SEVERITY_WORDS:
        if q.take(_AT_LEAST.format(w=pattern)):
            minimum = minimum or level.lower()
        hits += [(m.start(), m.end(), level) for m in q.take(pattern)]
    hits.sort()
    # in "fatal errors" the level is the adjective and "errors" only the noun
    levels = list(dict.fromkeys(level for i, (start, _, level) in enumerate(hits) if not (
        level == "error" and i and not q.text[hits[i - 1][1]:start].strip())))
    if not levels and minimum is None:
        return
    if not uses_severity:
        stems = [_STEMS.get(w, w.lower()) for w in levels + ([minimum] if minimum else [])]
        _search(plan, "|".join(stems), len(stems) > 1, f'containing {" or ".join(stems)} (these logs record no '
                                                       "severities)")
        return
    params: dict[str, Any] = {"levels": levels}
    words = " or ".join(levels)
    if minimum:
        params["min_level"] = minimum
        words = " or ".join(filter(None, [words, f"{minimum} or worse"]))
    plan.calls.append(Call("filter_by_severity", params, f"keep lines with severity {words}"))
    plan.scope.append(f"with severity {words}")


def _goal(q: _Question, plan: Plan) -> int:
    """Set `plan.goal`; returns how many values a top list should have."""
    n = 5
    if q.take(r"\b(?:per|by|each|every)\s+(minute|hour|day)\b|\b(hourly|daily)\b|\bover time\b|\bhistogram\b"
              r"|\btimeline\b|\btrend\b"):
        plan.goal = "histogram"
    elif (m := q.take(r"\btop\s*" + _AMOUNT + r"?\b")):
        plan.goal, n = "top", _amount(m[0].group(1)) if m[0].group(1) else 5
    elif q.has(r"\b(?:which|who)\b|^\s*what\s+(?!are\b|were\b)") and q.has(
            r"\bmost\b|\bhighest\b|\blargest\b|\bbiggest\b|\bnoisiest\b|\bbusiest\b|\bworst\b"):
        plan.goal = "which"
    elif q.has(r"\bmost (?:common|frequent|active|affected|seen)\b|\bfrequent\b|\bnoisiest\b|\bbusiest\b"
               r"|\bbreak(?:down| down)\b|\b(?:by|per|for each)\s+\w+"):
        plan.goal = "top"
        n = 10 if q.has(r"\bbreak(?:down| down)\b|\b(?:by|per|for each)\s+\w+") else 5
    elif q.has(r"\bunique\b|\bdistinct\b|\bdifferent\b|\bindividual\b"):
        plan.goal = "unique"
    elif q.has(r"\bhow many\b|\bnumber of\b|\bcount\b|\bhow often\b|\btotal\b"):
        plan.goal = "count"
    elif q.has(r"^\s*(?:which|what)\b"):
        plan.goal = "list"
    elif q.has(r"^\s*(?:show|list|display|print|give me)\b|\bexamples?\b|\bsamples?\b"):
        plan.goal = "show"
    elif q.has(r"^\s*(?:are|were|is|was|did|do|does|has|have|any)\b"):
        plan.goal = "count"
    else:
        plan.goal = ""
    return n


def _target(q: _Question, plan: Plan) -> None:
    """The entity or column the question counts or ranks (modems, IPs, users...)."""
    first = len(q.text)
    for kind, pattern in _TARGETS:
        for m in q.take(pattern):
            if m.start() < first:
                plan.target, first = kind, m.start()
    if plan.target == "message" and plan.goal not in ("top", "which", "list"):
        plan.target = None  # "how many messages" counts lines
    if plan.target is None and plan.goal in ("top", "which") and q.has(r"\berrors?\b|\bwarnings?\b"):
        plan.target = "message"  # "the most common errors"
    counted = re.search(r"\b(?:how many|number of|count(?: of| the)?)\s+(?:(?:unique|distinct|different|"
                        r"individual|of|the)\s+)*", q.text, re.I)
    between = range(counted.end(), first) if counted else range(0)
    head_noun = re.match(r"\S*\s+(?:attempts?|events?|lines?|entries|messages?|errors?|requests?|logins?|failures?"
                         r"|records?|occurrences?|times)\b", q.text[first:])
    if plan.goal == "count" and plan.target in COUNTABLE and counted and not head_noun and first >= counted.end() and all(
            q.used[i] or q.text[i].isspace() for i in between):  # "how many [unregistered] modems"
        plan.goal = "unique"  # "how many modems ..." asks for distinct modems
    if plan.target is None and plan.goal == "unique":
        plan.goal = "count"


def _entity(target: str, columns: list[str]) -> str:
    """The entity type or column name the tools know for `target`."""
    if target == "modem":
        return "cm_mac" if "cm_mac" in columns else "mac"
    if target == "ip":
        return "client_ip" if "client_ip" in columns else "ip"
    if target == "status":
        return "status" if "status" in columns else "http_status"
    return target


def _extract(kind: str, label: str, columns: list[str]) -> Call:
    if kind == "user" and "user" in columns:  # a column: find it as `user=` or `"user": "..."` in the line
        return Call("extract_entities", {"types": [], "pattern": _USER_FIELD, "name": "user"}, f"find the {label}")
    return Call("extract_entities", {"types": [kind]}, f"find the {label}")


def _aggregate(plan: Plan, columns: list[str], n: int, interval: str) -> None:
    """The measuring calls after the narrowing ones."""
    if plan.goal == "histogram":
        plan.calls.append(Call("count_by_time", {"interval": interval}, f"count lines per {interval}"))
        return
    if plan.goal == "show":
        plan.calls.append(Call("show_logs", {"n": n}, "show the matching lines"))
        return
    if plan.target is None and plan.goal in ("top", "which"):
        plan.problem = "I could not tell what to rank"
        return
    if plan.target is None and plan.goal == "list":
        plan.goal = "show"
        plan.calls.append(Call("show_logs", {"n": 10}, "show the matching lines"))
        return
    if plan.target is None or plan.goal == "count":
        plan.calls.append(Call("get_log_count", {}, "count the remaining lines"))
        return
    name, label = _entity(plan.target, columns), _LABELS[plan.target]
    kind = "ip" if name == "client_ip" else name
    if plan.goal in ("unique", "list") and kind in ENTITY_TYPES:
        plan.calls.append(_extract(kind, label, columns))
        plan.calls.append(Call("count_entities", {"type": kind, "unique": True}, f"count the distinct {label}"))
        if plan.goal == "unique":
            return
    elif plan.goal == "unique":
        plan.goal, n = "distinct", 50  # a column: list its values instead of counting them
    size = 10 if plan.goal == "list" else n
    plan.calls.append(Call("top_values", {"field": name, "n": size}, f"rank the {label} by their number of lines"))


def _places(q: _Question, plan: Plan, view: ContextView) -> None:
    """Hosts and components named in the question (known from the data, or host-like names after `on`)."""
    known = view.known_values
    hosts = _known(q, known.get("host", []), set())
    components = _known(q, known.get("component", []), _GENERIC_COMPONENTS | {h.lower() for h in hosts})
    for m in q.take(r"\b(?:on|from|at|for)\s+" + _HOST_WORD + r"([A-Z][A-Za-z0-9_-]*\d[A-Za-z0-9_-]*)\b", 0,
                    accept=lambda m: not re.fullmatch(r"T\d|\d+[a-z]*", m.group(1))):
        hosts.append(m.group(1))
    _one_of(plan, "host", hosts, "on host")
    _one_of(plan, "component", components, "from")


def _one_of(plan: Plan, column: str, values: list[str], words: str) -> None:
    """Keep the rows whose `column` is any of `values` (several names mean either of them)."""
    if not values:
        return
    if len(values) == 1:
        params: dict[str, Any] = {"field": column, "value": values[0]}
    else:
        params = {"field": column, "value": "^(?:" + "|".join(literal(v) for v in values) + ")$", "op": "regex"}
    shown = " or ".join(values)
    plan.calls.append(Call("filter_by_field", params, f"keep lines {words} {shown}"))
    plan.scope.append(f"{words} {shown}")


def _phrases(q: _Question, plan: Plan) -> None:
    """Key phrases as searches; phrases joined by "or" become one search for either."""
    found = sorted((m.start(), m.end(), value.format(*m.groups()), regex, case)
                   for pattern, value, regex, case in PHRASES for m in q.take(pattern))
    groups: list[list[tuple[int, int, str, bool, bool]]] = []
    for item in found:
        if groups and re.fullmatch(r"\s*(?:,|or|and/or|, or)\s*", q.text[groups[-1][-1][1]:item[0]], re.I):
            groups[-1].append(item)
        else:
            groups.append([item])
    for group in groups:
        texts = list(dict.fromkeys(text if regex else literal(text) for _, _, text, regex, _ in group))
        if len(group) == 1:
            _, _, text, regex, case = group[0]
            _search(plan, text, regex, f"matching /{text}/" if regex else f'containing "{text}"', case)
        else:
            pattern = "|".join(texts)
            _search(plan, pattern, True, f"matching /{pattern}/", all(case for *_, case in group))


def _texts(q: _Question, plan: Plan, columns: list[str], uses_severity: bool) -> None:
    """Everything that becomes a text search or a level, status or method filter."""
    _status(q, plan, columns)
    for m in q.take(r"\b(GET|POST|PUT|DELETE|HEAD|PATCH|OPTIONS)\b", 0):
        if "method" in columns:
            plan.calls.append(Call("filter_by_field", {"field": "method", "value": m.group(1)},
                                   f"keep {m.group(1)} requests"))
            plan.scope.append(f"method {m.group(1)}")
        else:
            _search(plan, f'"{m.group(1)} ', False, f"{m.group(1)} requests")
    for m in q.take(r"\b(\d{8})\b"):
        if "event_id" in columns:
            plan.calls.append(Call("filter_by_field", {"field": "event_id", "value": m.group(1)},
                                   f"keep events with ID {m.group(1)}"))
            plan.scope.append(f"event ID {m.group(1)}")
        else:
            _search(plan, f"<{m.group(1)}>", False, f"event ID {m.group(1)}")
    _phrases(q, plan)
    _severity(q, plan, uses_severity)
    for m in q.take(r"\b([A-Z][A-Z0-9_]{4,})\b", 0):  # a mnemonic or other upper-case name, as written
        _search(plan, m.group(1), False, f'mentioning "{m.group(1)}"')
    for m in q.take(_FREE_TEXT.pattern):
        _search(plan, m.group(1), False, f'containing "{m.group(1)}"')
    for m in q.take(r"\b(?:for|by)\s+(?:the\s+)?(?:user\s+|account\s+)?([A-Za-z_][\w.-]*)",
                    accept=lambda m: _names_something(m.group(1))):
        _search(plan, m.group(1), False, f'mentioning "{m.group(1)}"')


def _names_something(word: str) -> bool:
    """A word after "for"/"by" that is a name (a user, a service) rather than a word of the question."""
    return word.lower() not in _FILLER and not any(re.fullmatch(p, word, re.I) for _, p in _TARGETS) and not any(
        re.fullmatch(p, word, re.I) for p, _ in _SEVERITY_WORDS)


def build_plan(question: str, view: ContextView, uses_severity: bool) -> Plan:
    """The whole plan for `question`, derived only from the question and what does not change during a run."""
    q, plan, texts = _Question(question), Plan(), Plan()
    _literals(q, texts)  # first: an interface or IP must not be read as a host name
    _places(q, plan, view)
    window = _time_window(q, view.now)
    if window:
        start, end, words = window
        plan.calls.append(Call("filter_by_time", {"start": start, "end": end}, f"keep lines {words}"))
        plan.scope.append(words + (f" (now = {view.now})" if end == "now" else ""))
    _texts(q, texts, view.columns, uses_severity)
    plan.calls += texts.calls
    plan.scope += texts.scope
    n = _goal(q, plan)
    unit = re.search(r"\b(minute|day|daily)\b", question, re.I)
    interval = "1m" if unit and unit.group(1).lower() == "minute" else "1d" if unit else "1h"
    _target(q, plan)
    leftover = q.leftover()
    if leftover:
        plan.problem = f'I do not know how to look for "{" ".join(leftover)}" in these logs'
    elif not plan.goal:
        plan.problem = "I could not tell whether to count, rank or list"
    else:
        _aggregate(plan, view.columns, n, interval)
    return plan


# --------------------------------------------------------------------------------------------- answers

def _scope(plan: Plan) -> str:
    return f" ({'; '.join(plan.scope)})" if plan.scope else " (all lines)"


def _pairs(value: Any) -> list[tuple[Any, Any]]:
    return [(v[0], v[1]) for v in value if isinstance(v, (list, tuple)) and len(v) == 2] if isinstance(
        value, list) else []


def _answer(plan: Plan, history: list[HistoryItem]) -> tuple[str, Any]:
    """The final sentence and value, from what the plan's tools computed."""
    last = history[-1].value
    label = _LABELS.get(plan.target or "", "lines")
    scope = _scope(plan)
    if plan.goal == "unique":
        return f"{last:,} distinct {label}{scope}.", last
    if plan.goal in ("list", "distinct"):
        pairs = _pairs(last)
        count = next((h.value for h in history if h.action == "count_entities"), None)
        shown = ", ".join(f"{v} ({c:,})" for v, c in pairs)
        head = f"{count:,} distinct {label}{scope}" if count is not None else f"The {label}{scope}"
        more = f"; the {len(pairs)} with the most lines" if count is not None and count > len(pairs) else ""
        names = [v for v, _ in pairs]
        return f"{head}{more}: {shown}.", names[0] if len(names) == 1 else names
    if plan.goal in ("top", "which"):
        pairs = _pairs(last)
        if not pairs:
            return f"No {label} were found{scope}.", []
        if plan.goal == "which":
            best = [v for v, c in pairs if c == pairs[0][1]]
            names = " and ".join(str(v) for v in best)
            verb = "tie with" if len(best) > 1 else "has the most, with"
            return f"{names} {verb} {pairs[0][1]:,} lines{scope}.", best[0] if len(best) == 1 else best
        shown = ", ".join(f"{v} ({c:,})" for v, c in pairs)
        return f"Top {label}{scope}: {shown}.", [[v, c] for v, c in pairs]
    if plan.goal == "histogram":
        pairs = _pairs(last)
        if not pairs:
            return f"No timestamped lines{scope}.", []
        peak = max(pairs, key=lambda p: p[1])
        return f"Lines per bucket{scope}: the busiest starts at {peak[0]} with {peak[1]:,} lines.", last
    if plan.goal == "show":
        lines = last if isinstance(last, list) else []
        return f"The first matching lines{scope}:\n" + "\n".join(str(x) for x in lines), None
    return f"{last:,} log lines{scope}." if isinstance(last, int) else f"{history[-1].summary}{scope}.", last


def _reply(action: str, params: dict[str, Any], reasoning: str) -> PlannerReply:
    content = json.dumps({"reasoning": reasoning, "action": action, "params": params}, ensure_ascii=False)
    return PlannerReply(content=content, model=None, done_reason="stop")


def _final(answer: str, value: Any, reasoning: str) -> PlannerReply:
    return _reply("finalize_answer", {"answer": answer, "value": value}, reasoning)


class RulesPlanner(Planner):
    """Deterministic question -> tool sequence mapping; the default when no model is available."""

    name = "rules"
    calls_model = False

    def plan(self, request: PlanRequest) -> PlannerReply:
        view = request.view
        done = [h for h in view.history if h.kind == "tool"]  # invalid replies, nudges and repeats ran nothing
        plan = _current_plan(view, done)
        if plan is None:
            return _final("I could not finish: the steps taken differ from my plan.", None, "stop rather than loop")
        if plan.problem:
            return _final(f"I could not answer this: {plan.problem}. Please rephrase: {SUGGESTION}.", None,
                          "the question does not map to the tools")
        if view.history and view.history[-1].kind == "tool" and not view.history[-1].ok:
            failed = view.history[-1]
            return _final(f"I could not finish: {failed.action} failed ({failed.summary}).", None,
                          "a step failed; stop rather than loop")
        if done and done[-1].action in NARROWING and view.row_count == 0:
            return _final(f"No log lines matched{_scope(plan)}, so the count is 0.", 0,
                          "a narrowing step left no rows")
        if len(done) < len(plan.calls):
            call = plan.calls[len(done)]
            return _reply(call.action, call.params, call.reasoning)
        answer, value = _answer(plan, done)
        return _final(answer, value, "the last tool computed the answer")


def _current_plan(view: ContextView, done: list[HistoryItem]) -> Plan | None:
    """The plan whose first steps are the ones already taken (None if none is).

    Severity words become a level filter when the rows carry levels and a text search otherwise; once the
    choice shows in the history it is kept, before that the current rows decide.
    """
    plans = [build_plan(view.question, view, levels) for levels in (True, False)]
    fits = [p for p in plans if len(done) <= len(p.calls) and all(
        h.action == c.action and h.params == c.params for h, c in zip(done, p.calls))]
    if len(fits) == 2:
        return plans[0] if any(k != "missing" for k in view.severity_mix) else plans[1]
    return fits[0] if fits else None
