"""Reading a question as one of the log's own events ("how many times gmetad got no answer from any datasource"
-> 'got no answer from any'): which words an event may explain, whether the question's own searches would find
nothing, and the search for the event that replaces them."""

from __future__ import annotations

import re

from react_engine.lexicon.severity_terms import SEVERITY_WORDS
from react_engine.logs.severity import RANK, normalize
from react_engine.logs.wordforms import split_words, stem
from react_engine.question.interpretation import Term
from react_engine.question.log_events import Reading, alike
from react_engine.question.query import Filter, LevelFilter, TextFilter, TimeFilter
from react_engine.question.reading.draft import Draft, Grounding, searched
from react_engine.question.reading.question import Question
from react_engine.question.vocabulary import Vocabulary

_FAILURE = re.compile(r"(?<![a-z])(?:fail[a-z]*|errors?|cannot|can't|could not|unable|denied|refused|invalid|"
                      r"exceptions?|abort[a-z]*|time[ds]? ?out)(?![a-z])", re.I)


def said_words(q: Question, lead_in: int, vocabulary: Vocabulary) -> list[str]:
    """The content words no quote, name or time explained, past the lead-in and other than the log's name."""
    words = [m.group(0).strip("'.:-") for m in q.leftover() if m.start() >= lead_in]
    return [w for w in words if w and not w.isdigit() and not vocabulary.names_log(w)]


def _searches(filters: list[Filter]) -> list[str]:
    return [searched(f) for f in filters if isinstance(f, TextFilter)]


def levels(filters: list[Filter]) -> frozenset[str] | None:
    """The severities a level filter keeps, those it names and those at or worse than its minimum (None without
    one, or when it names a level that is no severity)."""
    level = next((f for f in filters if isinstance(f, LevelFilter)), None)
    return _kept_levels(level) if level is not None else None


def _kept_levels(level: LevelFilter) -> frozenset[str] | None:
    """The severities `level` keeps, or None when it names a level that is no severity."""
    named = [normalize(v) for v in (*level.levels, *filter(None, [level.min_level]))]
    if not named or None in named:
        return None
    floor = normalize(level.min_level) if level.min_level else None
    worse = {name for name, rank in RANK.items() if floor and rank <= RANK[floor]}
    return frozenset({v for v in named if v} | worse)


def level_names_lines(filters: list[Filter], vocabulary: Vocabulary) -> bool:
    """Whether a severity word after quoted text or a name names those lines rather than their level: the text
    tells of a failure ("'Failed to open package' errors", "CBS_E_INVALID_PACKAGE errors"), sampled lines hold
    it, and none of them is at that level."""
    texts = [f for f in filters if isinstance(f, TextFilter) and not f.regex]
    kept, searches, events = levels(filters), [searched(f) for f in texts], vocabulary.events
    return bool(kept and searches and any(_FAILURE.search(f.value) for f in texts)
                and events.meet(searches)) and events.meet(searches, kept) == 0


def unmet(filters: list[Filter], vocabulary: Vocabulary) -> bool:
    """Whether no sampled line matches all of the searches (at their severities): their words never meet."""
    searches, events = _searches(filters), vocabulary.events
    return bool(searches and events.sample) and events.meet(searches, levels(filters)) == 0


def quote_covers(word: str, quoted: list[str], vocabulary: Vocabulary) -> bool | None:
    """Whether quoted text makes `word` no extra search: True when a quoted word is a form of it ("generated" and
    'generating core'), False when it never meets the quoted text on a sampled line (it only describes those
    lines), None when it may narrow them."""
    stems = [stem(w) for phrase in quoted for w in split_words(phrase)]
    if any(alike(stem(part), s) for part in split_words(word) for s in stems):
        return True
    lines = vocabulary.events.meet([re.escape(phrase) for phrase in quoted])
    if lines and not vocabulary.events.meet([re.escape(phrase) for phrase in quoted] + [r"\b" + re.escape(word)]):
        return False
    return None


def as_event(draft: Draft, said: list[str], unknown: list[str], literals: list[Filter],
             vocabulary: Vocabulary) -> None:
    """Read the question as the log event its words describe, in place of searches for its words that never meet
    on a line: a search for the event's longest literal run. Quoted text, names, times and fields still narrow; a
    severity word or a day ("today") that is part of the event's text is no filter; the words the event does not
    explain are ignored."""
    reading = vocabulary.events.read(said + unknown)
    if reading is None or not set(unknown) <= set(reading.words):
        return  # no event, or a word that must count ("port 23") is not the event's
    day = _day_in_event(draft, reading)
    kept = _kept(draft.filters, literals, reading, day)
    if not vocabulary.events.meet([*_searches(kept), re.escape(reading.search)], levels(kept)):
        return
    dropped = _dropped(draft, kept, reading)
    draft.filters = kept
    draft.search(reading.search, False, f'containing "{reading.search}"')
    draft.terms = [t for t in draft.terms if t.column != "message"] + [Term(
        word=" ".join(reading.words), column="message", value=reading.search,
        rows=reading.rows if vocabulary.sampled == vocabulary.rows else None)]
    draft.ignored = _unexplained(draft.ignored + dropped + unknown, reading)
    draft.problem, draft.grounding = None, Grounding()
    draft.window = None if day else draft.window
    draft.level_noun = False


def _dropped(draft: Draft, kept: list[Filter], reading: Reading) -> list[str]:
    """The words of the searches the event's search replaces: its message terms, and the text of each other
    search the event's text does not hold (a value such as "26741629", which the answer must not drop silently)."""
    texts = [_plain(f.value) for f in draft.filters if isinstance(f, TextFilter) and f not in kept]
    return [t.word for t in draft.terms if t.column == "message"] + [
        text for text in texts if text and text.lower() not in reading.search.lower()]


def _plain(search: str) -> str:
    """The text a search looks for, without its word boundaries, anchors and escapes (`\\btorus` is "torus"); ""
    for a pattern that is more than text (whose words were read, and said when ignored, elsewhere)."""
    text = re.sub(r"\\([^\w\s])", r"\1", re.sub(r"\\b|[<>^$]", "", search)).strip()
    return "" if re.search(r"\(\?|[\[\]|*+{}\\]", text) else text


def _unexplained(words: list[str], reading: Reading) -> list[str]:
    """The words the event does not explain, in any form."""
    explained = {w.lower() for w in reading.words}
    return list(dict.fromkeys(w for w in words if w.lower() not in explained
                              and not any(alike(stem(w.lower()), s) for s in reading.stems)))


def _day_in_event(draft: Draft, reading: Reading) -> bool:
    """Whether the day the question names is a word of the event ("set today's steps": setTodayTotalDetailSteps)."""
    window = draft.window
    return window is not None and re.match(r"(today|yesterday)\b", window.words) is not None and any(
        window.words.startswith(s) for s in reading.stems)


def _kept(filters: list[Filter], literals: list[Filter], reading: Reading, day: bool) -> list[Filter]:
    """The filters that still narrow once the event's search replaces the searches for the question's words."""
    in_text = any(re.fullmatch(p, w, re.I) for w in reading.words for p, _ in SEVERITY_WORDS)
    return [f for f in filters if f in literals or not (
        isinstance(f, TextFilter) or (in_text and isinstance(f, LevelFilter)) or (day and isinstance(f, TimeFilter)))]
