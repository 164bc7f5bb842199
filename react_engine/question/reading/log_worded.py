"""Words the rules read as their own that the log writes with the question's other words: a filler word or the kind
of value a question counts ("coming", "node", "client") is also a word of the log's messages ("User #29#, coming
from", "on this node", "initialized by client SPP"). Read as the rules' word, the answer may count other lines or
values than the question names, so such a word is unread (the answer is partial): a filler word that tells the lines
apart, and a kind counted that the log writes beside a word searched for."""

from __future__ import annotations

import re

from react_engine.lexicon.entity_words import TARGETS
from react_engine.lexicon.stop_words import (
    ANY_EVENT,
    ASKING_LEADS,
    FILLER,
    FILLER_NOUNS,
    FUNCTION_WORDS,
    PHRASE_ENDS,
    RATE_LEADS,
)
from react_engine.question.measures import Count, Key, Occurrence, Patterns, Unusual
from react_engine.question.query import Query, TextFilter
from react_engine.question.reading.draft import Draft, searched
from react_engine.question.reading.linked import NOT_NAMED
from react_engine.question.reading.question import Question, lead_in
from react_engine.question.reading.repeated_values import repeated
from react_engine.question.vocabulary import Vocabulary, singular

_GRAMMAR = ASKING_LEADS | FUNCTION_WORDS | PHRASE_ENDS | RATE_LEADS
"""Words that ask, point or join, which name nothing a log writes."""
_WORD = re.compile(r"(?<![\w.:/'-])[A-Za-z][a-z]+(?![\w.:/'-])")  # a word on its own, not a part of a written name
# what a "when did X first happen" asks the time of: the words between its verb and "first" or "last"
_WHEN_SUBJECT = re.compile(r"\bwhen\s+(?:did|was|were|does|do|is|are)\s+((?:[A-Za-z][\w-]*\s+){0,2}[A-Za-z][\w-]*)"
                           r"\s+(?:first|last|earliest|latest|most\s+recently)\b", re.I)


def log_worded(q: Question, draft: Draft, query: Query, vocabulary: Vocabulary) -> list[str]:
    """The words of the question proper the rules read as filler that the log writes on some but not all of the
    sampled lines the query's searches keep (of all sampled lines, for a filler noun of a question searching for
    nothing else: "when did job last happen"), and the word naming the kind of value counted when the log writes it
    right beside a word searched for, in the question's order ("client SPP"); and the words a "when did X first
    happen" names an event with that nothing searched."""
    unused = _unlisted(q.text, draft, query) + _unsearched_event(q.text, query, vocabulary)
    searches = [searched(f) for f in query.filters if isinstance(f, TextFilter) and not f.exclude]
    if not vocabulary.sampled or not (kept := vocabulary.events.meet(searches)):
        return unused  # a subject the query neither counts, ranks nor lists ("the last remove" asks a time)
    within = [*searches, *_extracted(query)]  # the lines the answer is of: those searched that hold the value asked
    scope = (searches, within, vocabulary.events.meet(within) if within != searches else kept)
    start = lead_in(q.text)
    words = [m for m in _WORD.finditer(q.text) if m.start() >= start and _free(m.group(0), draft, query)]
    misread = [m.group(0) for m in words if _misread(q, m, (draft, query), scope, vocabulary)]
    return list(dict.fromkeys(unused + misread + _counted_words(q, query, searches, vocabulary)))


def _counted_words(q: Question, query: Query, searches: list[str], vocabulary: Vocabulary) -> list[str]:
    """The word naming what "how many" counts, when the lines the searches keep are not that many of it: they
    write it after a number ("64 core files"), or with a value they repeat ("broadcast variable 12")."""
    named = _named(q.text)
    if counted := _numbered(q, named, query, searches, vocabulary):
        return counted
    if named and _searched(named[-1].group(0), query) and \
            not any(NOT_NAMED.fullmatch(w.group(0)) for w in named):  # "how many ... state lines" counts lines
        return repeated(named[-1].group(0), query, searches, vocabulary)
    return []


def _named(text: str) -> list[re.Match[str]]:
    """The words "how many" counts, up to the first joining word ("core files" of "how many core files were")."""
    m = re.search(r"\bhow many\s+((?:[A-Za-z][\w-]*\s+){0,3}[A-Za-z][\w-]*)", text, re.I)
    words = list(re.compile(r"[A-Za-z][\w-]*").finditer(text, m.start(1), m.end(1))) if m else []
    return words[:next((i for i, w in enumerate(words) if w.group(0).lower() in _GRAMMAR), len(words))]


def _numbered(q: Question, named: list[re.Match[str]], query: Query, searches: list[str],
              vocabulary: Vocabulary) -> list[str]:
    """What "how many" counts (`named`), when it ends in a filler word no reader took that the lines the searches
    keep write after a number ("how many core files were generated": "generated 64 core files"): their lines are
    not that many of it. A word of a count that names no lines ("times") is the count's own."""
    last = named[-1] if named else None
    if last is None or not isinstance(query.measure, Count) or NOT_NAMED.fullmatch(last.group(0)) or \
            not _dropped(q, last):
        return []
    written = r"\b\d[\d,.]*\s+" + r"\W+".join(re.escape(w.group(0)) for w in named) + r"\b"
    return [last.group(0)] if vocabulary.events.meet([*searches, written]) else []



def _unlisted(text: str, draft: Draft, query: Query) -> list[str]:
    """The word after "first" or "last" read as a field whose values the query does not list ("when was the last
    remove": a time asked of the lines, which the field's values do not select)."""
    name = draft.subject.name if draft.subject is not None and draft.subject.patterns else None
    if name is None or name in _keys(query):
        return []
    after = re.search(rf"\b(?:first|last|earliest|latest)\s+(?:\d+\s+)?({re.escape(name)}\w*)", text, re.I)
    return [after.group(1)] if after else []


def _free(word: str, draft: Draft, query: Query) -> bool:
    """Whether `word` may name something (no asking or joining word, nor a word of a count naming no lines: "how
    many times"), no search looks for it and it is not unread already."""
    return word.lower() not in _GRAMMAR and not NOT_NAMED.fullmatch(word) and not _searched(word, query) and \
        word not in draft.unread


def _extracted(query: Query) -> list[str]:
    """The pattern the value the query counts, ranks or lists is extracted with, when Python reads it; else []."""
    key = getattr(query.measure, "key", None)
    pattern = key.pattern.removeprefix("(?i)") if isinstance(key, Key) and key.pattern else None
    try:
        return [pattern] if pattern is not None and re.compile(pattern) else []
    except re.error:
        return []


def _misread(q: Question, m: re.Match[str], read: tuple[Draft, Query], scope: tuple[list[str], list[str], int],
             vocabulary: Vocabulary) -> bool:
    """Whether the word `m` is a filler word no reader took, or a kind of value the query does not use, that tells
    the lines the answer is of apart (`scope`: the searches, with them the pattern of the value asked, and how many
    sampled lines these keep), or a filler noun, the kind counted or a word asking for a
    measure that the log writes beside a word searched for ("boot command": "boot  (command 3023)"; "upload with
    pattern": "for upload with pattern: ..."). The sample holds messages only, while a search keeps any line whose
    text holds its word (a component "boot_cmd"), so a word the sampled lines all write may still tell them apart."""
    (draft, query), (searches, within, kept) = read, scope
    loose = (_dropped(q, m) and (bool(searches) or m.group(0).lower() in FILLER_NOUNS)) or \
        _kind_unused(m.group(0), draft, query)
    if loose and not _qualifies(q.text, m, query, vocabulary) and \
            0 < vocabulary.events.meet([*within, _whole(m.group(0))]) < kept:
        return True  # with no search, only a noun may name the event ("when did job last happen"), not "as"
    noun = _dropped(q, m) and m.group(0).lower() in FILLER_NOUNS and _unseen(searches, vocabulary)
    counted = _counted(m.group(0), draft, query) and not _values_written(query, searches, vocabulary)
    return (noun or counted or _asks(m, draft)) and _beside_a_search(q.text, m, query, searches, vocabulary)


def _unsearched_event(text: str, query: Query, vocabulary: Vocabulary) -> list[str]:
    """The words a "when did X first happen" names its event with when nothing searches for them and the log writes
    one of them on some lines but not all ("when did checking last happen", "when did service record first happen":
    the first or last of every line is no answer)."""
    asked = _WHEN_SUBJECT.search(text)
    if asked is None or not isinstance(query.measure, Occurrence) or query.filters or not vocabulary.sampled:
        return []
    words = [w for w in asked.group(1).split() if w.lower() not in ANY_EVENT]
    return [" ".join(asked.group(1).split())] if any(
        0 < vocabulary.events.meet([_whole(w)]) < vocabulary.sampled for w in words) else []


def _values_written(query: Query, searches: list[str], vocabulary: Vocabulary) -> bool:
    """Whether sampled lines the searches keep write a value of the kind counted, as its pattern finds them
    ("[instance: 3edec1e4-...] Instance spawned successfully": the word beside the search is the kind's own)."""
    key = getattr(query.measure, "key", None)
    pattern = key.pattern if isinstance(key, Key) else None
    return pattern is not None and _found_on(pattern, searches, vocabulary)


def _found_on(pattern: str, searches: list[str], vocabulary: Vocabulary) -> bool:
    """Whether a sampled line the searches keep matches `pattern` (False for a pattern Python cannot read)."""
    try:
        return vocabulary.events.meet([*searches, pattern]) > 0
    except re.error:
        return False


def _unseen(searches: list[str], vocabulary: Vocabulary) -> bool:
    """Whether a search also keeps lines by a name they are written with ("\\bboot" keeps the lines of component
    "boot_cmd"), which the sampled messages do not show."""
    return any(vocabulary.in_names(search) for search in searches)


def _asks(m: re.Match[str], draft: Draft) -> bool:
    """Whether the word `m` is one of the words read as asking for the kinds of message or what is unusual
    ("patterns", "new"), which name nothing of the lines (a statistic's or a comparison's words name fields and
    events)."""
    return isinstance(draft.asked.measure, Patterns | Unusual) and any(
        start <= m.start() and m.end() <= end for start, end in draft.asked.spans)


def _whole(word: str) -> str:
    """A regex of `word` as a whole word of a message ("can" is no word of "can't")."""
    return rf"(?<![\w']){re.escape(word)}(?![\w'])"


def _dropped(q: Question, m: re.Match[str]) -> bool:
    """Whether the word `m` is a filler word no reader took."""
    return m.group(0).lower() in FILLER and not any(q.used[m.start():m.end()])


def _qualifies(text: str, m: re.Match[str], query: Query, vocabulary: Vocabulary) -> bool:
    """Whether the word `m` names a neighbour rather than lines: it follows a word of the log's name ("the spark
    job": the run the log is of) or stands before a value the query searches or holds ("instance d96a117b-...":
    its kind)."""
    before = re.findall(r"[\w.:/-]+", text[:m.start()])
    after = re.findall(r"[\w.:/-]+", text[m.end():])
    value = after[0].lower() if after and re.search(r"\d", after[0]) else None  # an id, not a word of a measure
    held = (bool(after) and _searched(after[0], query)) or value in {n.lower() for n in _names(query.model_dump())}
    return bool(before and vocabulary.names_log(before[-1])) or held


def _kind_unused(word: str, draft: Draft, query: Query) -> bool:
    """Whether `word` names a kind of value ("status", "service", "eventtype") that the query neither counts,
    ranks, groups by, filters on nor keeps as a value ("how many status per pid" ranks pids: "status" is linked to
    nothing; "how many status lines" of dpkg keeps its action "status")."""
    kind = next((k for k, pattern in TARGETS if re.fullmatch(pattern, word, re.I)), None)
    used = {name.lower() for name in _names(query.model_dump(exclude={"unread"}))}
    return kind is not None and kind != draft.target and not {kind, word.lower()} & (used | _keys(query))


def _names(dumped: object) -> set[str]:
    """The strings of a query's fields, at any depth (a pivot's rows and columns: "lines by level and pid")."""
    if isinstance(dumped, dict):
        return {n for v in dumped.values() for n in _names(v)}
    if isinstance(dumped, list | tuple):
        return {n for v in dumped for n in _names(v)}
    return {dumped} if isinstance(dumped, str) else set()


def _counted(word: str, draft: Draft, query: Query) -> bool:
    """Whether `word` names the kind of value the query counts, ranks or groups by."""
    kind = dict(TARGETS).get(draft.target or "")
    return kind is not None and re.fullmatch(kind, word, re.I) is not None and draft.target in _keys(query)


def _keys(query: Query) -> set[str]:
    """The kinds of value the query counts, ranks or groups by."""
    key = getattr(query.measure, "key", None)
    return {*query.grouping.keys, *([key.name if isinstance(key, Key) else str(key)] if key else [])}


def _searched(word: str, query: Query) -> bool:
    """Whether one of the query's searches looks for `word` (a word of a phrase searched, or a form it keeps)."""
    texts = [f for f in query.filters if isinstance(f, TextFilter)]
    return any(word.lower() in f.value.lower().split() if not f.regex else _keeps(f.value, word) for f in texts)


def _keeps(pattern: str, word: str) -> bool:
    """Whether the regex `pattern` matches `word` from its start (`\\bsess` keeps "sessions"); False for a pattern
    Python cannot read (RE2 syntax)."""
    try:
        return re.match(pattern, word, re.I) is not None
    except re.error:
        return False


def _beside_a_search(text: str, m: re.Match[str], query: Query, searches: list[str], vocabulary: Vocabulary) -> bool:
    """Whether the word `m` stands beside a word searched for, or is joined to it by joining words only ("upload
    with pattern", "users were unknown"), and the sampled lines the searches keep write them together in that
    order, the joining words or not. Before the word searched for, `m` may be written in any of its forms ("user
    unknown"): the log writes it where a value of it would be; after it, `m` as written ("Invalid user admin" is
    no "invalid users": the log writes a user there)."""
    before = re.findall(r"[A-Za-z][\w-]*", text[:m.start()])[::-1]
    after = re.findall(r"[A-Za-z][\w-]*", text[m.end():])
    pairs = [_together(re.escape(run[-1]), run[:-1][::-1], re.escape(m.group(0))) for run in _joined(before, query)]
    pairs += [_together(re.escape(singular(m.group(0))) + r"\w*", run[:-1], re.escape(run[-1]))
              for run in _joined(after, query)]
    return any(vocabulary.events.meet([*searches, rf"\b{pair}\b"]) for pair in pairs)


def _together(first: str, joining: list[str], last: str) -> str:
    """A regex of `first` and `last` with the `joining` words between them, or without them."""
    return first + "".join(rf"(?:\W+{re.escape(w)})?" for w in joining) + r"\W+" + last


def _joined(words: list[str], query: Query) -> list[list[str]]:
    """The runs of `words` (nearest first) that end in a word searched for after no more than two joining words."""
    runs = [words[:k + 1] for k in range(min(3, len(words)))]
    return [run for run in runs if _searched(run[-1], query) and all(w.lower() in _GRAMMAR for w in run[:-1])]
