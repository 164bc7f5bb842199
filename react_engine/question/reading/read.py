"""`read_question`: a question -> its `Reading`. The readers run in a fixed order, each consuming the words it
explains: corrections, negations and exclusions, investigations, quoted text and names, places, the time window,
texts and levels, the goal and its target, the asking words, then the words left over (grounded in the rows or
ignored); a question whose searches never meet is read as one of the log's events."""

from __future__ import annotations

import functools
import re

from react_engine.lexicon.entity_words import TARGETS
from react_engine.lexicon.event_phrases import NAMED_LOGINS
from react_engine.lexicon.known_words import TIME_WORDS, lexicon_words
from react_engine.lexicon.statistic_words import MEASURE_WORDS
from react_engine.lexicon.stop_words import FILLER, FUNCTION_WORDS
from react_engine.question.asked import field_words
from react_engine.question.asking import CONDITION, asked, unread_words
from react_engine.question.interpretation import Correction, Interpretation, TimeWindow
from react_engine.question.measures import Comparison, Count, Gaps, Occurrence, Share, Span, Statistic
from react_engine.question.query import Filter, LevelFilter, Query, TextFilter, TimeFilter
from react_engine.question.reading.distinct_per import read_distinct_per
from react_engine.question.reading.draft import Draft, searched
from react_engine.question.reading.event_words import as_event, level_names_lines, said_words, unmet
from react_engine.question.reading.examples import without_examples
from react_engine.question.reading.field_values import read_field_values
from react_engine.question.reading.investigation_words import WRONG, read_investigation
from react_engine.question.reading.linked import (
    counted_unread,
    distinct_for_a_count,
    listed_for_a_count,
    unlinked,
    value_unread,
)
from react_engine.question.reading.literals import read_literals
from react_engine.question.reading.log_worded import log_worded
from react_engine.question.reading.log_words import apart, ground, written_phrase
from react_engine.question.reading.measure import investigate, read_query
from react_engine.question.reading.negated import read_negated
from react_engine.question.reading.negation import claim_columns, excluded, find
from react_engine.question.reading.never import anti_joined
from react_engine.question.reading.nouns import subject
from react_engine.question.reading.pasted import context_words, with_antecedent, without_pasted
from react_engine.question.reading.places import read_places, read_source
from react_engine.question.reading.question import Question, lead_in, time_window
from react_engine.question.reading.rank import (
    read_most_per_bucket,
    read_peak_bucket,
    read_rank,
    read_ranked_field,
)
from react_engine.question.reading.rate_words import as_rate
from react_engine.question.reading.readout import Reading
from react_engine.question.reading.roles import deed, role, stranded, user_role, writer
from react_engine.question.reading.sessions import between_events, paired
from react_engine.question.reading.severity_words import cut_levels
from react_engine.question.reading.shape import GROUPED, read_goal, read_target
from react_engine.question.reading.sides import with_sides
from react_engine.question.reading.texts import read_texts
from react_engine.question.reading.threshold_words import blanked, read_thresholds, unknown_units
from react_engine.question.reading.unsaid import negation_apart, unsaid
from react_engine.question.reading.word_order import in_order
from react_engine.question.spelling import correct, correct_names
from react_engine.question.vocabulary import Vocabulary

_WHEN_WRITTEN = re.compile(r"(?<=\w)[\s,]+when(?=\s+([a-z]+)\s+([a-z]+)\b)", re.I)  # a "when" inside, two words on
_OF_LINES = (Occurrence, Span, Gaps, Share)  # measures of the matching lines themselves
# a statistic's value "in one connection", "in a single request": the value one line holds (a time bucket after
# these words, "the most errors in one minute", is a rate's, read before)
_IN_ONE = r"\b(?:in|for|of)\s+(?:one|a single|any one|any single|any)\s+[A-Za-z][\w-]*\b"
_WHY = (r"^\s*(?:why|how come)\b|\bexplain\b|\broot[- ]cause\b|\bwhat (?:caused|happened)\b"
        r"|\bwhat (?:did|does|do|have|has)\s+(?:the\s+|our\s+|my\s+)?[\w.-]+\s+(?:do|done)\b")
"""What only an explanation answers: a cause, what happened, what a kind of thing did ("what did the attacker do")."""
# words asking for a cause, which no tool computes: an investigation read from them shows context, partially
# ("why were there warnings" asks what there was, and is answered by their kinds)
_CAUSE = (r"^\s*(?:why|how come)\b(?!\s+(?:were|was|are|is) there\b)|\bexplain\b|\broot[- ]cause\b"
          r"|\bwhat (?:caused|triggered)\b|\bwhat led (?:up )?to\b|\bcaused?\b|\breasons? (?:for|why)\b")


def read_question(question: str, columns: list[str], now: str | None, vocabulary: Vocabulary,
                  uses_severity: bool, side: bool = False) -> Reading:
    """The reading of `question` over rows with `columns` (`now`: the time "today" and "the last hour" count
    from; `uses_severity`: read severity words as levels, else as words to search for; `side`: the question is
    one side of a comparison, whose words name one filter)."""
    text, corrections = _corrected(without_pasted(without_examples(with_antecedent(question))), columns,
                                   vocabulary)
    q, draft = Question(text), Draft(corrections=corrections)
    negated = find(q, columns)  # its words are read on their own, after the rest
    draft.excluded = excluded(q)  # before quoted text becomes a search: "other than '-'"
    investigation = read_investigation(q)
    if investigation is None and q.has(_WHY):
        draft.problem = "I can count, rank and list log lines, not explain why something happened"
        return Reading(query=None, interpretation=_interpretation(draft, None), problem=draft.problem)
    literals, said = _read_names(q, draft, columns, now, uses_severity, vocabulary)
    read_goal(q, draft)
    if investigation is not None:
        investigate(draft, investigation, problems=uses_severity and WRONG in text.lower())
    read_target(q, draft, vocabulary)
    read_rank(q, draft)
    draft.role = user_role(q) if draft.target == "user" else role(q)
    draft.deed = deed(q) if draft.role is None else None
    draft.stranded, draft.wrote = stranded(q), writer(q)
    claim_columns(q, draft.excluded, columns)
    _asking(q, draft, vocabulary)
    if investigation is not None:  # the context is shown, a cause is not: the answer is partial, never verified
        draft.unread += _asked_cause(q.text)
    _measured(q, draft, columns, vocabulary)
    unknown = _grounded(q, draft, vocabulary, literals)
    if negated is not None:
        read_negated(q, negated, draft, columns, uses_severity, vocabulary)
    mapped = draft.problem is None
    draft.problem = _problem(draft, unknown, vocabulary) or draft.problem
    if mapped and _may_be_event(draft, vocabulary):
        as_event(draft, said, unknown, literals, vocabulary)
    if not side and not isinstance(draft.asked.measure, Comparison):  # each side is read on its own
        draft.filters += unsaid(q.text, draft, vocabulary)
    _unread(q, draft, literals, vocabulary)
    return with_sides(_reading(q, draft, columns, vocabulary),
                      lambda words: read_question(words, columns, now, vocabulary, uses_severity, side=True), vocabulary)


def _asked_cause(text: str) -> list[str]:
    """The words asking for a cause ("why", "what led to"), if any."""
    m = re.search(_CAUSE, text, re.I)
    return [text[m.start():m.end()].strip()] if m else []


def _unread(q: Question, draft: Draft, literals: list[Filter], vocabulary: Vocabulary) -> None:
    """Add the words no reading answers or links (the answer is then partial): a value asked that no measure
    gives, words a count says it counts that no reader took, and words linked to nothing; those of a lead-in's
    story are left out instead."""
    draft.unread += value_unread(q.text, draft) + counted_unread(q, draft, vocabulary)
    draft.unread += [w for w in unlinked(q.text, draft, literals, vocabulary) if w not in draft.unread]
    draft.unread += [w for w in negation_apart(q.text, draft, vocabulary) if w not in draft.unread]
    context = context_words(q.text)  # a lead-in's story is left out, not left unanswered
    draft.ignored += [w for w in draft.unread if w.lower() in context and w not in draft.ignored]
    draft.unread = [w for w in draft.unread if w.lower() not in context]


def _measured(q: Question, draft: Draft, columns: list[str], vocabulary: Vocabulary) -> None:
    """What the asking words left to the rest of the question: a threshold's unknown unit, values ranked by a
    field, the most lines per value and bucket, durations between two events, and paired events."""
    unknown_units(q.text, draft)
    read_ranked_field(q, draft, columns, lambda: [f.name for f in vocabulary.fields])
    read_most_per_bucket(q, draft)
    if (events := between_events(draft.asked.measure, q.text, vocabulary, columns)) is not None:
        draft.asked.measure = events[0]  # its events' words are no searches of the lines measured
        _unsearch(draft, q.text[events[1][0]:events[1][1]])
        q.consume(*events[1])
    draft.asked.measure = paired(draft.asked.measure, q.text, vocabulary, columns)


def _grounded(q: Question, draft: Draft, vocabulary: Vocabulary, literals: list[Filter]) -> list[str]:
    """`ground` the words left over (returns the words that cannot be handled)."""
    unknown = ground(q, draft, vocabulary, [f.value for f in literals if isinstance(f, TextFilter) and not f.regex])
    written_phrase(q, draft, vocabulary)
    return unknown


def _corrected(question: str, columns: list[str], vocabulary: Vocabulary) -> tuple[str, list[Correction]]:
    """The question in the order the readers read it, with misspelt names and words read as the rows write them, and
    its logins named."""
    known_words, candidates = _spelling(vocabulary)
    named = frozenset(w for c in columns for w in (c.lower(), c.lower() + "s"))  # "states": a column's name
    text, renamed = correct_names(in_order(question), vocabulary, known_words)
    text, corrections = correct(text, known_words | named | TIME_WORDS, candidates)
    text, cut = cut_levels(text, vocabulary, lexicon_words()[0])
    return re.sub(NAMED_LOGINS, r"\1 \3 for \2", text, flags=re.I), renamed + corrections + cut


def _read_names(q: Question, draft: Draft, columns: list[str], now: str | None, uses_severity: bool,
                vocabulary: Vocabulary) -> tuple[list[Filter], list[str]]:
    """The filters of what the question names (places, the time window, a source, then quoted text, texts and
    levels, in that order); returns the filters of its quoted text and written addresses, and the words an event
    of the log may explain."""
    texts = Draft()
    read_thresholds(q, draft, columns, vocabulary)  # first: "1.5 KB", "over 500 ms" are no names, times or texts
    read_field_values(q, texts, columns, vocabulary)  # "in src 10.250.14.224": the value of that field, not anywhere
    read_literals(q, texts, vocabulary)  # first: an interface or IP must not be read as a host name
    literals = list(texts.filters)
    read_distinct_per(q, draft, columns, vocabulary)  # "distinct ports per user": both sides' words, first
    draft.subject = subject(q, columns, vocabulary)  # before its words are read as names or searches
    read_places(q, draft, columns, vocabulary)
    if (window := time_window(q, now, vocabulary)) is not None:
        start, end, words = window
        draft.filters.append(TimeFilter(start=start, end=end,
                                        words=words + (f" (now = {now})" if end == "now" else "")))
        draft.window = TimeWindow(start=start, end=end, words=words)
    read_source(q, draft, columns, vocabulary)
    said = said_words(q, lead_in(q.text), vocabulary)
    read_texts(q, texts, columns, uses_severity, vocabulary)
    if texts.level_noun and level_names_lines(texts.filters, vocabulary):  # "'Failed to open package' erors"
        texts.drop(LevelFilter)
    draft.filters += texts.filters
    draft.terms += texts.terms
    draft.corrections += texts.corrections
    draft.never += texts.never
    draft.level_noun = texts.level_noun
    draft.grounding.named = texts.grounding.named
    return literals, said


def _asking(q: Question, draft: Draft, vocabulary: Vocabulary) -> None:
    """What the question's asking words ask beyond counting, ranking and listing (read before the words left over
    become searches), and the asking words nothing reads (`unread`); a "when" inside the question before words the
    log writes ("list the distinct cmp when has extras") joins what is asked to those lines, asking no time."""
    for m in _WHEN_WRITTEN.finditer(q.text):  # "when has extras": the log writes `has extras`, no time is asked
        if m.group(2).lower() not in FUNCTION_WORDS and vocabulary.events.meet([rf"\b{m.group(1)}\s+{m.group(2)}\b"]):
            q.consume(*m.span(0))
    draft.asked = asked(blanked(q.text, draft.thresholds), q.used)
    _as_rate(q, draft)
    for start, end in draft.asked.spans:
        q.consume(start, end)
    read_peak_bucket(q, draft)
    _of_the_lines(q, draft)
    _field_over_searches(q, draft)
    _condition(q, draft)
    draft.unread = unread_words(q.text, q.used)
    for m in re.finditer("|".join(re.escape(w) for w in draft.unread) or r"(?!)", q.text, re.I):
        q.consume(m.start(), m.end())


def _as_rate(q: Question, draft: Draft) -> None:
    """"Average number of errors per hour": a statistic of the lines counted per bucket."""
    if isinstance(draft.asked.measure, Statistic) and (
            rate := as_rate(draft.asked.measure, q.text, draft.asked.spans[0][1])) is not None:
        draft.asked.measure = rate[0]
        q.consume(*rate[1])


def _of_the_lines(q: Question, draft: Draft) -> None:
    """A measure asked of the lines themselves: a statistic "per connection" is per line, and "when was the first
    invalid user attempt" asks about lines, not users (what can be answered of "what percentage of lines are
    warnings" is the warnings)."""
    if isinstance(draft.asked.measure, Statistic) and draft.goal == "top" and draft.target is None:
        for m in re.finditer(GROUPED, q.text, re.I):  # "average bytes sent per connection": per line
            q.consume(m.start(), m.end())
            _unsearch(draft, m.group(0))
        draft.goal = "count"
    if isinstance(draft.asked.measure, Statistic) and draft.target is None:
        for m in re.finditer(_IN_ONE, q.text, re.I):  # "the largest bytes sent in one connection": in one line
            if not any(q.used[m.start():m.end()]) or _unsearch(draft, m.group(0)):
                q.consume(m.start(), m.end())
    if draft.asked.measure is not None and draft.goal in ("", "show", "list") and (
            draft.target is None or isinstance(draft.asked.measure, _OF_LINES)):
        draft.target, draft.goal = None, "count"


def _field_over_searches(q: Question, draft: Draft) -> None:
    """A statistic's field named with words an earlier reader took as a search ("longest connection lifetime":
    "connection" is an event of the lexicon) names the field, and those words search for nothing."""
    measure = draft.asked.measure
    if not isinstance(measure, Statistic) or measure.field or not draft.asked.spans:
        return
    m = field_words(q.text, draft.asked.spans[0][1])
    if m is None or not m.group(1).strip():
        return
    phrase = m.group(1).strip()
    if _unsearch(draft, phrase) or _untarget(draft, phrase):
        draft.asked.measure = measure.model_copy(update={"field": phrase})
        q.consume(m.start(1), m.end(1))


def _untarget(draft: Draft, words: str) -> bool:
    """Whether `words` are all of the kind of value an earlier reader took as what is counted ("the max port":
    `port` names the numbers measured, not ports to count), which is then counted no more."""
    pattern = dict(TARGETS).get(draft.target or "")
    if pattern is None or not re.fullmatch(pattern, words, re.I):
        return False
    draft.target = None
    return True


def _condition(q: Question, draft: Draft) -> None:
    """Read a "when" that joins what is asked to the event of its lines (`CONDITION`): the words after it are
    searches of the lines asked of, which the searches already hold (an event the lines do not write with the rest
    is refused as apart)."""
    for m in CONDITION.finditer(q.text):
        if not any(q.used[m.start():m.end()]):
            q.consume(m.start(), m.end())


def _unsearch(draft: Draft, words: str) -> bool:
    """Drop the searches an earlier reader made of `words`, which say what is measured; whether there were any."""
    taken = [f for f in draft.filters if isinstance(f, TextFilter) and not f.exclude
             and re.search(searched(f), words, re.I)]
    draft.filters = [f for f in draft.filters if f not in taken]
    draft.grounding.named = [p for p in draft.grounding.named if p not in {searched(f) for f in taken}]
    return bool(taken)


def _problem(draft: Draft, unknown: list[str], vocabulary: Vocabulary) -> str | None:
    """Why the question cannot be read as it stands (None when it can)."""
    if unknown:
        return f'I do not know how to look for "{" ".join(unknown)}" in these logs'
    if not draft.goal:
        return "I could not tell whether to count, rank or list"
    return _not_found(draft, vocabulary)


def _not_found(draft: Draft, vocabulary: Vocabulary) -> str | None:
    """Why the lines the question names cannot be found: its words never meet on a line, its subject is in no
    line, or a word read as another selects none (None when they can)."""
    if _never_together(draft, vocabulary):
        return "the words of the question rarely occur on the same log line"
    if draft.ignored and draft.target is None and not draft.filters:
        return f'I could not find {", ".join(repr(w) for w in draft.ignored)} in these logs'  # the subject
    if (guessed := _misread(draft)) is not None:
        return f'I read "{guessed.written}" as "{guessed.read_as}", which selects no lines'  # "verbos"
    return None


def _never_together(draft: Draft, vocabulary: Vocabulary) -> bool:
    """Whether the question's searches (two or more, not a comparison's two sides) rarely meet on one line."""
    grounding = draft.grounding
    return len(grounding.guesses) + len(grounding.named) > 1 and not _two_sides(draft) and apart(draft, vocabulary)


def _misread(draft: Draft) -> Correction | None:
    """The first word read as another, of a count that selects no lines by it, when it is no filler or measure."""
    if draft.goal != "count" or draft.filters:
        return None
    return next((c for c in draft.corrections if c.read_as.lower() not in FILLER | MEASURE_WORDS), None)


def _two_sides(draft: Draft) -> bool:
    """Whether the question compares two sides, whose words need not meet on one line ("DHCPDISCOVER vs
    DHCPREQUEST")."""
    measure = draft.asked.measure
    return isinstance(measure, Comparison) and bool(measure.left and measure.right)


def _may_be_event(draft: Draft, vocabulary: Vocabulary) -> bool:
    """Whether the question may name one of the log's events: its words could not be read, were found nowhere,
    or never meet on one line (a question that leaves values out or ranks messages is read as written)."""
    unread = draft.ignored and not any(not isinstance(f, TimeFilter) for f in draft.filters)
    return bool(draft.goal and not draft.excluded and not draft.negated and draft.target != "message" and (
        draft.problem or unread or unmet(draft.filters, vocabulary)))


def _reading(q: Question, draft: Draft, columns: list[str], vocabulary: Vocabulary) -> Reading:
    """The typed result: the query, or the problem and what was asked of the question."""
    read = read_query(draft, columns, vocabulary) if draft.problem is None else None
    query, measured = read if read is not None else (None, None)
    query = anti_joined(query, draft, q.text) if query is not None else None
    if query is not None and (count := listed_for_a_count(q.text, query) + distinct_for_a_count(q.text, query)
                              + log_worded(q, draft, query, vocabulary)):
        draft.unread += count
        query = query.model_copy(update={"unread": (*query.unread, *count)})
    asked_for = draft.asked.measure
    if query is None and (asked_for is not None or draft.unread):
        query = Query(measure=asked_for or Count(), unread=tuple(draft.unread))
    grounding = draft.grounding
    return Reading(query=query, interpretation=_interpretation(draft, query), problem=draft.problem,
                   measured=measured, asked=asked_for, guesses=tuple(grounding.guesses),
                   absent=tuple(grounding.absent), level_noun=draft.level_noun)


def _interpretation(draft: Draft, query: Query | None) -> Interpretation:
    """What the question was read as, for the result and the answer."""
    return Interpretation(shape=draft.goal, target=draft.target, terms=draft.terms, corrections=draft.corrections,
                          ignored=list(dict.fromkeys(draft.unread + draft.ignored + draft.framing)), time_window=draft.window,
                          problem=draft.problem, excluded=draft.negated + [e.text for e in draft.excluded],
                          query=query)


@functools.lru_cache(maxsize=8)
def _spelling(vocabulary: Vocabulary) -> tuple[frozenset[str], tuple[str, ...]]:
    """Words never corrected (the rules' lexicon and every word of the rows), and the words to correct to."""
    (lexicon, whole), words = lexicon_words(), vocabulary.words()
    return lexicon | frozenset(words), tuple(sorted(whole)) + tuple(w for w in words if w not in whole)
