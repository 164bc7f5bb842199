"""From a question to a plan: the narrowing calls, the measuring calls, and what the answer is about."""

from __future__ import annotations

import functools
import re
import weakref
from dataclasses import dataclass, field
from typing import Any

from react_engine.logs.macs import MAC_SEPARATED, any_notation
from react_engine.logs.macs import normalize as normalize_mac
from react_engine.logs.severity import RANK, from_pri, normalize
from react_engine.planners.base import ContextView
from react_engine.planners.rules.compile import Call, Cannot, compile_query
from react_engine.planners.rules.compile.filters import filter_of
from react_engine.tools import REGISTRY
from react_engine.tools.regex import literal
from react_engine.understanding import Correction, Interpretation, Term, TimeWindow, Vocabulary
from react_engine.understanding.asking import TIME_WORDS, Asked, asked, unread_words
from react_engine.understanding.events import alike
from react_engine.understanding.measures import (
    Count,
    Distinct,
    Histogram,
    Key,
    Listing,
    Measure,
    Patterns,
    Preceding,
    Timeline,
    Top,
    Unusual,
)
from react_engine.understanding.query import Filter, Query
from react_engine.understanding.reading import negation
from react_engine.understanding.reading.events import (
    level_names_lines,
    levels,
    quote_covers,
    said_words,
    searched,
    unmet,
)
from react_engine.understanding.reading.exclusions import Exclusion, claim_columns, excluded, leave_out
from react_engine.understanding.reading.investigation import WRONG, read_investigation
from react_engine.understanding.reading.lexicon import (
    AMOUNT,
    AT_LEAST,
    COUNTABLE,
    CUSTOM_ENTITIES,
    ENTITY_TYPES,
    EVENTS,
    FILLER,
    FREE_TEXT,
    GENERIC_COMPONENTS,
    HOST_WORD,
    HTTP_REASONS,
    LABELS,
    METHODS,
    NAMED_LOGINS,
    NUMBER_WORDS,
    PHRASES,
    SEVERITY_WORDS,
    STATUS_CLASSES,
    STEMS,
    TARGETS,
    lexicon_words,
)
from react_engine.understanding.reading.nouns import Subject, subject
from react_engine.understanding.reading.question import Question, amount, known, logs_itself, time_window
from react_engine.understanding.reading.roles import VALUES, marked, role, several_ips
from react_engine.understanding.reading.sessions import paired
from react_engine.understanding.reading.sources import named_source
from react_engine.understanding.spelling import correct, correct_names
from react_engine.understanding.vocabulary import NAME_COLUMNS, singular, stem

# "by host", "per user" group counts; "logged by", "written by" name a source instead
GROUP_BY = r"(?<!\wed )(?<!written )(?<!\wen )\b(?:by|per|for each|for every)"
GROUPED = GROUP_BY + r"\s+\w+"
NARROWING = frozenset(name for name, tool in REGISTRY.items() if tool.narrows)
LINE_WORDS = r"(?:lines?|entries|entry|messages?|events?|records?|rows?|ones|logs?)"  # "unique lines"
RANKED = ("top", "which", "unique", "list")  # goals that rank or count distinct values
SEVERAL = r"\d+|" + "|".join(w for w, n in NUMBER_WORDS.items() if n > 1)  # "which 5 IPs", not "which one"


@dataclass
class Plan:
    """What the question asks for, as tool calls plus how to word the answer."""

    calls: list[Call] = field(default_factory=list)
    goal: str = "count"  # count | unique | top | which | list | distinct | histogram | show
    target: str | None = None  # the entity/column the goal is about
    scope: list[str] = field(default_factory=list)  # what the narrowing steps kept, in words
    problem: str | None = None  # why the question could not be mapped
    terms: list[Term] = field(default_factory=list)  # words grounded in the data
    corrections: list[Correction] = field(default_factory=list)
    ignored: list[str] = field(default_factory=list)  # words found nowhere, left out
    negated: list[str] = field(default_factory=list)  # what the rows left out hold ("from dfs.FSNamesystem")
    framing: list[str] = field(default_factory=list)  # words of a lead-in or of the log's name, left out
    guesses: list[str] = field(default_factory=list)  # searches for the question's own words (regexes)
    named: list[str] = field(default_factory=list)  # searches for events and names the rows contain (regexes)
    stems: list[tuple[int, int, str, str]] = field(default_factory=list)  # (call, guess, form searched, stem)
    absent: list[str] = field(default_factory=list)  # searches for words the rows never contain (an honest 0)
    window: TimeWindow | None = None
    level_noun: bool = False  # a severity word right after quoted text ("'Could not resolve' errors")
    subject: Subject | None = None  # what is counted or ranked, when no entity word names it
    excluded: list[Exclusion] = field(default_factory=list)  # values left out ("other than INFO")
    role: str | None = None  # source, destination or client: which address or port of a line is meant
    query: Query | None = None  # what the calls compute, once the question is read
    asked: Asked | None = None  # what the asking words ask for beyond counting, ranking and listing
    cannot: Cannot | None = None  # what was asked that no tool computes yet (the calls answer the rest)
    unread: list[str] = field(default_factory=list)  # asking words nothing read
    investigation: Measure | None = None  # patterns, unusual, timeline or preceding (see `investigate`)

    def label(self) -> str:
        """How the answer names the values counted or ranked."""
        return self.subject.label if self.subject else LABELS.get(self.target or "", "lines")

    def interpretation(self) -> Interpretation:
        """What the question was read as, for the result and the answer."""
        return Interpretation(shape=self.goal, target=self.target, terms=self.terms, corrections=self.corrections,
                              ignored=self.unread + self.ignored + self.framing, time_window=self.window, problem=self.problem,
                              excluded=self.negated + [e.text for e in self.excluded], query=self.query)


def _literals(q: Question, plan: Plan, vocabulary: Vocabulary) -> None:
    """Quoted phrases, MAC and IP addresses and interface names written in the question become searches. A quoted
    phrase no sampled line contains is read with its typos corrected against the messages' words, when that
    phrase occurs ("faild to resolve" -> "failed to resolve"); an ellipsis in a phrase stands for any text."""
    for m in q.take(r"\"([^\"]+)\"|“([^”]+)”|`([^`]+)`|(?<!\w)'([^']+)'(?!\w)"):
        phrase = next(g for g in m.groups() if g)
        parts = [p.strip() for p in re.split(r"\.\.\.+|…", phrase)]
        if len(parts) > 1 and any(parts):  # "Took ... seconds to build instance": anything in between
            pattern = ".*?".join(literal(p) for p in parts if p)
            _search(plan, pattern, True, f"matching /{pattern}/")
            continue
        phrase = _as_logged(phrase, plan, vocabulary)
        _search(plan, phrase, False, f'containing "{phrase}"')
    for m in q.take(r"(?:\b(?:mac|modem|cm)\s+)?\b(" + MAC_SEPARATED + r")\b"):
        pattern = "(?i)" + any_notation(normalize_mac(m.group(1)) or "")
        _search(plan, pattern, True, f"mentioning MAC {m.group(1)} (any notation)")
    for m in q.take(r"(?:\bip(?: address)?\s+)?\b(\d{1,3}(?:\.\d{1,3}){3})\b"):
        _search(plan, m.group(1), False, f"mentioning {m.group(1)}")
    for m in q.take(r"\b((?:cable|gi|te)\d+(?:/\d+)+(?::\d+)?)\b|(?<![\w/])(/[\w.~%/-]*[\w~%/-])"):
        text = m.group(1) or m.group(2)
        _search(plan, text, False, f"mentioning {text}")


def _as_logged(phrase: str, plan: Plan, vocabulary: Vocabulary) -> str:
    """`phrase`, or the phrase with its words corrected against the messages' words when only that occurs."""
    if not vocabulary.sample or _in_sample(phrase, vocabulary):
        return phrase
    fixed, corrections = correct(phrase, frozenset(vocabulary.tokens), tuple(vocabulary.tokens), quoted=False)
    if corrections and _in_sample(fixed, vocabulary):
        plan.corrections += corrections
        return fixed
    return phrase


def _in_sample(phrase: str, vocabulary: Vocabulary) -> bool:
    return vocabulary.together([re.escape(phrase)])[0] > 0


def _search(plan: Plan, value: str, regex: bool, words: str, case_sensitive: bool = False) -> bool:
    """Add a `search_logs` call (only the non-default flags are sent, as a model would); a search already
    planned is not repeated ("hits /api/orders ... requests to /api/orders"). Returns whether it was added."""
    params: dict[str, Any] = {"value": value}
    if regex:
        params["regex"] = True
    if case_sensitive:
        params["case_sensitive"] = True
    if any(c.action == "search_logs" and c.params == params for c in plan.calls):
        return False
    plan.calls.append(Call("search_logs", params, f"keep lines {words}"))
    plan.scope.append(words)
    return True


def _field_or_search(plan: Plan, columns: list[str], column: str, value: Any, words: str, text: str,
                     op: str = "eq") -> None:
    """Filter on `column` when the logs have it, else search the lines for `text` (a regex when `op` is)."""
    if column in columns:
        _filter(plan, column, value, words, op)
    else:
        _search(plan, text, op == "regex", words)


def _status(q: Question, plan: Plan, columns: list[str]) -> None:
    """HTTP status classes and codes (`5xx`, `server errors`, `404s`, `status 500`), filtered on the status column
    or, without one, on the status the lines state (`" 404 ` after a request, `status: 404`, `status=404`); with a
    status column, a reason phrase ("unauthorized", "not found") names its code."""
    for m in q.take(r"\b([1-5])xx(?:\s+(?:errors?|responses?|status(?:es)?|codes?))?\b"
                    r"|\b(server|client)\s+errors?\b"):
        digit = m.group(1) or ("5" if m.group(2).lower() == "server" else "4")
        _filter(plan, "status", f"^{digit}[0-9][0-9]$", f"with an HTTP {STATUS_CLASSES[digit]} status", "regex")
    for m in q.take(r"\b(?:status(?: code)?\s+|http\s+)?([1-5]\d\d)(?:s\b|\s+(?:errors?|responses?|codes?|status)\b|"
                    r"(?=\)?\s*$|\)?\s*\?))|\bstatus(?: code)?\s+([1-5]\d\d)\b"
                    r"|\b(?:returned|returning|return|came back with|come back with|got|answered with|with)\s+"
                    r"(?:an?\s+)?(?:http\s+)?(?:status\s+)?([1-5]\d\d)\b"):
        code = m.group(1) or m.group(2) or m.group(3)
        _filter(plan, "status", int(code), f"with status {code}")
    if "status" not in columns:
        return  # "unauthorized" then names a log's own event (a CMTS "BPI unauthorized")
    for m in q.take(r"\b(" + "|".join(HTTP_REASONS) + r")\b"):
        code = next(c for p, c in HTTP_REASONS.items() if re.fullmatch(p, m.group(1), re.I))
        if not any(c.params.get("field") == "status" for c in plan.calls):  # "unauthorised requests (401)"
            _filter(plan, "status", code, f"with HTTP status {m.group(1).lower()}")  # a number the question lacks


def _filter(plan: Plan, field: str, value: Any, words: str, op: str = "eq") -> None:
    params = {"field": field, "value": value} | ({"op": op} if op != "eq" else {})
    plan.calls.append(Call("filter_by_field", params, f"keep lines {words}"))
    plan.scope.append(words)


def _severity(q: Question, plan: Plan, uses_severity: bool, vocabulary: Vocabulary) -> None:
    """Severity words, as one level filter when the logs carry levels (verbose only as the rows write it), else as
    a search for the words."""
    minimum, hits = None, []
    written = {v.lower(): v for v in vocabulary.values.get("level_raw", {})}
    for pattern, level in SEVERITY_WORDS:
        if level == "verbose" and not {"verbose", "v"} & written.keys():
            continue  # a level these rows never write is a word of the question
        if q.take(AT_LEAST.format(w=pattern)):
            minimum = minimum or level.lower()
        hits += [(m.start(), m.end(), level) for m in q.take(pattern)]
    hits.sort()
    # "CBS_E_INVALID_PACKAGE errors" in a log that writes no error level: the word names the lines, not a level
    logged = {normalize(w) for w in vocabulary.values.get("level_raw", {})}
    hits = [h for h in hits if not (logged and normalize(h[2]) not in logged and re.search(
        r"(?:[\"'”`]|\b[A-Z][A-Z0-9_]{4,})\s*$", q.text[:h[0]]))]
    # in "fatal errors" the level is the adjective and "errors" only the noun
    levels = list(dict.fromkeys(level for i, (start, _, level) in enumerate(hits) if not (
        level == "error" and i and not q.text[hits[i - 1][1]:start].strip())))
    if not levels and minimum is None:
        return
    # "'Failed to open package' errors", "CBS_E_INVALID_PACKAGE errors": the level word may name those lines
    plan.level_noun = any(re.search(r"[\"'”`]\s*$|\b[A-Z][A-Z0-9_]{4,}\s*$", q.text[:start]) for start, _, _ in hits)
    if not uses_severity:
        stems = [STEMS.get(w, w.lower()) for w in levels + ([minimum] if minimum else [])]
        _search(plan, "|".join(stems), len(stems) > 1, f'containing {" or ".join(stems)} (these logs record no '
                                                       "severities)")
        return
    levels = [written.get("verbose", written.get("v", level)) if level == "verbose" else level for level in levels]
    if levels == ["error"] and minimum is None and (worse := _worse_than_error(vocabulary)):
        # "errors" on a log that writes critical lines and no error ones: error or worse
        plan.scope.append(f"with severity error or worse: this log writes no error level, only {worse}")
        plan.calls.append(Call("filter_by_severity", {"levels": [], "min_level": "error"},
                               "keep lines with severity error or worse"))
        return
    params: dict[str, Any] = {"levels": levels}
    words = " or ".join(levels)
    if minimum:
        params["min_level"] = minimum
        words = " or ".join(filter(None, [words, f"{minimum} or worse"]))
    plan.calls.append(Call("filter_by_severity", params, f"keep lines with severity {words}"))
    plan.scope.append(f"with severity {words}")


def _worse_than_error(vocabulary: Vocabulary) -> str:
    """The levels worse than error the rows write when they write no error level ("critical"); "" otherwise (a
    log that writes errors counts its errors)."""
    written = {_level_of(w) for w in vocabulary.values.get("level_raw", {})}
    worse = {level for level in written if level is not None and RANK[level] < RANK["error"]}
    return "" if "error" in written else ", ".join(sorted(worse, key=RANK.__getitem__))


def _level_of(written: str) -> str | None:
    """The canonical level a written level names ("FATAL", "crit", a syslog "<130>")."""
    pri = re.fullmatch(r"<(\d{1,3})>", written)
    return from_pri(int(pri.group(1))) if pri else normalize(written)


def investigate(plan: Plan, goal: str, measure: Measure, problems: bool) -> None:
    """Make `plan` an investigation: what is unusual in a time window is what first appears in it (so the window
    names a time, and the lines before it stay to compare with); `problems` asks about the lines at warning or
    above, unless a level was named."""
    plan.goal, plan.investigation = goal, measure
    if problems and not any(c.action == "filter_by_severity" for c in plan.calls):
        plan.calls.append(Call("filter_by_severity", {"min_level": "warning"}, "keep the problems"))
        plan.scope.append("at warning or above")
    if isinstance(measure, Unusual) and plan.window is not None:
        plan.investigation = Unusual(since=plan.window.start)
        kept = [(c, w) for c, w in zip(plan.calls, plan.scope) if c.action != "filter_by_time"]
        plan.calls, plan.scope = [c for c, _ in kept], [w for _, w in kept]


def _goal(q: Question, plan: Plan) -> int:
    """Set `plan.goal`; returns how many values a top list should have."""
    n = 5
    if q.take(r"\b(?:per|by|each|every)\s+(minute|hour|day)\b|\b(hourly|daily)\b|\bover time\b|\bhistogram\b"
              r"|\btimeline\b|\btrend\b"):
        plan.goal = "histogram"
    elif (m := q.take(r"\btop\s*" + AMOUNT + r"?\b|\b(?:which|what)\s+(" + SEVERAL +
                      r")\b(?=.*\b(?:most|highest|largest|biggest|busiest|noisiest)\b)")):
        word = m[0].group(1) or m[0].group(2)
        plan.goal, n = "top", amount(word) if word else 5
    elif q.has(r"\b(?:which|who)\b|^\s*what\s+(?!are\b|were\b)") and q.has(
            r"\bmost\b|\bhighest\b|\blargest\b|\bbiggest\b|\bnoisiest\b|\bbusiest\b|\bworst\b"):
        plan.goal = "which"
    elif q.has(r"\bmost (?:common|frequent|active|affected|seen)\b|\bfrequent\b|\bnoisiest\b|\bbusiest\b"
               r"|\bbreak(?:down| down)\b|" + GROUPED):
        plan.goal = "top"
        n = 10 if q.has(r"\bbreak(?:down| down)\b|" + GROUPED) else 5
    elif q.has(r"\bunique\b|\bdistinct\b|\bdifferent\b|\bindividual\b"):
        plan.goal = "unique"
    elif q.has(r"\bhow many\b|\bnumber of\b|\bcount\b|\bhow often\b|\btotal\b"):
        plan.goal = "count"
    elif q.has(r"^\s*(?:which|what)\b"):
        plan.goal = "list"
    elif q.has(r"^\s*(?:show|list|display|print|give me)\b|\bexamples?\b|\bsamples?\b"):
        plan.goal = "show"
    elif q.has(r"^\s*(?:are|were|is|was|did|do|does|has|have|any)\b") or not q.has(
            r"^\s*(?:why|how|when|where|who|whom|whose|what|which|can|could|should|would|will)\b"):
        plan.goal = "count"  # a yes/no question, or a terse noun phrase ("SEVERE entries?")
    else:
        plan.goal = ""
    return n


def _target(q: Question, plan: Plan, vocabulary: Vocabulary) -> None:
    """The entity or column the question counts or ranks (modems, IPs, users...): the one after "per"/"by" in a
    breakdown, else the first one named. A kind found by a pattern that matches none of the sampled lines ("blocks"
    in Spark logs, which have no `blk_` ids) is left as a word of the question."""
    named = []
    for kind, pattern in TARGETS:
        for m in q.take(pattern):
            if kind in CUSTOM_ENTITIES and vocabulary.sample and not vocabulary.together([CUSTOM_ENTITIES[kind]])[0]:
                q.consume(m.start(), m.end(), used=False)
            else:
                named.append((m.start(), kind))
    named.sort()
    per = re.search(GROUP_BY + r"\s+(?:the\s+|each\s+)?", q.text, re.I)
    grouped = next((kind for start, kind in named if per and plan.goal == "top" and start == per.end()), None)
    first, plan.target = named[0] if named else (len(q.text), None)
    if plan.subject is not None:
        plan.target = plan.subject.name
        return
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
        noun = re.search(r"\b(?:unique|distinct|different|individual)\s+(\w+)", q.text, re.I)
        if noun and not q.used[noun.start(1)] and not re.fullmatch(LINE_WORDS, noun.group(1), re.I):
            plan.problem = f'I cannot count distinct "{noun.group(1)}": the tools count distinct values of ' \
                           "known entities (IP addresses, users, hosts, blocks, ...)"


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


def _entity(target: str, columns: list[str], vocabulary: Vocabulary) -> str:
    """The entity type or column name the tools know for `target`."""
    if target == "modem":
        return "cm_mac" if "cm_mac" in columns else "mac"
    if target == "status":
        return "status" if "status" in columns else "http_status"
    if target == "remote_host" and not vocabulary.token_rows("rhost"):
        return "ip"
    if target == "thread" and "thread" not in columns and "tid" in columns:
        return "tid"
    return target


def _aggregate(plan: Plan, columns: list[str], n: int, interval: str, vocabulary: Vocabulary) -> None:
    """The query the plan's narrowing calls and goal make, and its calls (narrowing, then measuring)."""
    ranked = plan.goal in RANKED
    left_out = [] if ranked else _leave_out(plan, None, columns, vocabulary)
    if left_out is None:
        return
    measure = _measure(plan, columns, n, interval, vocabulary)
    if measure is None:
        return
    key = getattr(measure, "key", None)
    if ranked and key is not None:
        left_out = _leave_out(plan, key.name, columns, vocabulary)
        if left_out is None:
            return
    filters = [filter_of(c, w) for c, w in zip(plan.calls, plan.scope)]
    asking = plan.asked or Asked()
    plan.query = Query(filters=tuple(filters), measure=asking.measure or measure, left_out=tuple(left_out),
                       order=asking.order, limit=asking.limit, unread=tuple(plan.unread))
    compiled = compile_query(plan.query)
    if isinstance(compiled, Cannot):  # the rest of the question is answered: what was asked of those lines
        plan.cannot = compiled
        compiled = compile_query(plan.query.model_copy(update={"measure": measure}))
    if isinstance(compiled, Cannot):
        plan.problem = compiled.sentence()
        return
    plan.calls = compiled
    plan.scope += [f.words for f in left_out]


def _measure(plan: Plan, columns: list[str], n: int, interval: str, vocabulary: Vocabulary) -> Measure | None:
    """What the plan's goal measures (None with the problem set when it cannot be measured here)."""
    asked_for = plan.asked.measure if plan.asked else None
    if plan.investigation is None and isinstance(asked_for, (Patterns, Unusual, Timeline, Preceding)):
        investigate(plan, asked_for.kind, asked_for, problems=False)  # "outliers", "categorize"
    if plan.investigation is not None:
        return plan.investigation
    if plan.goal == "histogram":
        return Histogram(interval=interval)
    order = plan.asked.order if plan.asked else None
    if order is not None and plan.target is None and plan.goal in ("show", "list", "count"):
        plan.goal = "show"  # "the last 3 errors", "show the latest error"
        return Listing(order=order, limit=plan.asked.limit or n if plan.asked else n)
    if plan.goal == "show" and plan.target is None:
        return Listing(limit=n)
    if plan.goal == "show":
        plan.goal = "list"  # "list the modems ..." asks for the modems, not the lines
    if plan.target is None and plan.goal in ("top", "which"):
        plan.problem = "I could not tell what to rank"
        return None
    if plan.target is None and plan.goal == "list":
        plan.goal = "show"
        return Listing(limit=10)
    if plan.target is None or plan.goal == "count":
        return Count()
    key = _key(plan, columns, vocabulary)
    if key is None:
        return None
    plan.terms.append(Term(word=key.shown(), column=key.name))
    if plan.goal == "unique":
        return Distinct(key=key)
    if plan.goal == "list":
        return Listing(key=key, limit=10)
    return Top(key=key, n=n, single=plan.goal == "which")


def _key(plan: Plan, columns: list[str], vocabulary: Vocabulary) -> Key | None:
    """The values the plan counts or ranks (None with the problem set when the rows hold none)."""
    if plan.subject is not None:
        kind, label = plan.subject.name, plan.subject.label
        pattern = plan.subject.pattern(_searched(plan), vocabulary) if plan.subject.patterns else None
        if plan.subject.patterns and pattern is None:
            plan.problem = f"I found no {label} written in the lines that match the question's other words"
            return None
    else:
        kind, label = _entity(plan.target or "", columns, vocabulary), LABELS[plan.target or ""]
        pattern = CUSTOM_ENTITIES.get(kind)
        mark = marked(kind, plan.role, _searched(plan), vocabulary) if plan.role and kind in VALUES else None
        if mark is not None:
            plan.subject = Subject(f"{plan.role}_{kind}", f"{plan.role} {label}", (mark,))
            kind, label, pattern = plan.subject.name, plan.subject.label, mark
        elif kind == "ip" and vocabulary.sample and several_ips(_searched(plan), vocabulary, plan.role is not None):
            plan.problem = ("the lines hold several IP addresses and do not mark which one is meant; ask for the "
                            "source, destination or client addresses")
            return None
    if kind not in columns and kind not in ENTITY_TYPES and pattern is None and kind != "http_status":
        plan.problem = f"these logs have no {label}"
        return None
    return Key(name=kind, label=label, pattern=pattern,
               extract=pattern is None and kind in ENTITY_TYPES and plan.goal in ("unique", "list"))


def _leave_out(plan: Plan, ranked: str | None, columns: list[str], vocabulary: Vocabulary) -> list[Filter] | None:
    """The filters that drop the lines of each value the question leaves out; None (the problem set) when the
    rows hold one nowhere."""
    found = []
    for value in plan.excluded:
        left = leave_out(value, ranked, columns, vocabulary)
        if left is None:
            plan.problem = f'I could not find "{value.text}" in these logs to leave it out'
            return None
        action, params, words = left
        found.append(filter_of(Call(action, params, ""), words))
    return found


def _searched(plan: Plan) -> list[str]:
    """The plan's text searches as regexes (not those that drop lines)."""
    return [searched(c) for c in plan.calls if c.action == "search_logs" and not c.params.get("exclude")]


def _places(q: Question, plan: Plan, view: ContextView, vocabulary: Vocabulary) -> None:
    """Pids, hosts and components named in the question (known from the data, or host-like names after `on`)."""
    for m in q.take(r"\b(?:pid|process(?:[- ]?id)?)\s*[#=:]?\s*(\d+)\b"):
        _field_or_search(plan, view.columns, "pid", m.group(1), f"with pid {m.group(1)}", f"[{m.group(1)}]")
        plan.terms.append(Term(word=m.group(1), column="pid", value=m.group(1),
                               rows=vocabulary.values.get("pid", {}).get(m.group(1))))
    values = {column: list(vocabulary.values.get(column, {})) for column in ("host", "component", "thread")}
    _one_of(plan, "thread", known(q, values["thread"], set(), after=r"(?=\s+threads?\b)"), "from thread", vocabulary)
    hosts = known(q, values["host"], set())
    components = known(q, values["component"], {h.lower() for h in hosts}, GENERIC_COMPONENTS)
    for m in q.take(r"\b(?:on|from|at|for)\s+" + HOST_WORD + r"([A-Z][A-Za-z0-9_-]*\d[A-Za-z0-9_-]*)\b", 0,
                    accept=lambda m: not re.fullmatch(r"T\d|\d+[a-z]*", m.group(1))):
        hosts.append(m.group(1))
    _one_of(plan, "host", hosts, "on host", vocabulary)
    _one_of(plan, "component", components, "from", vocabulary)


def _one_of(plan: Plan, column: str, values: list[str], words: str, vocabulary: Vocabulary) -> None:
    """Keep the rows whose `column` is any of `values` (several names mean either of them)."""
    if not values:
        return
    counts = vocabulary.values.get(column, {})
    plan.terms += [Term(word=v, column=column, value=v, rows=counts.get(v) or None) for v in values]
    if len(values) == 1:
        params: dict[str, Any] = {"field": column, "value": values[0]}
    else:
        params = {"field": column, "value": "^(?:" + "|".join(literal(v) for v in values) + ")$", "op": "regex"}
    shown = " or ".join(values)
    plan.calls.append(Call("filter_by_field", params, f"keep lines {words} {shown}"))
    plan.scope.append(f"{words} {shown}")


def _phrases(q: Question, plan: Plan, vocabulary: Vocabulary) -> None:
    """Key phrases and common events as searches; phrases joined by "or" become one search for either."""
    found = [(m.start(), m.end(), value.format(*m.groups()), regex, case) for pattern, value, regex, case in PHRASES
             for m in q.take(pattern)]
    events = [(m.start(), m.end(), *_grounded(ways, vocabulary), False) for pattern, ways in EVENTS
              for m in q.take(pattern)]
    plan.named += [text if regex else re.escape(text) for _, _, text, regex, _ in events]
    found += events
    found.sort()
    groups: list[list[tuple[int, int, str, bool, bool]]] = []
    for item in found:
        if groups and re.fullmatch(r"\s*(?:,|or|and/or|, or)\s*", q.text[groups[-1][-1][1]:item[0]], re.I):
            groups[-1].append(item)
        else:
            groups.append([item])
    for group in groups:
        texts = list(dict.fromkeys(text if regex else literal(text) for _, _, text, regex, _ in group))
        plan.terms += [Term(word=q.text[start:end], column="message", value=text) for start, end, text, *_ in group]
        if len(group) == 1:
            _, _, text, regex, case = group[0]
            _search(plan, text, regex, f"matching /{text}/" if regex else f'containing "{text}"', case)
        else:
            pattern = "|".join(texts)
            _search(plan, pattern, True, f"matching /{pattern}/", all(case for *_, case in group))


def _grounded(ways: tuple[str, ...], vocabulary: Vocabulary) -> tuple[str, bool]:
    """`(text, is_regex)`: the first way of writing an event whose words occur in the rows (the first way when
    none does, or when the rows' words are unknown)."""
    chosen = next((way for way in ways if all(vocabulary.token_rows(w) for w in re.findall(
        r"[A-Za-z]{3,}", re.sub(r"\\[a-zA-Z]|\([^)]*\)|\[[^\]]*\]", " ", way)))), ways[0])
    return chosen, bool(re.search(r"[\\|()\[?]", chosen))


def _texts(q: Question, plan: Plan, columns: list[str], uses_severity: bool, vocabulary: Vocabulary) -> None:
    """Everything that becomes a text search or a level, status or method filter."""
    _status(q, plan, columns)
    for m in q.take(rf"\b({METHODS})\b", 0):
        _field_or_search(plan, columns, "method", m.group(1), f"with method {m.group(1)}", f'"{m.group(1)} ')
    for m in q.take(r"\b(\d{8})\b"):
        _field_or_search(plan, columns, "event_id", m.group(1), f"with event ID {m.group(1)}", f"<{m.group(1)}>")
    _phrases(q, plan, vocabulary)
    _severity(q, plan, uses_severity, vocabulary)
    for m in q.take(r"\b([A-Z][A-Z0-9_]{4,})\b", 0):  # a mnemonic or other upper-case name, as written
        _search(plan, m.group(1), False, f'mentioning "{m.group(1)}"')
        if _in_sample(m.group(1), vocabulary):
            plan.named.append(re.escape(m.group(1)))  # to check it meets the question's other words
    lead_in = _lead_in(q.text)  # "Users say VMs are slow. How many ...": "say" there is not a search
    for m in q.take(FREE_TEXT.pattern, accept=lambda m: m.start() >= lead_in):
        word = m.group(1)
        if len(word) <= 3 and word.isalnum():  # "mention RM": the word, not every RMContainerAllocator
            _search(plan, rf"\b{literal(word)}\b", True, f'containing the word "{word}"', word.isupper())
        else:
            _search(plan, word, False, f'containing "{word}"')
    for m in q.take(r"\b(?:for|as)\s+(?:user\s+|account\s+)?([A-Za-z_][\w.-]*)",
                    accept=lambda m: _names_something(m.group(1))):
        _search(plan, m.group(1), False, f'mentioning "{m.group(1)}"')


def _names_something(word: str) -> bool:
    """A word after "for"/"as" that is a name (a user, a service) rather than a word of the question."""
    return word.lower() not in FILLER and not any(re.fullmatch(p, word, re.I) for _, p in TARGETS) and not any(
        re.fullmatch(p, word, re.I) for p, _ in SEVERITY_WORDS)


# plans already built, per vocabulary (one per load) and question, columns, time anchor and use of severity
_PLANS: weakref.WeakKeyDictionary[Vocabulary, dict[tuple[str, tuple[str, ...], str | None, bool], Plan]] = \
    weakref.WeakKeyDictionary()


def build_plan(question: str, view: ContextView, uses_severity: bool) -> Plan:
    """The whole plan for `question`, derived only from the question and what does not change during a run: built
    once per run (per vocabulary) and shared by every later turn, which must not change it."""
    if view.vocabulary is None:
        return _build_plan(question, view, Vocabulary.of_values(view.known_values), uses_severity)
    plans = _PLANS.setdefault(view.vocabulary, {})
    key = (question, tuple(view.columns), view.now, uses_severity)
    if key not in plans:
        plans[key] = _build_plan(question, view, view.vocabulary, uses_severity)
    return plans[key]


def _build_plan(question: str, view: ContextView, vocabulary: Vocabulary, uses_severity: bool) -> Plan:
    known_words, candidates = _spelling(vocabulary)
    columns = frozenset(w for c in view.columns for w in (c.lower(), c.lower() + "s"))  # "states": a column's name
    text, renamed = correct_names(question, vocabulary, known_words)
    text, corrections = correct(text, known_words | columns | TIME_WORDS, candidates)
    corrections = renamed + corrections
    text = re.sub(NAMED_LOGINS, r"\1 \3 for \2", text, flags=re.I)
    q, plan, texts = Question(text), Plan(corrections=corrections), Plan()
    negated = negation.find(q, view.columns)  # its words are read on their own, after the rest
    plan.excluded = excluded(q)  # before quoted text becomes a search: "other than '-'"
    investigation = read_investigation(q)
    if investigation is None and q.has(r"^\s*(?:why|how come)\b|\bexplain\b|\broot[- ]cause\b|\bwhat (?:caused|happened)\b"):
        plan.problem = "I can count, rank and list log lines, not explain why something happened"
        return plan
    _literals(q, texts, vocabulary)  # first: an interface or IP must not be read as a host name
    literals = list(texts.calls)
    plan.subject = subject(q, view.columns, vocabulary)  # before its words are read as names or searches
    _places(q, plan, view, vocabulary)
    window = time_window(q, view.now, vocabulary)
    if window:
        start, end, words = window
        plan.calls.append(Call("filter_by_time", {"start": start, "end": end}, f"keep lines {words}"))
        plan.scope.append(words + (f" (now = {view.now})" if end == "now" else ""))
        plan.window = TimeWindow(start=start, end=end, words=words)
    if (source := named_source(q, view.columns, vocabulary)) is not None:
        column, value, typo = source
        _filter(plan, column, value, f"{'on host' if column == 'host' else 'from'} {value}")
        plan.corrections += [typo] if typo else []
        plan.absent += [] if typo else [value]
        plan.terms.append(Term(word=typo.written if typo else value, column=column, value=value,
                               rows=vocabulary.values.get(column, {}).get(value, 0)))
    said = said_words(q, _lead_in(q.text), vocabulary)  # the words an event of the log may explain
    _texts(q, texts, view.columns, uses_severity, vocabulary)
    if texts.level_noun and level_names_lines(texts.calls, vocabulary):  # "'Failed to open package' erors"
        kept = [(c, w) for c, w in zip(texts.calls, texts.scope) if c.action != "filter_by_severity"]
        texts.calls, texts.scope = [c for c, _ in kept], [w for _, w in kept]
    plan.calls += texts.calls
    plan.scope += texts.scope
    plan.terms += texts.terms
    plan.level_noun = texts.level_noun
    plan.named = texts.named
    n = _goal(q, plan)
    if investigation is not None:
        investigate(plan, *investigation, problems=uses_severity and WRONG in text.lower())
    unit = re.search(r"\b(minute|day|daily)\b", text, re.I)
    interval = "1m" if unit and unit.group(1).lower() == "minute" else "1d" if unit else "1h"
    _target(q, plan, vocabulary)
    plan.role = role(q)
    claim_columns(q, plan.excluded, view.columns)
    quoted = [str(c.params["value"]) for c in literals if not c.params.get("regex")]
    _asking(q, plan)
    if plan.asked is not None:
        plan.asked.measure = paired(plan.asked.measure, q.text, vocabulary, list(view.columns))
    unknown = _ground(q, plan, vocabulary, quoted)
    if negated is not None:
        _exclusion(q, negated, plan, view, uses_severity, vocabulary)
    mapped = plan.problem is None
    if unknown:
        plan.problem = f'I do not know how to look for "{" ".join(unknown)}" in these logs'
    elif not plan.goal:
        plan.problem = "I could not tell whether to count, rank or list"
    elif len(plan.guesses) + len(plan.named) > 1 and _apart(plan, vocabulary):
        plan.problem = "the words of the question rarely occur on the same log line"
    elif plan.ignored and plan.target is None and not any(c.action in NARROWING for c in plan.calls):
        plan.problem = f'I could not find {", ".join(repr(w) for w in plan.ignored)} in these logs'  # the subject
    elif plan.goal == "count" and not any(c.action in NARROWING for c in plan.calls) and (
            guessed := [c for c in corrections if c.read_as.lower() not in FILLER]):
        plan.problem = f'I read "{guessed[0].written}" as "{guessed[0].read_as}", which selects no lines'  # "verbos"
    unread = plan.ignored and not any(c.action in NARROWING and c.action != "filter_by_time" for c in plan.calls)
    if mapped and plan.goal and not plan.excluded and not plan.negated and plan.target != "message" and (
            plan.problem or unread or unmet(plan, vocabulary)):
        _as_event(plan, said, unknown, literals, vocabulary)
    if plan.problem is None:
        _aggregate(plan, view.columns, n, interval, vocabulary)
    _unserved(plan)
    return plan


def _asking(q: Question, plan: Plan) -> None:
    """What the question's asking words ask beyond counting, ranking and listing (read before the words left over
    become searches), and the asking words nothing reads (`unread`)."""
    plan.asked = asked(q.text, q.used)
    for start, end in plan.asked.spans:
        q.consume(start, end)
    if plan.asked.measure is not None and plan.target is None and plan.goal in ("", "show", "list"):
        plan.goal = "count"  # what can be answered of "what percentage of lines are warnings": the warnings
    plan.unread = unread_words(q.text, q.used)
    for m in re.finditer("|".join(re.escape(w) for w in plan.unread) or r"(?!)", q.text, re.I):
        q.consume(m.start(), m.end())


def _unserved(plan: Plan) -> None:
    """A query for what the question asks even when it could not be compiled, so that any planner's reply to it is
    checked against it; a refusal names the measure no tool computes yet."""
    measure = plan.asked.measure if plan.asked else None
    if plan.query is None and (measure is not None or plan.unread):
        plan.query = Query(measure=measure or Count(), unread=tuple(plan.unread))
    if plan.problem and measure is not None and (cannot := compile_query(Query(measure=measure))) and \
            isinstance(cannot, Cannot):
        plan.problem = f"{cannot.sentence()}, and {plan.problem}"


def _as_event(plan: Plan, said: list[str], unknown: list[str], literals: list[Call], vocabulary: Vocabulary) -> None:
    """Read the question as the log event its words describe ("how many times gmetad got no answer from any
    datasource" -> 'got not answer from any'), in place of searches for its words that never meet on a line: a
    search for the event's longest literal run. Quoted text, names, times and fields still narrow; a severity word
    or a day ("today") that is part of the event's text is no filter; the words the event does not explain are
    ignored."""
    reading = vocabulary.events.read(said + unknown)
    if reading is None or len(plan.calls) != len(plan.scope) or not set(unknown) <= set(reading.words):
        return  # no event, or a word that must count ("port 23") is not the event's
    in_text = any(re.fullmatch(p, w, re.I) for w in reading.words for p, _ in SEVERITY_WORDS)
    day = plan.window is not None and re.match(r"(today|yesterday)\b", plan.window.words) is not None and any(
        plan.window.words.startswith(s) for s in reading.stems)  # "set today's steps": setTodayTotalDetailSteps
    kept = [(c, w) for c, w in zip(plan.calls, plan.scope) if c in literals or (
        c.action != "search_logs" and not (in_text and c.action == "filter_by_severity")
        and not (day and c.action == "filter_by_time"))]
    calls = [c for c, _ in kept]
    if not vocabulary.events.meet([searched(c) for c in calls if c.action == "search_logs"] + [re.escape(
            reading.search)], levels(calls)):
        return
    dropped = [t.word for t in plan.terms if t.column == "message"]
    plan.calls, plan.scope = calls, [w for _, w in kept]
    _search(plan, reading.search, False, f'containing "{reading.search}"')
    explained = {w.lower() for w in reading.words}
    plan.terms = [t for t in plan.terms if t.column != "message"] + [Term(
        word=" ".join(reading.words), column="message", value=reading.search,
        rows=reading.rows if vocabulary.sampled == vocabulary.rows else None)]
    plan.ignored = list(dict.fromkeys(w for w in plan.ignored + dropped + unknown if w.lower() not in explained
                                      and not any(alike(stem(w.lower()), s) for s in reading.stems)))
    plan.problem, plan.guesses, plan.named, plan.stems, plan.absent = None, [], [], [], []
    plan.window = None if day else plan.window
    plan.level_noun = False


def _exclusion(q: Question, negated: negation.Negation, plan: Plan, view: ContextView, uses_severity: bool,
               vocabulary: Vocabulary) -> None:
    """The filter for the negated words, sent with `exclude`; a problem when they name no one thing to leave out.
    One value left out of a ranking or a distinct count is left out of the values ranked instead."""
    words, part = negated.words(q.text).strip(), Plan()
    if plan.goal in RANKED and (value := negation.one_value(words)) is not None:
        plan.excluded.append(Exclusion(value))
        return
    if negated.column:
        _filter(part, negated.column, words.strip("'\"`"), f"with {negated.column} {words}")
    else:
        inner = negation.reopened(q, negated)
        _literals(inner, part, vocabulary)
        _places(inner, part, view, vocabulary)
        _texts(inner, part, view.columns, uses_severity, vocabulary)
        if _ground(inner, part, vocabulary, []) or part.problem:
            part.calls = []
    narrowing = [(c.action, c.params) for c in part.calls if c.action in NARROWING]
    found = negation.excluded(narrowing) if len(narrowing) == len(part.calls) else None
    if found is None:
        plan.problem = (f'I could not tell which lines "{negated.cue} {words}" leaves out: name one level, component, '
                        f"host or quoted text after it")
        return
    if re.fullmatch(rf"(?:{METHODS})\b.*", words):  # "requests other than GET": the other requests
        _field_or_search(plan, view.columns, "method", f"^(?:{METHODS})$", "with an HTTP method",
                         f'"(?:{METHODS}) ', "regex")
    left_out = " and ".join(part.scope)
    plan.calls.append(Call(*found, f"leave out the lines {left_out}"))
    plan.scope.append(f"not {left_out}")
    plan.negated.append(left_out)
    plan.terms += [term.model_copy(update={"negated": True}) for term in part.terms]
    plan.corrections += part.corrections
    plan.ignored += part.ignored


def _continues_name(q: Question, m: re.Match[str], plan: Plan) -> bool:
    """Whether the word `m`, next to words a rule read, is part of a name the plan filters on: "the python runner",
    where "python" gave the component python.PythonRunner, names it rather than a word to search for."""
    word = m.group(0).lower()
    before, after = q.text[: m.start()].rstrip(), q.text[m.end() :]
    beside = [len(before) - 1] if before else []
    beside += [m.end() + len(after) - len(after.lstrip())] if after.strip() else []
    names = [str(c.params["value"]).lower() for c in plan.calls if c.action == "filter_by_field"
             and c.params.get("field") in NAME_COLUMNS and c.params.get("op", "eq") == "eq"]
    return len(word) > 2 and any(q.used[i] for i in beside) and any(word in name for name in names)


def _ground(q: Question, plan: Plan, vocabulary: Vocabulary, quoted: list[str]) -> list[str]:
    """The words no rule explained: a word of the messages (in any form: `expired` finds `Expiring`) becomes a
    search, a word found nowhere is ignored (and reported), and so is any word of a lead-in ("Looking at the HDFS
    logs, ...") or of a log's name ("the Spark log"), and a word the `quoted` text covers or never meets. Returns
    the words that cannot be handled: bare numbers, and without a vocabulary every word."""
    if not vocabulary.sampled:
        return [m.group(0) for m in q.leftover()]
    lead_in = _lead_in(q.text)
    unknown = []
    for m in q.leftover():
        word = m.group(0).strip("'.:-")
        if m.start() < lead_in or vocabulary.names_log(word) or logs_itself(q, m):
            plan.framing.append(word)
        elif _continues_name(q, m, plan):
            q.consume(m.start(), m.end())
        elif quoted and (covered := quote_covers(word, quoted, vocabulary)) is not None:
            if not covered:
                plan.ignored.append(word)  # it describes the quoted lines ("the 'ERROR IN CONTACTING RM' lines")
        elif word.isdigit():
            unknown.append(word)  # a bare number is a value of something unnamed
        elif re.search(r"[\d._/:-]", word):
            _search(plan, word, False, f'containing "{word}"')
            plan.terms.append(Term(word=word, column="message", value=word))
        elif vocabulary.stem_rows(word) or vocabulary.token_rows(word):
            root = next((w for w in (word.lower(), singular(word.lower())) if vocabulary.tokens.get(w)),
                        stem(word.lower()))  # the form written when the rows have it
            if not _search(plan, rf"\b{literal(root)}", True, f'with a word starting "{root}"'):
                q.consume(m.start(), m.end())
                continue  # the same word again
            plan.guesses.append(rf"\b{re.escape(root)}")
            plan.stems.append((len(plan.calls) - 1, len(plan.guesses) - 1, root, stem(word.lower())))
            exact = vocabulary.sampled == vocabulary.rows
            plan.terms.append(Term(word=word, column="message", value=root,
                                   rows=vocabulary.stem_rows(word) if exact else None))
        elif re.search(r"\b(?:how many|number of|count of)\s+$", q.text[:m.start()], re.I) and \
                word not in {c.read_as for c in plan.corrections}:  # a zero for a guessed word is no answer
            _search(plan, rf"\b{literal(stem(word.lower()))}", True, f'with a word starting "{stem(word.lower())}"')
            plan.absent.append(plan.calls[-1].params["value"])
            plan.terms.append(Term(word=word, column="message", value=stem(word.lower()), rows=0))
        elif re.match(r"\s+" + LINE_WORDS + r"\b", q.text[m.end():], re.I) or (re.fullmatch(r"\w{3,}[^e]ed", word)
                and re.search(r"\b(?:were|was|been|got|are|is|be|being)\s+$", q.text[:m.start()], re.I)):
            unknown.append(word)  # "eror lines" says which lines, "blocks were allocated" what happened to them
        else:
            plan.ignored.append(word)
        q.consume(m.start(), m.end())
    return unknown


def _apart(plan: Plan, vocabulary: Vocabulary) -> bool:
    """Whether the searches for the question's own words do not describe one kind of line: in the sampled
    messages they never match together, even with each word in any form ("renewal" as "renew..."), or together
    on under 5% of the lines the rarest of them matches (events and names the rows contain included). Words that never match together as written are
    searched in any form when that finds lines."""
    both, fewest = vocabulary.together(plan.guesses + plan.named)
    if both == 0 and fewest > 0 and plan.stems:
        guesses = list(plan.guesses)
        for _, guess, _, root in plan.stems:
            guesses[guess] = rf"\b{re.escape(root)}"
        both, fewest = vocabulary.together(guesses + plan.named)
        if both:
            plan.guesses = guesses
            for call, _, written, root in plan.stems:
                words = f'with a word starting "{root}"'
                plan.calls[call] = Call("search_logs", {"value": rf"\b{literal(root)}", "regex": True}, f"keep lines {words}")
                plan.scope[plan.scope.index(f'with a word starting "{written}"')] = words
    return (both == 0 and fewest > 0) or (fewest >= 20 and both < 0.05 * fewest)


def _lead_in(text: str) -> int:
    """Where the question proper starts after a lead-in ("I'm triaging a job: how many ...", "Our provider had an
    incident. Can you find out how many ..."): after the last sentence break before the asking words, else 0."""
    asking = re.search(r"\b(?:how many|how often|which|what|who|count|list|show|top|give me|tell me|find|"
                       r"are there|is there|were there|number of)\b", text, re.I)
    if asking is None:
        return 0
    breaks = [m.end() for m in re.finditer(r"[.;:!?](?=\s)|\s-\s|,\s+(?=(?:so\s+|and\s+|then\s+)?(?:can|could|"
                                           r"would|please|how|which|what|who|count|list|show|tell|find)\b)",
                                           text[:asking.start()], re.I)]
    return breaks[-1] if breaks else 0


@functools.lru_cache(maxsize=8)
def _spelling(vocabulary: Vocabulary) -> tuple[frozenset[str], tuple[str, ...]]:
    """Words never corrected (the rules' lexicon and every word of the rows), and the words to correct to."""
    (lexicon, whole), words = lexicon_words(), vocabulary.words()
    return lexicon | frozenset(words), tuple(sorted(whole)) + tuple(w for w in words if w not in whole)
