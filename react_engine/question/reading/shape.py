"""What a question does with the lines it keeps (count, count distinct, rank, list, show, a histogram) and what it
counts or ranks (an entity or column: modems, IPs, users, ...)."""

from __future__ import annotations

import re

from react_engine.lexicon.entity_words import COUNTABLE, LABELS, TARGETS
from react_engine.lexicon.number_words import AMOUNT, NUMBER_WORDS
from react_engine.lexicon.rank_words import (
    BUCKET_EXTREMES,
    COUNTING,
    DURATION_SUPERLATIVES,
    FEWEST,
    IN_TIME_ORDER,
    LOW,
    MOST,
    MOST_POPULAR,
    NEWEST,
    OLDEST,
    PEAK,
    POPULAR,
    QUIET,
    QUIETEST,
    RANKING_SUPERLATIVES,
    SIZE_SUPERLATIVES,
    TOP_N_MOST,
)
from react_engine.lexicon.statistic_words import COUNTED, STATISTICS
from react_engine.lexicon.time_units import BUCKET_ADVERBS, HISTOGRAM_BUCKET, TIME_KEYS, unit_names
from react_engine.question.reading.draft import Draft, Goal
from react_engine.question.reading.nouns import writes_kind
from react_engine.question.reading.question import Question, amount
from react_engine.question.vocabulary import Vocabulary

# "by host", "per user" group counts; "logged by", "written by" name a source instead ("closed per pid" groups)
GROUP_BY = r"(?:(?<!\wed )(?<!written )(?<!\wen )\bby|\bper|\bfor each|\bfor every)\b"
GROUPED = GROUP_BY + r"\s+(?!(?<=by\s)[\w.:-]*\d)\w+"  # "by host", not "by 10.0.0.1": a value, no grouping
LINE_WORDS = r"(?:lines?|entries|entry|messages?|events?|records?|rows?|ones|logs?)"  # "unique lines"
SEVERAL = r"\d+|" + "|".join(w for w, n in NUMBER_WORDS.items() if n > 1)  # "which 5 IPs", not "which one"
# "which user had the lowest number of logins": the fewest lines, not a number counted
_LOWEST_NUMBER = r"\b(?:" + "|".join(LOW) + r")\s+(?:" + "|".join(COUNTED) + r")\s+of\b"
_MOST = r"\b(?!" + IN_TIME_ORDER + r")(?:" + "|".join(MOST) + r")\b"  # not "most recent": an end in time order
# a question that opens on a superlative of the fewest lines, a ranking from the fewest: "rarest level?", "the least
# common users" (not "least errors?", which names no values to rank)
TERSE_FEWEST = r"^\W*(?:the\s+)?(?:(?:least|fewest)\s+(?:" + "|".join(POPULAR) + r")|rarest)\b"
_BREAK = r"\bbreak(?:down| down)\b"
_BREAKDOWN = _BREAK + "|" + GROUPED
# the words that ask for a ranking whatever follows them ("by" ranks only the kind it names)
_RANKING = (r"\bmost (?:" + "|".join(MOST_POPULAR) + r")\b|\bfrequent\b|\bnoisiest\b|\bbusiest\b|" + _BREAK
            + "|" + TERSE_FEWEST)
# "what is the smallest block size received", "what is the minimum port for admin": the value of a field the kind
# counted names ("block size"), or of the kind's own numbers, asked by "what is", not which of the kind ranks first
_WHAT_IS_THE = r"^\s*what(?:'s|\s+is|\s+was)\s+the\s+"
OF_A_FIELD = (_WHAT_IS_THE + r"(?:" + "|".join((*SIZE_SUPERLATIVES, *DURATION_SUPERLATIVES)) + r")\s+[A-Za-z][\w-]*\s+"
              r"(?!(?:of|in|on|at|by|from|with|to|that|which|who|per)\b)[A-Za-z]|" + _WHAT_IS_THE + r"(?:"
              + "|".join(w for w, func in STATISTICS.items() if func in ("min", "max") and " " not in w) + r")\s+\w")
# a noun after an entity word that makes it a modifier of lines ("user attempts", "IP requests")
_HEAD_NOUN = re.compile(r"\S*\s+(?:attempts?|events?|lines?|entries|messages?|errors?|requests?|logins?|failures?"
                        r"|records?|occurrences?|times|\w+(?:ions|ments))\b")  # "block deletions", "allocations"
_DISTINCT = r"\bunique\b|\bdistinct\b|\bdifferent\b"
_MOST_DISTINCT = r"\b(?:" + "|".join(COUNTING) + r")\s+(?:unique|distinct|different)\s+([A-Za-z][\w-]*)"
# "first 5 invalid user attempts", "the last 3 session lines": lines listed, whatever word they start with
_FIRST_N = r"^\W*(?:show\s+(?:me\s+)?)?(?:the\s+)?(?:first|last|latest|newest|oldest|earliest|most recent)\s+" + AMOUNT + r"\b"
_IN_TIME_ORDER = r"^\W*(?:the\s+)?(?:" + "|".join((*NEWEST, *OLDEST)) + r")\b"  # "the last dest port"
_BUCKETS = r"(?:" + unit_names("minute", "day") + r")s?\b"
_QUIET = r"\b(?:" + "|".join(QUIET) + r")\b"
# the busiest or quietest buckets: "busiest hour", "the 3 busiest minutes", "which 2 hours had the most errors",
# "top 5 minutes by requests", "which hour had the fewest errors", "the hour with the most errors"
_EXTREME = "|".join(BUCKET_EXTREMES)
_DAYS = "(?:" + unit_names("minute", "day") + ")"
_PEAK = (r"\b(?:" + "|".join(PEAK) + r")\s+(?:(" + SEVERAL + r")\s+)?" + _BUCKETS + r"|\b(" + SEVERAL
         + r")\s+(?:" + _EXTREME + r")\s+" + _BUCKETS + r"|\btop\s+(" + SEVERAL + r")\s+" + _BUCKETS
         + r"|\b(?:which|what)\s+(?:(" + SEVERAL + r")\s+)?" + _BUCKETS + r"(?=.*\b(?:" + "|".join(
             (*COUNTING, *BUCKET_EXTREMES, "highest", "lowest")) + r")\b)|\b" + _DAYS + r"\s+(?:was|had)\s+(?:the\s+)?(?:"
         + "|".join((*COUNTING, *BUCKET_EXTREMES)) + r")\b|\bthe\s+" + _DAYS + r"\s+with\s+the\s+(?:" + "|".join(COUNTING)
         + r")\b")
# a number before the superlative that ranks ("the 3 most frequent messages", "2 least common levels", "the 3
# busiest components", "5 rarest users"): the number is how many values the ranking has
_SEVERAL_MOST = (r"(?:^|(?<=\bthe )|(?<=\bare )|(?<=\bshow )|(?<=\blist )|(?<=\bme ))\s*\b(" + SEVERAL
                 + r")\s+(?=(?:most|least)\s+(?:" + "|".join(POPULAR) + r")\b|(?:" + "|".join(RANKING_SUPERLATIVES)
                 + r")\b)")
_LISTS = r"^\s*(?:show|list|display|print|give me)\b"  # a question that lists, values or lines
# (pattern, goal) for the goals that need only a look at the question, in order
_GOALS: tuple[tuple[str, Goal], ...] = (
    (_RANKING + "|" + GROUPED, "top"),
    (_DISTINCT + r"|\bindividual\b", "unique"),
    (r"\bhow many\b|\bnumber of\b|\bcount\b|\bhow often\b|\btotal\b", "count"),
    (r"^\s*(?:which|what)\b", "list"),
    (_LISTS + r"|\bexamples?\b|\bsamples?\b"
     r"|\b(?:show|list|display|print)\s+(?:me\s+)?(?:them|those|these)\b", "show"),  # "any errors since 9? show them"
)


def read_goal(q: Question, draft: Draft) -> None:
    """Set the draft's goal, how many values a top list has, and a histogram's bucket."""
    draft.interval = _interval(q.text)
    if _peak(q, draft):
        return
    if q.take(r"\b(?:per|by|each|every)\s+(" + unit_names(last="day") + r")\b|\b(" + "|".join(BUCKET_ADVERBS) + r")\b|\bover time\b|\bhistogram\b"
              r"|\btimeline\b|\btrend\b"):
        draft.goal = "histogram"
    elif _top_n(q, draft):
        return
    elif q.has(r"\b(?:which|who)\b|^\s*what\s+(?!are\b|were\b)") and (q.has(_MOST) or q.has(_LOWEST_NUMBER)) \
            and not q.has(OF_A_FIELD):
        draft.goal = "which"
    else:
        _plain_goal(q, draft)


def _plain_goal(q: Question, draft: Draft) -> None:
    """The goal of a question that asks for no histogram and no ranking of N values: the first of `_GOALS` it
    matches, else a count for a yes/no question or a terse noun phrase ("SEVERE entries?"), else unclear."""
    if (goal := next((goal for pattern, goal in _GOALS if q.has(pattern)), None)) is not None:
        draft.goal = "list" if goal == "unique" and q.has(_LISTS) else goal  # "list the distinct users": their list
        draft.n = 10 if goal == "top" and q.has(_BREAKDOWN) else 5
    elif q.has(r"^\s*(?:are|were|is|was|did|do|does|has|have|any)\b") or not q.has(
            r"^\s*(?:why|how|when|where|who|whom|whose|what|which|can|could|should|would|will)\b"):
        draft.goal = "count"
    else:
        draft.goal = ""


def _top_n(q: Question, draft: Draft) -> bool:
    """Read a ranking of N values ("top 5", "top-3", "which 2 ... most", "the 3 most frequent X", "2 least common
    X"); whether the question asks for one."""
    if m := q.take(r"\btop[\s-]*" + AMOUNT + r"?\b|\b(?:which|what)\s+(" + SEVERAL +
                   r")\b(?=.*\b(?:" + "|".join(TOP_N_MOST) + r")\b)"):
        word = m[0].group(1) or m[0].group(2)
        draft.goal, draft.n = "top", amount(word) if word else 5
        return True
    if m := q.take(_SEVERAL_MOST):
        draft.goal, draft.n, draft.limited = "top", amount(m[0].group(1)), True
        if q.take(r"\b(?:" + "|".join(FEWEST) + r")\b"):
            draft.rank = "least"
        return True
    return False


def _peak(q: Question, draft: Draft) -> bool:
    """Read the busiest or quietest buckets asked for, and how many (see `_PEAK`); whether they are."""
    if not (found := q.take(_PEAK)):
        return False
    several = next((g for g in found[0].groups() if g), None)
    draft.goal, draft.peak, draft.n = "histogram", True, amount(several) if several else 1
    draft.rank = "least" if q.take(r"\b(?:" + "|".join(QUIETEST) + r")\b") or q.has(_QUIET) else "most"
    return True


def _interval(text: str) -> str:
    """A histogram's bucket: a minute or a day when the question names one, a second when it counts per second,
    else an hour."""
    unit = re.search(HISTOGRAM_BUCKET, text, re.I)
    word = next((g.lower() for g in unit.groups() if g), "hour") if unit else "hour"
    return TIME_KEYS[word] if word != "daily" else BUCKET_ADVERBS[word]


def read_target(q: Question, draft: Draft, vocabulary: Vocabulary) -> None:
    """The entity or column the question counts or ranks (modems, IPs, users...): the one after "per"/"by" in a
    breakdown, else the first one named. A kind found by a pattern that matches none of the sampled lines ("blocks"
    in Spark logs, which have no `blk_` ids) is left as a word of the question."""
    if _per_distinct(draft):
        return
    named = _named(q, vocabulary)
    first, draft.target = named[0] if named else (len(q.text), None)
    _unlinked_distinct(q, draft)
    if _subject_target(q, draft):
        return
    per = _by_last_kind(q, draft, named) or re.search(GROUP_BY + r"\s+(?:the\s+|each\s+)?", q.text, re.I)
    grouped = next((kind for start, kind in named if per and draft.goal == "top" and start == per.end()), None)
    if grouped:
        _group(q, draft, named, grouped)
    elif draft.goal == "top" and not q.has(_RANKING) and _counts_the_target(q, first):
        draft.goal = "count"  # "how many blocks were received, going by the 'Received block' lines": no breakdown
    _counted(q, draft, first)


def _by_last_kind(q: Question, draft: Draft, named: list[tuple[int, str]]) -> re.Match[str] | None:
    """"sessions closed by pid": a count whose last word is a kind named after "by" (so no source: no value follows)
    is a breakdown by that kind, even after a word ending in -ed; the match of "by", else None."""
    by = re.search(r"\bby\s+(?:the\s+|each\s+)?(?=\w+\W*$)", q.text, re.I) if draft.goal == "count" else None
    if by is None or not any(start == by.end() for start, _ in named):
        return None
    draft.goal, draft.n = "top", 10
    return by


def _unlinked_distinct(q: Question, draft: Draft) -> None:
    """A ranking by distinct values no reader linked ("which user has the most distinct zorks") is refused, never
    answered with the values' lines."""
    if draft.goal in ("top", "which") and draft.problem is None and (
            many := re.search(_MOST_DISTINCT, q.text, re.I)) is not None:
        draft.problem = f"counting distinct {many.group(1)} for each of the {LABELS.get(draft.target or '', 'values')}" \
                        " is not supported"


def _subject_target(q: Question, draft: Draft) -> bool:
    """Count or rank the subject's values, when a noun of the question names them; whether one does. Asked in time
    order ("the last 3 dest ports"), they are the values of the last lines holding one."""
    if draft.subject is None:
        return False
    draft.target = draft.subject.name
    if draft.goal == "count" and q.has(_IN_TIME_ORDER):
        draft.goal = "list"
    return True


def _per_distinct(draft: Draft) -> bool:
    """Rank the values distinct values are counted for ("which user has the most distinct ports"), when asked;
    whether they are."""
    if (distinct := draft.per_distinct) is None:
        return False
    if distinct.per is None:  # per time bucket: the histogram read_goal read, else the values alone
        if draft.goal != "histogram":
            draft.per_distinct, draft.subject, draft.target = None, distinct.counted.subject, distinct.counted.target
        return True
    draft.goal, draft.n = ("which", 1) if distinct.single else ("top", distinct.n or 10)
    draft.rank, draft.limited = ("least" if distinct.least else "most"), distinct.single or distinct.n is not None
    draft.subject, draft.target = distinct.per.subject, distinct.per.target
    return True


def _counted(q: Question, draft: Draft, first: int) -> None:
    """Messages are counted as lines and ranked as messages; "how many modems" counts distinct modems, and "how
    many unique lines" counts lines (the target word first named at `first`)."""
    _messages(q, draft)
    if draft.goal == "count" and draft.target in COUNTABLE and _counts_the_target(q, first):
        draft.goal = "unique"  # "how many modems ..." asks for distinct modems
    if draft.target in COUNTABLE:
        _listed(q, draft, first)
    if draft.target is None and draft.goal == "list" and q.has(_DISTINCT):
        draft.goal = "unique"  # "list the distinct X" of an X no rule knows: as "how many distinct X", no lines
    if draft.target is None and draft.goal == "unique":
        _distinct_lines(q, draft)


def _messages(q: Question, draft: Draft) -> None:
    """"How many messages" counts lines; "the most common errors" ranks messages."""
    if draft.target == "message" and draft.goal not in ("top", "which", "list"):
        draft.target = None
    if draft.target is None and draft.goal in ("top", "which") and q.has(r"\berrors?\b|\bwarnings?\b"):
        draft.target = "message"


def _listed(q: Question, draft: Draft, first: int) -> None:
    """"list the last 3 invalid user attempts" lists lines; "last 3 users" (values in time order) is no tool's."""
    if (draft.goal in ("list", "show") or q.has(_FIRST_N)) and _HEAD_NOUN.match(q.text[first:]):
        draft.target, draft.goal = None, "show"
    elif draft.goal == "count" and q.has(_FIRST_N):
        draft.goal = "list"  # "the last 3 ports": the values of the last lines holding one, in time order


def _named(q: Question, vocabulary: Vocabulary) -> list[tuple[int, str]]:
    """Where each entity word is, and its kind, in the question's order (their words become consumed)."""
    named = []
    for kind, pattern in TARGETS:
        for m in q.take(pattern):
            if not writes_kind(kind, vocabulary):
                q.consume(m.start(), m.end(), used=False)
            else:
                named.append((m.start(), kind))
    return sorted(named)


def _group(q: Question, draft: Draft, named: list[tuple[int, str]], grouped: str) -> None:
    """Rank the kind after "per"/"by"; counting another kind for each of them is no tool's."""
    counted = [(start, kind) for start, kind in named if kind != grouped and kind in COUNTABLE]
    if counted and (q.has(_DISTINCT) or _counts_the_target(q, counted[0][0])):
        draft.problem = f"counting distinct {LABELS[counted[0][1]]} for each of the {LABELS[grouped]} is not supported"
    draft.target = grouped


def _distinct_lines(q: Question, draft: Draft) -> None:
    """"How many unique lines" counts lines; distinct values of a word no rule knows are no tool's."""
    draft.goal = "count"
    noun = re.search(r"\b(?:unique|distinct|different|individual)\s+(\w+)", q.text, re.I)
    if noun and not q.used[noun.start(1)] and not re.fullmatch(LINE_WORDS, noun.group(1), re.I):
        draft.problem = f'I cannot count distinct "{noun.group(1)}": the tools count distinct values of ' \
                        "known entities (IP addresses, users, hosts, blocks, ...)"


def _counts_the_target(q: Question, start: int) -> bool:
    """Whether "how many" is followed by the target word at `start` ("how many [unregistered] modems"), and the
    target is not just a modifier ("how many user attempts")."""
    counted = re.search(r"\b(?:how many|number of|count(?: of| the)?)\s+(?:(?:unique|distinct|different|"
                        r"individual|of|the)\s+)*", q.text, re.I)
    if counted is None or start < counted.end():
        return False
    return _HEAD_NOUN.match(q.text[start:]) is None and all(
        q.used[i] or q.text[i].isspace() for i in range(counted.end(), start))
