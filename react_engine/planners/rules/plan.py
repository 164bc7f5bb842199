"""From a question to a plan: the narrowing calls, the measuring calls, and what the answer is about."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from react_engine.logs.macs import MAC_SEPARATED, any_notation
from react_engine.logs.macs import normalize as normalize_mac
from react_engine.planners.base import ContextView
from react_engine.planners.rules.question import Question, amount, known, time_window
from react_engine.planners.rules.vocabulary import (
    AMOUNT,
    AT_LEAST,
    COUNTABLE,
    CUSTOM_ENTITIES,
    ENTITY_TYPES,
    FILLER,
    FREE_TEXT,
    GENERIC_COMPONENTS,
    HOST_WORD,
    LABELS,
    PHRASES,
    SEVERITY_WORDS,
    STATUS_CLASSES,
    STEMS,
    TARGETS,
)
from react_engine.tools.regex import literal


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
    goal: str = "count"  # count | unique | top | which | list | distinct | histogram | show
    target: str | None = None  # the entity/column the goal is about
    scope: list[str] = field(default_factory=list)  # what the narrowing steps kept, in words
    problem: str | None = None  # why the question could not be mapped


def _literals(q: Question, plan: Plan) -> None:
    """Quoted phrases, MAC and IP addresses and interface names written in the question become searches."""
    for m in q.take(r"\"([^\"]+)\"|“([^”]+)”|`([^`]+)`|(?<!\w)'([^']+)'(?!\w)"):
        phrase = next(g for g in m.groups() if g)
        _search(plan, phrase, False, f'containing "{phrase}"')
    for m in q.take(r"(?:\b(?:mac|modem|cm)\s+)?\b(" + MAC_SEPARATED + r")\b"):
        pattern = "(?i)" + any_notation(normalize_mac(m.group(1)) or "")
        _search(plan, pattern, True, f"mentioning MAC {m.group(1)} (any notation)")
    for m in q.take(r"(?:\bip(?: address)?\s+)?\b(\d{1,3}(?:\.\d{1,3}){3})\b"):
        _search(plan, m.group(1), False, f"mentioning {m.group(1)}")
    for m in q.take(r"\b((?:cable|gi|te)\d+(?:/\d+)+(?::\d+)?)\b|(?<![\w/])(/[\w.~%/-]+)"):
        text = m.group(1) or m.group(2)
        _search(plan, text, False, f"mentioning {text}")


def _search(plan: Plan, value: str, regex: bool, words: str, case_sensitive: bool = False) -> None:
    """Add a `search_logs` call (only the non-default flags are sent, as a model would)."""
    params: dict[str, Any] = {"value": value}
    if regex:
        params["regex"] = True
    if case_sensitive:
        params["case_sensitive"] = True
    plan.calls.append(Call("search_logs", params, f"keep lines {words}"))
    plan.scope.append(words)


def _field_or_search(plan: Plan, columns: list[str], column: str, value: Any, words: str, text: str,
                     op: str = "eq") -> None:
    """Filter on `column` when the logs have it, else search the lines for `text` (a regex when `op` is)."""
    if column in columns:
        _filter(plan, column, value, words, op)
    else:
        _search(plan, text, op == "regex", words)


def _status(q: Question, plan: Plan) -> None:
    """HTTP status classes and codes (`5xx`, `server errors`, `404s`, `status 500`), filtered on the status column
    or, without one, on the status the lines state (`" 404 ` after a request, `status: 404`, `status=404`)."""
    for m in q.take(r"\b([1-5])xx(?:\s+(?:errors?|responses?|status(?:es)?|codes?))?\b"
                    r"|\b(server|client)\s+errors?\b"):
        digit = m.group(1) or ("5" if m.group(2).lower() == "server" else "4")
        _filter(plan, "status", f"^{digit}[0-9][0-9]$", f"with an HTTP {STATUS_CLASSES[digit]} status", "regex")
    for m in q.take(r"\b(?:status(?: code)?\s+|http\s+)?([1-5]\d\d)(?:s\b|\s+(?:errors?|responses?|codes?|status)\b|"
                    r"(?=\s*$|\s*\?))|\bstatus(?: code)?\s+([1-5]\d\d)\b"):
        code = m.group(1) or m.group(2)
        _filter(plan, "status", int(code), f"with status {code}")


def _filter(plan: Plan, field: str, value: Any, words: str, op: str = "eq") -> None:
    params = {"field": field, "value": value} | ({"op": op} if op != "eq" else {})
    plan.calls.append(Call("filter_by_field", params, f"keep lines {words}"))
    plan.scope.append(words)


def _severity(q: Question, plan: Plan, uses_severity: bool) -> None:
    """Severity words, as one level filter when the logs carry levels, else as a search for the words."""
    minimum, hits = None, []
    for pattern, level in SEVERITY_WORDS:
        if q.take(AT_LEAST.format(w=pattern)):
            minimum = minimum or level.lower()
        hits += [(m.start(), m.end(), level) for m in q.take(pattern)]
    hits.sort()
    # in "fatal errors" the level is the adjective and "errors" only the noun
    levels = list(dict.fromkeys(level for i, (start, _, level) in enumerate(hits) if not (
        level == "error" and i and not q.text[hits[i - 1][1]:start].strip())))
    if not levels and minimum is None:
        return
    if not uses_severity:
        stems = [STEMS.get(w, w.lower()) for w in levels + ([minimum] if minimum else [])]
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


def _goal(q: Question, plan: Plan) -> int:
    """Set `plan.goal`; returns how many values a top list should have."""
    n = 5
    if q.take(r"\b(?:per|by|each|every)\s+(minute|hour|day)\b|\b(hourly|daily)\b|\bover time\b|\bhistogram\b"
              r"|\btimeline\b|\btrend\b"):
        plan.goal = "histogram"
    elif (m := q.take(r"\btop\s*" + AMOUNT + r"?\b")):
        plan.goal, n = "top", amount(m[0].group(1)) if m[0].group(1) else 5
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


def _target(q: Question, plan: Plan) -> None:
    """The entity or column the question counts or ranks (modems, IPs, users...): the one after "per"/"by" in a
    breakdown, else the first one named."""
    named = sorted((m.start(), kind) for kind, pattern in TARGETS for m in q.take(pattern))
    per = re.search(r"\b(?:by|per|for each|for every)\s+(?:the\s+|each\s+)?", q.text, re.I)
    grouped = next((kind for start, kind in named if per and plan.goal == "top" and start == per.end()), None)
    first, plan.target = named[0] if named else (len(q.text), None)
    if grouped:
        counted = [(start, kind) for start, kind in named if kind != grouped and kind in COUNTABLE]
        if counted and (q.has(r"\bunique\b|\bdistinct\b|\bdifferent\b") or _counts_the_target(q, counted[0][0])):
            plan.problem = (f"counting distinct {LABELS[counted[0][1]]} for each of the {LABELS[grouped]} "
                            "is not supported")
        plan.target = grouped
    if plan.target == "message" and plan.goal not in ("top", "which", "list"):
        plan.target = None  # "how many messages" counts lines
    if plan.target is None and plan.goal in ("top", "which") and q.has(r"\berrors?\b|\bwarnings?\b"):
        plan.target = "message"  # "the most common errors"
    if plan.goal == "count" and plan.target in COUNTABLE and _counts_the_target(q, first):
        plan.goal = "unique"  # "how many modems ..." asks for distinct modems
    if plan.target is None and plan.goal == "unique":
        plan.goal = "count"


def _counts_the_target(q: Question, start: int) -> bool:
    """Whether "how many" is followed by the target word at `start` ("how many [unregistered] modems"), and the
    target is not just a modifier ("how many user attempts")."""
    counted = re.search(r"\b(?:how many|number of|count(?: of| the)?)\s+(?:(?:unique|distinct|different|"
                        r"individual|of|the)\s+)*", q.text, re.I)
    if counted is None or start < counted.end():
        return False
    head_noun = re.match(r"\S*\s+(?:attempts?|events?|lines?|entries|messages?|errors?|requests?|logins?|failures?"
                         r"|records?|occurrences?|times)\b", q.text[start:])
    return head_noun is None and all(q.used[i] or q.text[i].isspace() for i in range(counted.end(), start))


def _entity(target: str, columns: list[str]) -> str:
    """The entity type or column name the tools know for `target`."""
    if target == "modem":
        return "cm_mac" if "cm_mac" in columns else "mac"
    if target == "status":
        return "status" if "status" in columns else "http_status"
    return target


def _extract(kind: str, label: str) -> Call:
    """The `extract_entities` call that finds `kind`: a built-in type, or a pattern for what has none."""
    if kind in CUSTOM_ENTITIES:
        return Call("extract_entities", {"types": [], "pattern": CUSTOM_ENTITIES[kind], "name": kind},
                    f"find the {label}")
    return Call("extract_entities", {"types": [kind]}, f"find the {label}")


def _aggregate(plan: Plan, columns: list[str], n: int, interval: str) -> None:
    """The measuring calls after the narrowing ones."""
    if plan.goal == "histogram":
        plan.calls.append(Call("count_by_time", {"interval": interval}, f"count lines per {interval}"))
        return
    if plan.goal == "show" and plan.target is None:
        plan.calls.append(Call("show_logs", {"n": n}, "show the matching lines"))
        return
    if plan.goal == "show":
        plan.goal = "list"  # "list the modems ..." asks for the modems, not the lines
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
    kind, label = _entity(plan.target, columns), LABELS[plan.target]
    if plan.goal in ("unique", "list") and (kind in ENTITY_TYPES or kind in CUSTOM_ENTITIES):
        plan.calls.append(_extract(kind, label))
        plan.calls.append(Call("count_entities", {"type": kind, "unique": True}, f"count the distinct {label}"))
        if plan.goal == "unique":
            return
    elif kind in CUSTOM_ENTITIES:
        plan.calls.append(_extract(kind, label))  # top_values needs them extracted first
    elif plan.goal == "unique":
        plan.goal, n = "distinct", 50  # a column: list its values instead of counting them
    size = 10 if plan.goal == "list" else n
    plan.calls.append(Call("top_values", {"field": kind, "n": size}, f"rank the {label} by their number of lines"))


def _places(q: Question, plan: Plan, view: ContextView) -> None:
    """Hosts and components named in the question (known from the data, or host-like names after `on`)."""
    values = view.known_values
    hosts = known(q, values.get("host", []), set())
    components = known(q, values.get("component", []), GENERIC_COMPONENTS | {h.lower() for h in hosts})
    for m in q.take(r"\b(?:on|from|at|for)\s+" + HOST_WORD + r"([A-Z][A-Za-z0-9_-]*\d[A-Za-z0-9_-]*)\b", 0,
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


def _phrases(q: Question, plan: Plan) -> None:
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


def _texts(q: Question, plan: Plan, columns: list[str], uses_severity: bool) -> None:
    """Everything that becomes a text search or a level, status or method filter."""
    _status(q, plan)
    for m in q.take(r"\b(GET|POST|PUT|DELETE|HEAD|PATCH|OPTIONS)\b", 0):
        _field_or_search(plan, columns, "method", m.group(1), f"with method {m.group(1)}", f'"{m.group(1)} ')
    for m in q.take(r"\b(\d{8})\b"):
        _field_or_search(plan, columns, "event_id", m.group(1), f"with event ID {m.group(1)}", f"<{m.group(1)}>")
    _phrases(q, plan)
    _severity(q, plan, uses_severity)
    for m in q.take(r"\b([A-Z][A-Z0-9_]{4,})\b", 0):  # a mnemonic or other upper-case name, as written
        _search(plan, m.group(1), False, f'mentioning "{m.group(1)}"')
    for m in q.take(FREE_TEXT.pattern):
        _search(plan, m.group(1), False, f'containing "{m.group(1)}"')
    for m in q.take(r"\b(?:for|as)\s+(?:user\s+|account\s+)?([A-Za-z_][\w.-]*)",
                    accept=lambda m: _names_something(m.group(1))):
        _search(plan, m.group(1), False, f'mentioning "{m.group(1)}"')


def _names_something(word: str) -> bool:
    """A word after "for"/"as" that is a name (a user, a service) rather than a word of the question."""
    return word.lower() not in FILLER and not any(re.fullmatch(p, word, re.I) for _, p in TARGETS) and not any(
        re.fullmatch(p, word, re.I) for p, _ in SEVERITY_WORDS)


def build_plan(question: str, view: ContextView, uses_severity: bool) -> Plan:
    """The whole plan for `question`, derived only from the question and what does not change during a run."""
    q, plan, texts = Question(question), Plan(), Plan()
    _literals(q, texts)  # first: an interface or IP must not be read as a host name
    _places(q, plan, view)
    window = time_window(q, view.now)
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
    elif plan.problem is None:
        _aggregate(plan, view.columns, n, interval)
    return plan
