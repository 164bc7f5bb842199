"""The words of a question that ask for something beyond counting, ranking and listing lines: a statistic of a
field, a share, a comparison, when something happened, how long, gaps, a two-way breakdown, the kinds of
messages, what is unusual; and the order and limit of a listing ("the last 3 errors").

`asked(text, used)` reads them from the parts of `text` no other rule has read (`used` marks the read ones) and
returns what they ask for and the spans it read; `unread_words` lists the asking words left over, which make any
reply a partial answer.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence

from react_engine.lexicon.entity_words import KEY_NOUNS
from react_engine.lexicon.known_words import UNANSWERED_ASKING
from react_engine.lexicon.number_words import COUNT_WORDS, ORDINALS
from react_engine.lexicon.rank_words import (
    DURATION_SUPERLATIVES,
    GAP_SUPERLATIVES,
    NEWEST,
    OLDEST,
    ONE_BUCKET_MOST,
    PLACED,
    SIZE_SUPERLATIVES,
    SPREAD_ENDS,
    STATISTIC_SUPERLATIVES,
    STRETCH,
)
from react_engine.lexicon.severity_terms import LEVEL_WORDS
from react_engine.lexicon.statistic_words import (
    COUNTED,
    PERCENT,
    QUANTITY_UNITS,
    RATE_EVENTS,
    SHARE_WORDS,
    STATISTICS,
)
from react_engine.lexicon.time_units import unit_names
from react_engine.question.asked import Asked, AskedText, with_unit
from react_engine.question.measures import (
    Comparison,
    Duration,
    Gaps,
    Measure,
    Occurrence,
    Patterns,
    Pivot,
    Share,
    Span,
    Statistic,
    StatisticFunc,
    Unusual,
)

_N = r"(\d+|" + "|".join(COUNT_WORDS) + r")"
_FUNCS: Mapping[str, StatisticFunc] = {**STATISTICS, **STATISTIC_SUPERLATIVES}
_UNITS = "|".join(QUANTITY_UNITS)
# "the longest time / biggest gap / largest interval between ...": silences, not a statistic of a field
_GAP = r"(?:time\s+)?(?:gaps?|intervals?|waits?|pauses?|silences?|stretch(?:es)?|periods?|time)\s+between\b"
# after "longest time": words of a silence ("the longest time between two lines", "with no lines"), no field
_NO_GAP = r"(?!\s+(?:between|with|without|that|the|where|when|in|of|no|nothing|since)\b)"
_ONE_BUCKET = (r"\bin\s+(?:an?|one|a single|any|any single|any one|a given|any given)\s+"
               r"(?:" + unit_names() + r")\b")  # "the most errors in one minute": a rate's maximum
_SPAN_UNITS = r"\bhow many (?:" + unit_names(last="day", plural="s") + r")\b(?=.*\b(?:cover|span|last|run|go on)\w*\b)"  # a span asked
# asking words that, left over after reading, mean part of the question went unanswered
_ASKING = (r"\b(?:" + "|".join(UNANSWERED_ASKING) + r")\b|%"
           r"|\b(?:" + "|".join(ORDINALS) + r")\s+(?:" + "|".join(PLACED) + r")\b")  # a place in a ranking other than the first ("the second most")

_AUXILIARY = r"(?:was|were|is|are|did|does|do|has|had|will)\b"
CONDITION = re.compile(r"(?<=\w)[\s,]+when\s+(?!" + _AUXILIARY + r")(?=[A-Za-z])", re.I)
""""when" joining what is asked to the event of the lines it is asked of ("the max port for 1.2.3.4 when failed
none", "the first src when receiving block"): the event's words are searches of the same lines, as after "in lines
with", and the "when" asks no time."""
_WHEN = r"\bwhen(?:'?s)?\b"
_ASKING_WHEN = rf"(?<!\w )(?<!\w, ){_WHEN}|{_WHEN}(?!\s+(?!{_AUXILIARY})[A-Za-z])"  # no CONDITION's "when"


def _percentile(t: AskedText) -> Measure | None:
    m = t.take(r"\b(\d{1,2}(?:\.\d+)?)(?:st|nd|rd|th)?[- ]?percentile\b|\bp(\d{2})\b|\bpercentile\b")
    if m is None:
        return None
    q = m.group(1) or m.group(2)
    return Statistic(func="percentile", q=float(q) if q else None, field=t.field_after(m.end()) or t.field_before(
        m.start()))


SPREAD = (r"\b(?:" + "|".join(SPREAD_ENDS[0]) + r")\s+and\s+(?:the\s+)?(?:" + "|".join(SPREAD_ENDS[1]) + r")\b"
          r"|\brange\s+of\b(?!\s+\d)")  # the lowest and the highest value both: "the min and max size"


def _statistic(t: AskedText) -> Measure | None:
    if re.search(r"\bhow long\b|" + _SPAN_UNITS, t.text, re.I):  # "how long did sessions last on average": durations
        return None
    if (m := t.take(SPREAD)) is not None:
        field, unit = with_unit(t, t.field_after(m.end()))
        return Statistic(func="min", field=field, unit=unit, spread=True)
    m = _statistic_words(t)
    if m is not None:
        return _named_statistic(t, m)
    m = t.take(r"\bhow (?:many|much)\s+(" + _UNITS + r")\b(?:\s+were\s+(?:served|transferred|returned))?"
               r"|\btotal\s+(?:number of\s+)?(" + _UNITS + r"|len|length|latency|duration|lifetime)\b"
               r"|\b(" + _UNITS + r")\b[^?]*\bin total\b")
    if m is not None:
        return Statistic(func="sum", field=next(g for g in m.groups() if g))
    if (m := t.take(_TOTAL_OF_A_FIELD)) is not None:
        return Statistic(func="sum", field=m.group(1))
    return None


# "what is the total seq for 0x0d when ...": the sum of a field the words after "total" name (not of lines: "the
# total number of", "the total errors")
_TOTAL_OF_A_FIELD = (r"^\W*what(?:'s|\s+is|\s+was)\s+the\s+total\s+(?!(?:" + "|".join(COUNTED) + r"|" + LEVEL_WORDS
                     + r"|lines?|entries|events?|messages?|records?)\b)([A-Za-z][\w-]*)(?=\s+(?:for|when|of|from)\b)")


def _statistic_words(t: AskedText) -> re.Match[str] | None:
    """The words naming a statistic ("average", "p95" aside): its name; else, unless the question ranks ("which host
    has the largest ..."), a superlative of a size or a duration; else the superlative of a rate's maximum ("the
    most errors in one minute"). The statistic's word is the first group that matched."""
    m = t.take(r"(?<!\bi )(?<!\bwe )(?<!\bthey )(?<!\byou )(?<!\bdoes )(?<!\bdo )(?<!\bit )\b("
               + "|".join(sorted(STATISTICS, key=len, reverse=True)) + r")\b(?!\s+(?:level|severity|that|by|to)\b|(?<=max)\s+" + _GAP + r"|(?<=maximum)\s+" + _GAP + ")")
    if m is None and not re.search(r"\b(?:which|who|top)\b", t.text, re.I):  # "which host has the largest..." ranks
        sized = "|".join(SIZE_SUPERLATIVES)
        m = t.take(r"\b(" + sized + r"|most(?=\s+(?:" + _UNITS + r")\b))\b"
                   r"(?!\s+(?:number|count|amount|share|percentage|rate|level|severity)\b|\s+" + _GAP + ")"
                   r"|\b(" + sized + r")\s+amount\s+of\b"
                   r"|\b(" + sized + r")\s+number\s+of\b(?=\s+(?:" + _UNITS + r")\b)"
                   r"|\b(" + "|".join(DURATION_SUPERLATIVES) + r")\b(?=\s+(?:[\w-]+\s+)?(?:lifetime|duration|latency|time)\b" + _NO_GAP + ")")
    if m is None and re.search(_ONE_BUCKET, t.text, re.I) and not re.search(r"\b(?:which|what|who|top)\b", t.text,
                                                                            re.I):
        m = t.take(r"\b(" + "|".join(ONE_BUCKET_MOST) + r")\b")
    return m


def _named_statistic(t: AskedText, m: re.Match[str]) -> Statistic:
    """The statistic the words `m` name, of the field after them (or of the number of lines, "average number of")."""
    func = _FUNCS[next(g for g in m.groups() if g).lower()]
    if t.take(r"(?<=" + re.escape(m.group(0)) + r")\s+(?:the\s+)?(?:number|count)\s+of\b"):
        return Statistic(func=func, field="number")  # "average number of failed logins per hour": a rate of
        # the lines (whose words are read as searches), no number the lines write
    field, unit = with_unit(t, t.field_after(m.end()))
    if timed := t.take(r"(?<=" + re.escape(m.group(0)) + r")\s+(?:the\s+)?(time|duration|latency)\s+(?:to|it took|taken|spent"
                         r"|needed)\b"):  # "max time to read a broadcast variable": the time it took
        field = timed.group(1).lower()
    return Statistic(func=func, field=field, unit=unit)


# "error rate", "failure rate": the share of the lines that are errors (the event word stays, as a filter)
_RATE = "(?:" + "|".join(rf"(?<=\b{w} )" for w in RATE_EVENTS) + r")rate\b"


def _share(t: AskedText) -> Measure | None:
    m = t.take(r"\b(?:what|which)\s+(?:" + PERCENT + r"|" + "|".join(SHARE_WORDS) + r")\b|\b" + PERCENT + r"\b|%"
               r"|\bproportion\b|\bfraction\b|\bratio\b|\bshare of\b|\bwhat portion\b|" + _RATE)
    if m is None:
        return None
    if any(re.search(pattern, t.text, re.I) for pattern in _RATIO):  # a ratio the ratio reader left: per key
        return Share(ratio=True)
    base = re.match(r"\s*(?:of\s+)?(?:the\s+|all\s+)?([\w'\".-]+(?:\s+[\w'\".-]+){0,3}?)\s+(?:are|were|is|was|came|come|that|"
                    r"which|have|had)\b", t.text[m.end():], re.I) if re.search(r"\bof\s*$|%$", m.group(0)) or re.match(
        r"\s+of\b", t.text[m.end():], re.I) else None
    if base is None:
        return Share()
    if re.fullmatch(_ALL_LINES, base.group(1), re.I):
        return Share(of_all=True)  # "what percent of lines are X": every filter picks the lines counted
    return Share(base=(base.group(1),))  # "what percent of errors are X": a share of the errors, not of all lines


_ALL_LINES = r"(?:(?:the|this|all)\s+)?(?:(?:log\s+)?lines?|logs?|entries|messages|events|records|rows|requests|responses|file|output)"


_SIDE = r"""([\w .'"/:;()-]*\w[\w.)]*['"]?)"""
_VERSUS = (_SIDE + r"\s+(?:vs\.?|versus|against|compared? (?:to|with))\s+" + _SIDE,
           r"\bcompare\s+" + _SIDE + r"\s+(?:and|with|to)\s+" + _SIDE)


def _compared_statistic(t: AskedText) -> Comparison | None:
    """A statistic's two sides ("average latency for alice vs bob"), named by "vs", "versus", "against",
    "compared to" or "compare A and B" (not "more than": "requests over 1 s" is a filter)."""
    for pattern in _VERSUS:
        if (m := t.take(pattern, over_read=True)) is not None:
            left = _side(m, 1)
            return Comparison(left=left, right=_elided(left, _side(m, 2)))
    return None


def _comparison(t: AskedText) -> Measure | None:
    m = t.take(r"\b(?:more|fewer|less|higher|lower|bigger|smaller)\b(.*?)\bthan\s+([\w ]+?)(?=[?.,;]|$)"
               r"|\bthan\s+(yesterday|before|usual|normal|last \w+)\b", over_read=True)
    if m is not None:
        left, right = (m.group(1) or "").strip(), (m.group(2) or m.group(3) or "").strip()
        if not re.search(r"\bhow many\s*$", t.text[:m.start()], re.I):
            return Comparison(left=left, right=right)
        fewer = re.match(r"fewer|less", m.group(0), re.I) is not None  # "how many fewer A than B": B less A
        return Comparison(left=right if fewer else left, right=left if fewer else right, difference=True)
    for pattern in (*_VERSUS, r"\bmore\s+" + _SIDE + r"\s+or\s+" + _SIDE, r"\bcompare\b|\bdifference between\b"):
        m = t.take(pattern, over_read=True)
        if m is not None:
            left = _side(m, 1)
            return Comparison(left=left, right=_elided(left, _side(m, 2)))
    return None


_RATIO_SIDE = r"([\w.'\"/-]+(?:\s+(?!(?:per|by|for|in|on|during|from|since|today|yesterday)\b)[\w.'\"/-]+)*)"
_RATIO = (r"\bratio\s+(?:of|between)\s+" + _RATIO_SIDE + r"\s+(?:to|and|vs\.?|versus|over)\s+" + _RATIO_SIDE,
          r"\b([\w-]+?)(?:\s*-?\s*to\s*-?\s*|\s*[:/]\s*)([\w-]+)\s+ratio\b")


def _ratio(t: AskedText) -> Measure | None:
    """"ratio of errors to warnings", "error to warning ratio", "error:warning ratio": the two sides' counts
    compared and divided; a ratio per key or time ("... per logger") or a key ranked by one ("which component has
    the highest ratio ...") is left to the share reader (a partial)."""
    for pattern in _RATIO:
        m = re.search(pattern, t.text, re.I)
        if m is not None and not re.match(r"\s*(?:per|by|for each|for every)\s+\w", t.text[m.end():], re.I) \
                and not re.search(r"\b(?:which|who|top)\b", t.text[:m.start()], re.I):
            t.take(re.escape(m.group(0)), over_read=True)
            return Comparison(left=m.group(1).strip(), right=m.group(2).strip(), ratio=True)
    return None


_MONTH_DAY = r"\b((?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+)\d{1,2}\b"


def _elided(left: str, right: str) -> str:
    """A right side that names only a day ("notices on the 4th of December compared with the 5th"): the left side's
    words with that day; any other right side as it is."""
    day = re.fullmatch(r"(?:the\s+)?(\d{1,2})(?:st|nd|rd|th)", right.strip(), re.I)
    if day is None:
        return right
    n = int(day.group(1))
    ordinal = f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"
    replaced, found = re.subn(r"\b\d{1,2}(?:st|nd|rd|th)\b", ordinal, left, count=1, flags=re.I)
    if not found:
        replaced, found = re.subn(_MONTH_DAY, rf"\g<1>{n}", left, count=1, flags=re.I)
    return replaced if found else right


def _side(m: re.Match[str], group: int) -> str:
    """One side of a comparison, without the words that only lead into it ("how do", "compare")."""
    if m.re.groups < group or m.group(group) is None:
        return ""
    return re.sub(r"^(?:how (?:do|does|many)|were there|compare|are there)\s+", "", m.group(group).strip(),
                  flags=re.I)


_FIRST_TO_LAST = (r"\b(?:from\s+)?(?:the\s+)?(?:first|earliest)(?:\s+(?:line|one|entry))?\s+(?:to|and|till|until)\s+"
                  r"(?:the\s+)?(?:last|latest)(?:\s+(?:line|one|entry))?\b")
_LAST = r"\b(?:last|lst|latest|most recent(?:ly)?|newest|stop(?:ped)?|end(?:ed)?)\b"
_FIRST = r"\b(?:first|frist|earliest|oldest|start(?:ed)?|begin|began)\b"


def _span(t: AskedText) -> Measure | None:
    """"how long did X last", "how long does the log span", "how much time does it cover", "time between the
    first and last X": the span, with the words that only say it runs from the first line to the last."""
    if t.take(r"\bhow long\b|\bduration\b|\btime span\b|\btime range\b|\blasted\b|\bhow much time\b|\belapsed\b"
              r"|\bspan(?:s|ned)?\b|\btime between (?:the )?(?:first|earliest)\b"
              r"|\bwhat (?:period|time ?frame|window|stretch of time)\b(?=.*\bcover(?:s|ed)?\b)"
              r"|" + _SPAN_UNITS):
        t.take(_FIRST_TO_LAST)
        t.take(r"\b(?:from\s+)?start to (?:finish|end)\b|\bfrom beginning to end\b")
        if t.take(r"\bfrom (?:the )?(?:first|earliest)\b"):  # "from the first X message to the last one"
            t.take(r"\bto (?:the )?(?:last|latest)(?: one)?\b")
        t.take(r"\b(?:and|to) (?:the )?(?:last|latest)\b")
        average = t.take(r"\b(?:on )?average\b")  # "how long did sessions last on average": a mean of durations
        # "how long did the outage last?", "how long does the log span?", "how much time does it cover?"
        t.take(r"\b(?:last(?:ed|s)?|span(?:s|ned)?|cover(?:s|ed)?|run for)\b(?=(?:\s+on average)?\s*(?:[?.!]?\s*$|,))")
        return Duration(start="", end="") if average else Span()
    return None


def _times(t: AskedText) -> Measure | None:
    if (span := _span(t)) is not None:
        return span
    if t.take(r"\bhow long did\b|\btook\b.*\bto\b"):
        return Duration(start="", end="")
    if t.take(r"\bgaps?\b|\bsilen(?:ce|t)\b|\bwent quiet\b|\bstopped logging\b"):
        return Gaps()
    when = t.take(_ASKING_WHEN + r"|\btime of (?:the )?(?=(?:first|frist|earliest|oldest|last|lst|latest"
                  r"|most recent|newest)\b)|^\W*(?:the\s+)?(?:latest|most recent|earliest)\b(?!\s+" + _N + r"\b)(?=[^\d]*$)") or t.take(
        r"\bwhat time\b", over_read=True)  # "time" may have been read as a log's field

    if when is not None:
        last = re.search(_LAST, when.group(0), re.I) or t.take(_LAST)
        if last is None and not re.search(_FIRST, when.group(0), re.I):
            t.take(_FIRST)
        return Occurrence(which="last" if last is not None else "first")
    return None


def _silence(t: AskedText) -> Measure | None:
    """"the longest silence between two lines", "biggest gaps between consecutive entries": the gaps, with the
    words that only say which gaps."""
    if t.take(r"\b(?:(?:" + "|".join(GAP_SUPERLATIVES) + r")\s+)?(?:gaps?|silen(?:ce|ces|t)|pauses?)\b"
              r"(?:\s+(?:between|in)\s+(?:the\s+)?(?:any\s+)?(?:two|consecutive|successive|adjacent)?\s*"
              r"(?:log\s+)?(?:lines|entries|messages|events|logs?))?"):
        return Gaps()
    if t.take(r"\blongest (?:time|period|stretch|while) (?:with(?:out)?|of) (?:no |any )?(?:log )?(?:lines|logs?|logging|"
              r"entries|messages|output)\b|\blongest (?:time|period|stretch|while) (?:that )?(?:the )?(?:log )?"
              r"(?:went|was|stayed|fell) (?:quiet|silent)\b"):
        return Gaps()
    if t.take(STRETCH + r"\s+(?:without|with no)\s+(?:an?\s+|any\s+)?(?=\w)"):
        # "the longest stretch without a WARN": the gaps between the WARN lines
        return Gaps()
    if t.take(r"\b(?:" + "|".join(GAP_SUPERLATIVES) + r"|max(?:imum)?)\s+" + _GAP + r"(?:\s+(?:any\s+)?(?:two|consecutive|"
              r"successive|adjacent)\b)?"):  # "largest interval between two 'check pass' lines"
        return Gaps()
    return None


def _breakdown(t: AskedText) -> Measure | None:
    m = t.take(r"\b(?:per|by|for each)\s+(\w+)\s+(?:and|per|by|&|,)\s+(?:per\s+|by\s+|each\s+)?(\w+)\b",
               over_read=True) or t.take(  # "per HTTP method per status code": a qualifier before each key
        r"\bper\s+\w+\s+(\w+)\s+(?:and|per)\s+(?:per\s+)?(\w+)(?:\s+(?:codes?|names?|ids?|values?|types?))?\b",
        over_read=True) or t.take(  # "component and level breakdown", "component by level counts"
        r"\b(?!" + LEVEL_WORDS + r")(\w+)\s+(?:and|by|x|&)\s+(?!" + LEVEL_WORDS + r")(\w+)\s+(?:breakdown|counts|table|matrix)\b",
        over_read=True)
    # level words are never a breakdown's keys ("error and warning counts" compares two levels)
    return Pivot(rows=singular(m.group(1)), columns=singular(m.group(2))) if m is not None else None


def _grouped_by(text: str) -> str | None:
    """"by node", "per program": the words grouping a statistic by a key noun, whatever read them; None when none."""
    m = re.search(r"\b(?:by|per|for each|for every)\s+(\w+)\b", text, re.I)
    return m.group(0) if m is not None and singular(m.group(1)) in KEY_NOUNS else None


def singular(word: str) -> str:
    """"hosts" -> "host", but "status", "address" and "analysis" stay."""
    word = word.lower()
    return word[:-1] if word.endswith("s") and not word.endswith(("ss", "us", "is")) else word


def _investigation(t: AskedText) -> Measure | None:
    if t.take(r"\bwhat (?:kinds?|types?|sorts?) of\b|\bsummari[sz]e\b|\bsummary\b|\bpatterns?\b|\bcategori[sz]e\b"):
        return Patterns()
    if t.take(r"\bunusual\b|\banomal\w*\b|\boutliers?\b|\bstrange\b|\bsuspicious\b|\bnever seen\b|\bspikes?\b"
              r"|\bnew (?:errors?|messages?|events?|kinds?)\b|\bfor the first time\b"):
        return Unusual()
    return None


_READERS: tuple[Callable[[AskedText], Measure | None], ...] = (
    _percentile, _statistic, _ratio, _share, _comparison, _breakdown, _investigation, _silence, _times)


_SHOWN_ORDER = r"\b(newest|latest|most recent|oldest|earliest)(?:\s+ones?)?\s+(?:first|on top)\b"


def _listing(t: AskedText) -> None:
    """"the last 3 errors", "first five lines", "the latest error", "5 most recent": order and limit; "newest
    first" / "oldest first" say the order the lines are shown in (the order of a listing with no other)."""
    if (shown := t.take(_SHOWN_ORDER)) is not None:
        t.found.order = "oldest" if shown.group(1).lower() in OLDEST else "newest"
    ends = "|".join((*NEWEST, *OLDEST))
    m = t.take(r"\b(" + ends + r")\s+" + _N + r"\b"
               r"|\b" + _N + r"\s+(latest|newest|most recent|oldest|earliest)\b"
               r"|\b(" + ends + r")\b")
    if m is None:
        return
    word = (m.group(1) or m.group(4) or m.group(5)).lower()
    number = m.group(2) or m.group(3)
    t.found.order = "oldest" if word in OLDEST else "newest"
    t.found.limit = (int(number) if number.isdigit() else COUNT_WORDS[number.lower()]) if number else 1


def asked(text: str, used: Sequence[bool]) -> Asked:
    """What the unread asking words of `text` ask for (the spans read are in `spans`)."""
    t = AskedText(text, used, Asked())
    for reader in _READERS:
        if (measure := reader(t)) is not None:
            t.found.measure = measure
            break
    if isinstance(t.found.measure, Statistic) and (compared := _compared_statistic(t)) is not None:
        t.found.measure = compared.model_copy(update={"statistic": t.found.measure})
    elif isinstance(t.found.measure, Statistic) and isinstance(pair := _breakdown(t), Pivot):
        t.found.keys = (pair.rows, pair.columns)
    elif isinstance(t.found.measure, (Statistic, Share)):
        t.found.by = _grouped_by(t.text)
    if t.found.measure is None:
        _listing(t)
    return t.found


def unread_words(text: str, used: Sequence[bool]) -> list[str]:
    """The asking words of `text` that no span in `used` covers."""
    return list(dict.fromkeys(m.group(0).lower() for m in re.finditer(_ASKING, text, re.I)
                              if not any(used[m.start():m.end()])))
