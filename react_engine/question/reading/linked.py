"""Which of the words no reader used are linked to nothing: not a field, a value, an event or a word of the log, not
a function word, not a day the time window holds, not a part of the log's name, and not described by quoted log text.
Those words are unread: the answer to the question is partial, and says so first."""

from __future__ import annotations

import functools
import re

from react_engine.lexicon.event_phrases import NEGATORS
from react_engine.lexicon.number_words import NUMBER_WORDS
from react_engine.lexicon.rank_words import COUNTING, IN_TIME_ORDER
from react_engine.lexicon.severity_terms import SEVERITY_WORDS
from react_engine.lexicon.statistic_words import SIZE_NOUNS
from react_engine.lexicon.stop_words import FILLER, FUNCTION_WORDS, NEGATIONS, TRANSFER_WORDS
from react_engine.lexicon.time_units import WEEKDAYS
from react_engine.logs.wordforms import split_words, stem
from react_engine.question.log_events import alike
from react_engine.question.measures import Count, Listing
from react_engine.question.query import Filter, Query, TextFilter
from react_engine.question.reading.draft import Draft
from react_engine.question.reading.event_words import levels
from react_engine.question.reading.nouns import VALUE_OF, asked_field
from react_engine.question.reading.question import Question
from react_engine.question.reading.shape import LINE_WORDS
from react_engine.question.vocabulary import Vocabulary, singular

_NEGATION = r"(?<![\w'])(?:" + "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in sorted({*NEGATIONS, *NEGATORS})) + \
    r"|\w+n't)(?![\w'])"


def unlinked(question: str, draft: Draft, literals: list[Filter], vocabulary: Vocabulary) -> list[str]:
    """The words `draft` ignored that nothing links (see the module); none when quoted log text names the lines
    (the other words describe them). A verb of moving data is a size's ("which ip sent the most bytes")."""
    if any(isinstance(f, TextFilter) and not f.regex for f in literals):
        return []
    written = {c.read_as.lower(): c.written for c in draft.corrections}
    sized = re.search(SIZE_NOUNS, question, re.I) is not None
    return [w for w in draft.ignored if not _linked(w, draft, vocabulary)
            and not (sized and w.lower() in TRANSFER_WORDS) and not _linked_as_written(w, written, draft, vocabulary)]


def _linked_as_written(word: str, written: dict[str, str], draft: Draft, vocabulary: Vocabulary) -> bool:
    """Whether `word`, a correction, is linked as the question wrote it (`written`: each correction's word)."""
    return word.lower() in written and _linked(written[word.lower()], draft, vocabulary)


def _linked(word: str, draft: Draft, vocabulary: Vocabulary) -> bool:
    """Whether `word` is a function word, a day of the window, part of the log's name, or a word of the log in any
    form: a part of a camelCase, snake_case or dotted word it writes ("wake" in WakeLock, "rdd" in rdd_42_3)."""
    lower = word.lower().strip("'.")
    if lower in NEGATIONS or lower.endswith("n't"):
        return _negation_written(draft, vocabulary)
    if _function(lower, draft) or (len(lower) >= 3 and any(lower in source for source in vocabulary.sources)):
        return True
    written = bool(vocabulary.stem_rows(lower)) or _part_of_a_word(lower, vocabulary)
    return written and not _apart(lower, draft, vocabulary)


def _apart(lower: str, draft: Draft, vocabulary: Vocabulary) -> bool:
    """Whether the log writes `lower` (in any form, or inside a word: "invalid" in invalidSet) on some but not all
    of the sampled lines the searches keep: the answer, which does not search for it, counts lines it does not
    name ("how many blocks were added to the invalid set" is not every line saying "added")."""
    searches = draft.searches()
    kept = vocabulary.events.meet(searches, levels(draft.filters))
    return 0 < vocabulary.events.meet([*searches, re.escape(stem(lower))], levels(draft.filters)) < kept


def _negation_written(draft: Draft, vocabulary: Vocabulary) -> bool:
    """Whether the sampled lines the searches keep (at their severities) all write a negation, as a negation no
    reader took says ("it said it can't find a child": "Can't find child"; "could not open a channel": "Cannot
    open channel"); else the negation is unread, as the answer would count lines with and without it."""
    searches = draft.searches()
    kept = vocabulary.events.meet(searches, levels(draft.filters))
    return kept > 0 and vocabulary.events.meet([*searches, _NEGATION], levels(draft.filters)) == kept


def _part_of_a_word(lower: str, vocabulary: Vocabulary) -> bool:
    """Whether `lower` is a part of a word of the log, in any form, or inside one of its words in capitals."""
    parts, stems, capitals = _parts(vocabulary)
    return bool({lower, singular(lower)} & parts) or any(alike(stem(lower), s) for s in stems) or (
        len(lower) >= 3 and any(lower in c for c in capitals))


def _function(lower: str, draft: Draft) -> bool:
    """A function word, a number word, or a day of the week the time window holds."""
    return lower in FUNCTION_WORDS or lower in NUMBER_WORDS or (
        lower in WEEKDAYS and draft.window is not None)


@functools.lru_cache(maxsize=8)
def _parts(vocabulary: Vocabulary) -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
    """The parts of the log's words (camelCase, snake_case and dotted words split), their stems, and the log's
    words in capitals that run several together (`UNAUTHSIDTIMEOUT`), in lower case."""
    names = [v for values in vocabulary.values.values() for v in values]  # components, hosts, event ids...
    tokens = set(re.findall(r"[A-Za-z][\w.]*", "\n".join([*vocabulary.events.messages, *names])))  # as written
    parts = frozenset(p for token in tokens for p in split_words(token) if len(p) > 2)
    capitals = frozenset(t.lower() for t in tokens if len(t) >= 6 and t.isupper())
    return parts, frozenset(stem(p) for p in parts), capitals


def value_unread(question: str, draft: Draft) -> list[str]:
    """"What is the src of X", "what is the first src when Y": `src` when the reading gives no value of it (no
    column or message field of that name is counted, ranked or listed, and no statistic was asked: "what is the p95
    of code" is one): a count or a listing of lines is no src (but it is "the first error")."""
    m = asked_field(question) or _ORDERED_VALUE.search(question)
    return [m.group(1)] if m is not None and draft.subject is None and draft.asked.measure is None and \
        m.group(1) not in draft.unread and not _NAMES_LINES.fullmatch(m.group(1)) else []


# "what is the first src when ...": a value of one field on the first (last) line is asked, which lines are not
_ORDERED_VALUE = re.compile(r"^\W*what(?:\s+(?:is|was)|'s)\s+the\s+" + IN_TIME_ORDER + r"\s+([A-Za-z][\w-]*)"
                            r"\s+(?:when|of|for|that|in|from|on)\b", re.I)
_NAMES_LINES = re.compile(r"(?:" + LINE_WORDS + "|" + "|".join(p for p, _ in SEVERITY_WORDS) + r")", re.I)


# what a count or a ranking counts: the words after "how many", "number of" or "the most", after a leading "count
# the", or before "how many" that ends the question ("failed logins: how many?")
_PHRASE = r"((?:[A-Za-z][\w-]*[ \t]*){1,3})"
_COUNTED = (re.compile(r"\b(?:how many|number of|the (?:" + "|".join(COUNTING) + r"))\s+" + _PHRASE, re.I),
            re.compile(r"^\W*count\s+(?:the\s+|of\s+)?" + _PHRASE, re.I),
            re.compile(r"^\W*" + _PHRASE + r"\W+how\s+many\W*$", re.I))
# words of a count that name no lines ("lines", "times", "unique"), read by the asking words
NOT_NAMED = re.compile(r"(?:" + LINE_WORDS + r"|the|an?|of|times|unique|distinct|different|total|there|in|on|from|"
                       r"for|with|by|to|were|was|are|is|did|do|does|have|has|had)", re.I)


def counted_unread(q: Question, draft: Draft, vocabulary: Vocabulary) -> list[str]:
    """The words a count or ranking of every line says it counts ("how many active?", "the most display") that the
    log writes but no reader took (the rules read them as filler): what they name was not looked for, so the answer
    is partial."""
    m = next((m for counted in _COUNTED if (m := counted.search(q.text)) is not None), None)
    if m is None or draft.filters or draft.asked.measure is not None:
        return []
    return [w for w in _free_words(q, m) if w.lower() in FILLER - FUNCTION_WORDS and vocabulary.token_rows(w)
            and w not in draft.unread]


def _free_words(q: Question, m: re.Match[str]) -> list[str]:
    """The words a count says it counts (group 1 of `m`) that name something and no reader took."""
    words = [w for w in re.finditer(r"\S+", m.group(1)) if not NOT_NAMED.fullmatch(w.group(0))]
    return [w.group(0) for w in words if not any(q.used[m.start(1) + w.start():m.start(1) + w.end()])]


def listed_for_a_count(question: str, query: Query) -> list[str]:
    """"How many" or "what is the X of" read as lines to list ("how many first from 0x0", "what is the line of
    /etc/x that reading included"): the count or the value asked is not given."""
    m = re.match(r"\W*(how many|how much)\b", question, re.I) or VALUE_OF.search(question)
    listed = isinstance(query.measure, Listing) and query.measure.key is None
    return [m.group(1)] if m and listed and m.group(1) not in query.unread else []


def distinct_for_a_count(question: str, query: Query) -> list[str]:
    """"How many distinct X" read as a count of lines ("how many distinct udev when removing device", where udev
    names the lines' component): no distinct values were counted."""
    m = re.match(r"\W*(?:how many|the number of|number of)\s+(distinct|unique|different)\b", question, re.I)
    return [m.group(1)] if m and type(query.measure) is Count and not query.grouping.keys \
        and m.group(1) not in query.unread else []
